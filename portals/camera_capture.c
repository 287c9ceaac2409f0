/*
 * One camera provider run. The provider is handed a pipe as its standard output
 * and nothing else: stdin is /dev/null, every other fd is closed, the environment
 * is the short list below, argv is built as an array with "--" before the one
 * word that comes from the app's side (its id, and only for providers that ask).
 * cordon reads the pipe from the event loop without blocking, into a memfd, under
 * a size cap and a timeout; the result must start as the claimed mime type's
 * files do, and the app gets the memfd sealed and reopened read-only.
 *
 * The provider runs in a cordon-run sandbox of its own (its folder at /app, no
 * network, /dev/video* only for Device = video), or, with [portal] camera-launcher
 * = none, directly. Either way in a process group of its own, so that stopping it
 * stops what it started (cordon-run's sandbox dies with cordon-run).
 */
#include "portals/camera_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/format.h"
#include "portals/camera_providers.h"

struct cordon_camera_capture {
	cordon_camera_capture_done_func done;
	void *data;
	char *name; /* the provider's id, for logs */
	const char *mime_type; /* static text of ours, see mime_name */
	pid_t pid; /* 0 once reaped */
	pid_t pgid; /* its process group, kept after the provider is reaped */
	bool launcher; /* pid is cordon-run, which removes its cgroup scope when stopped */
	int pidfd, pipe_fd, memfd;
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

static void remove_source(struct wl_event_source **source) {
	if (*source) {
		wl_event_source_remove(*source);
		*source = NULL;
	}
}

/*
 * How long cordon-run gets to stop its sandbox (it kills it after 100 ms) and remove its
 * cgroup scope, which a SIGKILL would leave behind. A bounded wait on the rare paths that
 * stop a provider early: it hung, misbehaved, or its app went away.
 */
#define LAUNCHER_STOP_MS 300

static void stop_process(struct cordon_camera_capture *capture) {
	if (capture->pid > 0 && capture->launcher && capture->pidfd >= 0) {
		kill(capture->pid, SIGTERM);
		struct pollfd exited = {.fd = capture->pidfd, .events = POLLIN};
		while (poll(&exited, 1, LAUNCHER_STOP_MS) < 0 && errno == EINTR) {
		}
	}
	if (capture->pid > 0) {
		/* Its process group: whatever it started goes with it. */
		kill(-capture->pid, SIGKILL);
		kill(capture->pid, SIGKILL);
		while (waitpid(capture->pid, NULL, 0) < 0 && errno == EINTR) {
		}
		capture->pid = 0;
	}
}

static void close_fd(int *fd) {
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Ends the run: DONE is the last thing that happens, so it may destroy the capture. */
static void finish(struct cordon_camera_capture *capture, int fd, const char *error) {
	capture->finished = true;
	if (capture->pid == 0 && !capture->eof && capture->pgid > 0) {
		/*
		 * The provider exited but something it started still holds the pipe: that is
		 * in its group (the group cannot be reused while a member lives).
		 */
		kill(-capture->pgid, SIGKILL);
	}
	remove_source(&capture->pipe_source);
	remove_source(&capture->pid_source);
	remove_source(&capture->timer);
	close_fd(&capture->pipe_fd);
	stop_process(capture);
	close_fd(&capture->pidfd);
	capture->done(capture->data, fd, error);
}

static void fail(struct cordon_camera_capture *capture, const char *error) {
	close_fd(&capture->memfd);
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
		wlr_log_errno(WLR_ERROR, "Camera provider %s: cannot seal its photo", capture->name);
		fail(capture, "cordon could not seal the photo");
		return;
	}
	close_fd(&capture->memfd);
	wlr_log(WLR_INFO, "Camera provider %s made %zu bytes of %s", capture->name, capture->size,
		capture->mime_type);
	finish(capture, read_only, NULL);
}

static void check_complete(struct cordon_camera_capture *capture) {
	if (!capture->eof || capture->pid > 0) {
		return;
	}
	complete(capture);
}

static void reap(struct cordon_camera_capture *capture) {
	int status;
	pid_t got = waitpid(capture->pid, &status, WNOHANG);
	if (got <= 0) {
		return;
	}
	capture->pid = 0;
	remove_source(&capture->pid_source);
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
			wlr_log_errno(WLR_ERROR, "Camera provider %s: reading its photo",
				capture->name);
			fail(capture, "cordon could not read the photo");
			return 0;
		}
		if (n == 0) {
			capture->eof = true;
			remove_source(&capture->pipe_source);
			close_fd(&capture->pipe_fd);
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

/*
 * The profiles cordon hands cordon-run for providers, as a policy file on fd 3:
 * nothing shared, no relaxation, /dev/video* only for Device = video. The user's
 * own policy.ini is not read for them.
 */
static const char launcher_policy[] =
	"[profile cordon-camera]\nshare =\ndevices =\nallow =\n"
	"[profile cordon-camera-video]\nshare =\ndevices = video\nallow =\n";

static int make_policy_fd(void) {
	int fd = memfd_create("cordon-camera-policy", MFD_CLOEXEC);
	if (fd < 0) {
		return -1;
	}
	size_t len = sizeof(launcher_policy) - 1;
	if (write(fd, launcher_policy, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static pid_t spawn(const struct cordon_camera_provider *provider,
		const struct cordon_camera_capture_options *options, int out_fd) {
	char width[32], height[32], mime[128], app_id[128], app_dir[4096], program[4096];
	snprintf(width, sizeof(width), "--width=%u", options->width);
	snprintf(height, sizeof(height), "--height=%u", options->height);
	snprintf(mime, sizeof(mime), "--mime-type=%s", options->mime_type);
	char *argv[CORDON_CAMERA_MAX_ARGS + 24];
	size_t argc = 0;
	if (options->launcher) {
		/* Its program's folder is /app inside; the rest of Exec is passed as it is. */
		const char *slash = strrchr(provider->argv[0], '/');
		snprintf(app_dir, sizeof(app_dir), "%.*s",
			slash == provider->argv[0] ? 1 : (int)(slash - provider->argv[0]),
			provider->argv[0]);
		snprintf(program, sizeof(program), "/app/%s", slash + 1);
		snprintf(app_id, sizeof(app_id), "cordon-camera.%s", provider->id);
		argv[argc++] = (char *)options->launcher;
		argv[argc++] = "--no-wayland";
		argv[argc++] = "--app-id";
		argv[argc++] = app_id;
		argv[argc++] = "--app";
		argv[argc++] = app_dir;
		argv[argc++] = "--policy";
		argv[argc++] = "/dev/fd/3";
		argv[argc++] = "--profile";
		argv[argc++] = provider->needs_video ? "cordon-camera-video" : "cordon-camera";
		argv[argc++] = "--";
		argv[argc++] = program;
	} else {
		argv[argc++] = provider->argv[0];
	}
	for (size_t i = 1; i < provider->argc; i++) {
		argv[argc++] = provider->argv[i];
	}
	if (options->width && options->height) {
		argv[argc++] = width;
		argv[argc++] = height;
	}
	argv[argc++] = mime;
	if (provider->wants_app_id && options->app_id[0]) {
		/* The app id is the one word of the app's side: never an option. */
		argv[argc++] = "--";
		argv[argc++] = (char *)options->app_id;
	}
	argv[argc] = NULL;
	/* cordon-run keeps the per-provider data dirs under the user's data home. */
	char home[4096], data_home[4096];
	const char *home_env = getenv("HOME"), *data_env = getenv("XDG_DATA_HOME");
	snprintf(home, sizeof(home), "HOME=%s", home_env ? home_env : "/");
	snprintf(data_home, sizeof(data_home), "XDG_DATA_HOME=%s", data_env ? data_env : "");
	char *envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", NULL, NULL, NULL};
	if (options->launcher) {
		envp[2] = home;
		envp[3] = data_env && data_env[0] == '/' ? data_home : NULL;
	}
	int policy_fd = options->launcher ? make_policy_fd() : -1;
	if (options->launcher && policy_fd < 0) {
		return -1;
	}

	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&actions);
	posix_spawnattr_init(&attr);
	posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	/* stderr stays cordon's, so that a provider's reason lands in cordon's log. */
	if (policy_fd >= 0) {
		posix_spawn_file_actions_adddup2(&actions, policy_fd, 3);
	}
	posix_spawn_file_actions_addclosefrom_np(&actions, policy_fd >= 0 ? 4 : 3);
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
		POSIX_SPAWN_SETPGROUP);
	pid_t pid;
	int err = posix_spawn(&pid, argv[0], &actions, &attr, argv, envp);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	if (policy_fd >= 0) {
		close(policy_fd);
	}
	if (err != 0) {
		errno = err;
		return -1;
	}
	return pid;
}

struct cordon_camera_capture *cordon_camera_capture_start(struct wl_event_loop *loop,
		const struct cordon_camera_provider *provider,
		const struct cordon_camera_capture_options *options,
		cordon_camera_capture_done_func done, void *data, const char **error) {
	*error = "cordon could not start the camera provider";
	struct cordon_camera_capture *capture = calloc(1, sizeof(*capture));
	if (!capture) {
		return NULL;
	}
	capture->done = done;
	capture->data = data;
	capture->pipe_fd = capture->pidfd = capture->memfd = -1;
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
	capture->pid = spawn(provider, options, fds[1]);
	capture->pgid = capture->pid;
	capture->launcher = options->launcher != NULL;
	close(fds[1]);
	if (capture->pid < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot start the camera provider %s (%s)", provider->id,
			provider->argv[0]);
		capture->pid = 0;
		goto error;
	}
	wlr_log(WLR_INFO, "Camera provider %s started as pid %d", provider->id, (int)capture->pid);
	capture->pidfd = (int)syscall(SYS_pidfd_open, capture->pid, 0);
	capture->pipe_source = wl_event_loop_add_fd(loop, capture->pipe_fd, WL_EVENT_READABLE,
		handle_pipe, capture);
	capture->pid_source = capture->pidfd >= 0 ? wl_event_loop_add_fd(loop, capture->pidfd,
		WL_EVENT_READABLE, handle_pid, capture) : NULL;
	capture->timer = wl_event_loop_add_timer(loop, handle_timeout, capture);
	if (capture->pidfd < 0 || !capture->pipe_source || !capture->pid_source ||
			!capture->timer || wl_event_source_timer_update(capture->timer,
				options->timeout_ms) != 0) {
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
	remove_source(&capture->pipe_source);
	remove_source(&capture->pid_source);
	remove_source(&capture->timer);
	if (capture->pid > 0) {
		wlr_log(WLR_INFO, "Camera provider %s (pid %d) stopped: its request went away",
			capture->name, (int)capture->pid);
	}
	stop_process(capture);
	close_fd(&capture->pipe_fd);
	close_fd(&capture->pidfd);
	close_fd(&capture->memfd);
	free(capture->name);
	free(capture);
}
