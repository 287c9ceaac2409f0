/*
 * One photo from a camera provider (started by portals/camera_process.c). cordon
 * reads its pipe from the event loop without blocking, into a memfd, under a size
 * cap and a timeout; the result must start as the claimed mime type's files do,
 * and the app gets the memfd sealed and reopened read-only.
 */
#include "portals/camera_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/format.h"
#include "common/release.h"
#include "portals/camera_process.h"
#include "portals/camera_providers.h"

struct cordon_camera_capture {
	cordon_camera_capture_done_func done;
	void *data;
	char *name; /* the provider's id, for logs */
	const char *mime_type; /* static text of ours, see mime_name */
	struct cordon_camera_process process;
	int pipe_fd, memfd;
	size_t size, max_bytes;
	bool eof, finished;
	struct wl_event_source *pipe_source, *pid_source, *timer;
};

static const char *const mime_names[] = {"image/png", "image/jpeg"};

static const char *mime_name(const char *mime_type) {
	for (size_t i = 0; i < sizeof(mime_names) / sizeof(mime_names[0]); i++) {
		if (strcmp(mime_names[i], mime_type) == 0) {
			return mime_names[i];
		}
	}
	return NULL;
}

bool cordon_camera_check_magic(const unsigned char *data, size_t len, const char *mime_type) {
	static const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	static const unsigned char jpeg[] = {0xff, 0xd8, 0xff};
	if (strcmp(mime_type, "image/png") == 0) {
		return len >= sizeof(png) && memcmp(data, png, sizeof(png)) == 0;
	}
	if (strcmp(mime_type, "image/jpeg") == 0) {
		/* A JPEG also ends with its end-of-image marker; a cut-off one does not. */
		return len >= sizeof(jpeg) + 2 && memcmp(data, jpeg, sizeof(jpeg)) == 0 &&
			data[len - 2] == 0xff && data[len - 1] == 0xd9;
	}
	return false;
}

/* Ends the run: DONE is the last thing that happens, so it may destroy the capture. */
static void finish(struct cordon_camera_capture *capture, int fd, const char *error) {
	capture->finished = true;
	if (capture->process.pid == 0 && !capture->eof) {
		/* The provider exited but something it started still holds the pipe. */
		cordon_camera_process_kill_group(&capture->process);
	}
	cordon_remove_source(&capture->pipe_source);
	cordon_remove_source(&capture->pid_source);
	cordon_remove_source(&capture->timer);
	cordon_close_fd(&capture->pipe_fd);
	cordon_camera_process_stop(&capture->process);
	capture->done(capture->data, fd, error);
}

static void fail(struct cordon_camera_capture *capture, const char *error) {
	cordon_close_fd(&capture->memfd);
	finish(capture, -1, error);
}

/* The photo is whole: check it, seal it, hand a read-only fd of it over. */
static void complete(struct cordon_camera_capture *capture) {
	unsigned char *data = NULL;
	if (capture->size > 0) {
		data = mmap(NULL, capture->size, PROT_READ, MAP_SHARED, capture->memfd, 0);
		if (data == MAP_FAILED) {
			wlr_log_errno(WLR_ERROR, "Camera provider %s: cannot map its photo",
				capture->name);
			fail(capture, "cordon could not read the photo");
			return;
		}
	}
	bool valid = data && cordon_camera_check_magic(data, capture->size, capture->mime_type);
	if (data) {
		munmap(data, capture->size);
	}
	if (!valid) {
		wlr_log(WLR_ERROR, "Camera provider %s: its %zu bytes are not %s", capture->name,
			capture->size, capture->mime_type);
		fail(capture, "the camera provider did not make the image it claims");
		return;
	}
	int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", capture->memfd);
	int read_only = -1;
	if (fcntl(capture->memfd, F_ADD_SEALS, seals) == 0) {
		read_only = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (read_only < 0) {
		wlr_log_errno(
			WLR_ERROR, "Camera provider %s: cannot seal its photo", capture->name);
		fail(capture, "cordon could not seal the photo");
		return;
	}
	cordon_close_fd(&capture->memfd);
	wlr_log(WLR_INFO, "Camera provider %s made %zu bytes of %s", capture->name, capture->size,
		capture->mime_type);
	finish(capture, read_only, NULL);
}

static void check_complete(struct cordon_camera_capture *capture) {
	if (!capture->eof || capture->process.pid > 0) {
		return;
	}
	complete(capture);
}

static void reap(struct cordon_camera_capture *capture) {
	int status;
	if (!cordon_camera_process_reap(&capture->process, &status)) {
		return;
	}
	cordon_remove_source(&capture->pid_source);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		wlr_log(WLR_ERROR, "Camera provider %s failed (%s %d)", capture->name,
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		fail(capture, "the camera provider failed");
		return;
	}
	check_complete(capture);
}

static int handle_pid(int fd, uint32_t mask, void *data) {
	reap(data);
	return 0;
}

static int handle_pipe(int fd, uint32_t mask, void *data) {
	struct cordon_camera_capture *capture = data;
	char buffer[65536];
	/* A bounded number of reads per wake-up: other clients get their turn. */
	for (int round = 0; round < 16; round++) {
		ssize_t n = read(fd, buffer, sizeof(buffer));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			return 0;
		}
		if (n < 0) {
			wlr_log_errno(
				WLR_ERROR, "Camera provider %s: reading its photo", capture->name);
			fail(capture, "cordon could not read the photo");
			return 0;
		}
		if (n == 0) {
			capture->eof = true;
			cordon_remove_source(&capture->pipe_source);
			cordon_close_fd(&capture->pipe_fd);
			check_complete(capture);
			return 0;
		}
		if ((size_t)n > capture->max_bytes - capture->size) {
			wlr_log(WLR_ERROR, "Camera provider %s wrote more than %zu bytes",
				capture->name, capture->max_bytes);
			fail(capture, "the camera provider's photo is too large");
			return 0;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(capture->memfd, buffer + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				continue;
			}
			if (w <= 0) {
				wlr_log_errno(WLR_ERROR, "Camera provider %s: keeping its photo",
					capture->name);
				fail(capture, "cordon could not keep the photo");
				return 0;
			}
			off += w;
		}
		capture->size += (size_t)n;
	}
	return 0;
}

static int handle_timeout(void *data) {
	struct cordon_camera_capture *capture = data;
	wlr_log(WLR_ERROR, "Camera provider %s did not finish in time; stopped", capture->name);
	fail(capture, "the camera provider took too long");
	return 0;
}

struct cordon_camera_capture *cordon_camera_capture_start(struct wl_event_loop *loop,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_capture_options *options, cordon_camera_capture_done_func done,
	void *data, const char **error) {
	*error = "cordon could not start the camera provider";
	struct cordon_camera_capture *capture = calloc(1, sizeof(*capture));
	if (!capture) {
		return NULL;
	}
	capture->done = done;
	capture->data = data;
	capture->pipe_fd = capture->memfd = -1;
	capture->process.pidfd = -1;
	capture->max_bytes = options->max_bytes;
	capture->mime_type = mime_name(options->mime_type);
	capture->name = strdup(provider->id);
	int fds[2] = {-1, -1};
	if (!capture->name || !capture->mime_type) {
		goto error;
	}
	capture->memfd = memfd_create("cordon-photo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (capture->memfd < 0 || pipe2(fds, O_CLOEXEC) != 0) {
		wlr_log_errno(WLR_ERROR, "Camera provider %s: no memfd or pipe", provider->id);
		goto error;
	}
	capture->pipe_fd = fds[0];
	fcntl(capture->pipe_fd, F_SETFL, O_NONBLOCK);
	struct cordon_camera_process_options process_options = {
		.width = options->width,
		.height = options->height,
		.mime_type = capture->mime_type,
		.app_id = options->app_id,
		.launcher = options->launcher,
	};
	bool started =
		cordon_camera_process_spawn(&capture->process, provider, &process_options, fds[1]);
	close(fds[1]);
	if (!started) {
		wlr_log_errno(WLR_ERROR, "Cannot start the camera provider %s (%s)", provider->id,
			provider->argv[0]);
		goto error;
	}
	wlr_log(WLR_INFO, "Camera provider %s started as pid %d", provider->id,
		(int)capture->process.pid);
	int pidfd = capture->process.pidfd;
	capture->pipe_source = wl_event_loop_add_fd(
		loop, capture->pipe_fd, WL_EVENT_READABLE, handle_pipe, capture);
	capture->pid_source = pidfd >= 0
		? wl_event_loop_add_fd(loop, pidfd, WL_EVENT_READABLE, handle_pid, capture)
		: NULL;
	capture->timer = wl_event_loop_add_timer(loop, handle_timeout, capture);
	if (pidfd < 0 || !capture->pipe_source || !capture->pid_source || !capture->timer ||
		wl_event_source_timer_update(capture->timer, options->timeout_ms) != 0) {
		wlr_log_errno(WLR_ERROR, "Camera provider %s: cannot watch it", provider->id);
		goto error;
	}
	return capture;
error:
	cordon_camera_capture_destroy(capture);
	return NULL;
}

void cordon_camera_capture_destroy(struct cordon_camera_capture *capture) {
	if (!capture) {
		return;
	}
	cordon_remove_source(&capture->pipe_source);
	cordon_remove_source(&capture->pid_source);
	cordon_remove_source(&capture->timer);
	if (capture->process.pid > 0) {
		wlr_log(WLR_INFO, "Camera provider %s (pid %d) stopped: its request went away",
			capture->name, (int)capture->process.pid);
	}
	cordon_camera_process_stop(&capture->process);
	cordon_close_fd(&capture->pipe_fd);
	cordon_close_fd(&capture->memfd);
	free(capture->name);
	free(capture);
}
