/*
 * The relay of a camera stream. The provider writes frames (include/cordon/camera-frame.h)
 * to a pipe that cordon reads without blocking; each frame's header is checked before
 * its pixels are read, so a provider cannot make cordon keep more than one frame's cap.
 * Frames go to the app's pipe, also without blocking. While the app keeps up (its
 * pipe is empty when a header comes) the pixels are spliced from pipe to pipe and
 * never copied through cordon. A reader that falls behind gets whole frames copied
 * through cordon, and the newest, not a backlog: cordon keeps the frame being
 * written and one more, and drops the one that waits when a newer one is whole.
 * Neither side can stall cordon or the other side.
 */
#include "portals/camera_relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/release.h"
#include "cordon/camera-frame.h"
#include "portals/camera_process.h"
#include "portals/camera_providers.h"

#define HEADER_SIZE sizeof(struct cordon_camera_frame_header)
/* What a pipe may hold without privilege (fs.pipe-max-size): a 640x480 frame, whole. */
#define PIPE_SIZE (1024 * 1024)

struct frame {
	unsigned char *data; /* header, then pixels */
	size_t size, capacity;
};

struct cordon_camera_relay {
	cordon_camera_relay_ended_func ended;
	void *data;
	char *name; /* the provider's id, for logs */
	struct cordon_camera_process process;
	int provider_fd, app_fd;
	struct wl_event_source *provider_source, *app_source, *pid_source, *timer;
	size_t max_frame_bytes;
	int timeout_ms;
	struct frame reading; /* from the provider: reading.size bytes so far */
	size_t reading_want; /* HEADER_SIZE until the header is in, then the whole frame */
	struct frame sending; /* to the app, from sent on; size 0 when none */
	size_t sent;
	struct frame waiting; /* the next one to send; size 0 when none */
	/* Cut-through: this frame's pixels move from pipe to pipe by splice(), uncopied. */
	size_t splice_left; /* 0 when not splicing */
	size_t app_pipe_size; /* F_GETPIPE_SZ of the app's pipe */
	bool provider_done; /* its end of file: what is queued still goes to the app */
	/* Frames go to this callback instead of a pipe (a dialog's preview). */
	cordon_camera_relay_frame_func frame;
	bool in_frame_callback, destroyed; /* destroy() from the callback frees after it */
	bool finished;
	struct cordon_camera_relay_stats stats;
};

bool cordon_camera_frame_header_check(
	const struct cordon_camera_frame_header *header, size_t max_bytes, const char **reason) {
	*reason = cordon_camera_frame_header_problem(header);
	if (!*reason && header->size > max_bytes) {
		*reason = "a frame over the size cap";
	}
	return *reason == NULL;
}

static void swap_frames(struct frame *a, struct frame *b) {
	struct frame tmp = *a;
	*a = *b;
	*b = tmp;
}

/* ENDED is the last thing that happens: the owner may destroy the relay in it. */
static void end(
	struct cordon_camera_relay *relay, enum cordon_camera_relay_end how, const char *message) {
	if (relay->finished) {
		return;
	}
	relay->finished = true;
	cordon_remove_source(&relay->provider_source);
	cordon_remove_source(&relay->app_source);
	cordon_remove_source(&relay->pid_source);
	cordon_remove_source(&relay->timer);
	wlr_log(WLR_INFO, "Camera stream from %s ended: %s (%llu frames, %llu dropped)",
		relay->name, message, (unsigned long long)relay->stats.frames,
		(unsigned long long)relay->stats.dropped);
	relay->ended(relay->data, how, message);
}

static void watch_app(struct cordon_camera_relay *relay, bool writable) {
	if (relay->app_source) {
		wl_event_source_fd_update(relay->app_source, writable ? WL_EVENT_WRITABLE : 0);
	}
}

static void relay_free(struct cordon_camera_relay *relay) {
	free(relay->reading.data);
	free(relay->sending.data);
	free(relay->waiting.data);
	free(relay->name);
	free(relay);
}

/* Writes what the app's pipe takes now; false once the relay has ended. */
static bool send_frames(struct cordon_camera_relay *relay) {
	while (relay->sending.size > 0) {
		ssize_t n = write(relay->app_fd, relay->sending.data + relay->sent,
			relay->sending.size - relay->sent);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			watch_app(relay, true);
			return true;
		}
		if (n < 0) {
			/* EPIPE: the app closed its fd (cordon ignores SIGPIPE, see data_proxy.c).
			 */
			end(relay, CORDON_CAMERA_RELAY_READER_CLOSED, "the app closed the stream");
			return false;
		}
		relay->sent += (size_t)n;
		relay->stats.bytes += (uint64_t)n;
		if (relay->sent < relay->sending.size) {
			continue;
		}
		relay->sent = 0;
		relay->sending.size = 0;
		swap_frames(&relay->sending, &relay->waiting);
	}
	watch_app(relay, false);
	if (relay->provider_done) {
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider stopped");
		return false;
	}
	return true;
}

static bool reserve(struct frame *frame, size_t size) {
	if (frame->capacity >= size) {
		return true;
	}
	unsigned char *data = realloc(frame->data, size);
	if (!data) {
		return false;
	}
	frame->data = data;
	frame->capacity = size;
	return true;
}

static bool frame_done(struct cordon_camera_relay *relay) {
	const struct cordon_camera_frame_header *header =
		(const struct cordon_camera_frame_header *)relay->reading.data;
	relay->stats.frames++;
	relay->stats.width = header->width;
	relay->stats.height = header->height;
	wl_event_source_timer_update(relay->timer, relay->timeout_ms);
	if (relay->frame) {
		relay->in_frame_callback = true;
		relay->frame(relay->data, header, relay->reading.data + HEADER_SIZE);
		relay->in_frame_callback = false;
		if (relay->destroyed) {
			relay_free(relay);
			return false;
		}
	} else if (relay->sending.size == 0) {
		swap_frames(&relay->reading, &relay->sending);
	} else {
		if (relay->waiting.size > 0) {
			relay->stats.dropped++;
		}
		/* The newest frame waits; the one it replaces is dropped. */
		swap_frames(&relay->reading, &relay->waiting);
	}
	relay->reading.size = 0;
	relay->reading_want = HEADER_SIZE;
	/* The buffer swapped in may be one that never held a frame. */
	if (!reserve(&relay->reading, HEADER_SIZE)) {
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "cordon is out of memory");
		return false;
	}
	return true;
}

/*
 * Whether a frame of SIZE bytes can go straight through: nothing of the app's is
 * queued in cordon, and its pipe is empty and holds the whole frame (a spliced page
 * takes a slot of its own, hence the margin), so no splice can block on the app's side.
 */
static bool can_cut_through(struct cordon_camera_relay *relay, size_t size) {
	int queued = 0;
	return !relay->frame && relay->sending.size == 0 && relay->app_pipe_size > 0 &&
		size + 4 * 4096 <= relay->app_pipe_size &&
		ioctl(relay->app_fd, FIONREAD, &queued) == 0 && queued == 0;
}

/* Moves what the provider has of the frame being spliced; false once the relay ended. */
static bool splice_pixels(struct cordon_camera_relay *relay, bool *again) {
	ssize_t n = splice(relay->provider_fd, NULL, relay->app_fd, NULL, relay->splice_left,
		SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		*again = true;
		struct pollfd app = {.fd = relay->app_fd, .events = POLLOUT};
		if (poll(&app, 1, 0) == 0) {
			/*
			 * The app's side is full after all (a provider that writes in odd pieces
			 * fills more pipe slots): wait for it, not for the provider, which would
			 * wake cordon again at once.
			 */
			wl_event_source_fd_update(relay->provider_source, 0);
			watch_app(relay, true);
		}
		return true;
	}
	if (n < 0 && errno == EPIPE) {
		end(relay, CORDON_CAMERA_RELAY_READER_CLOSED, "the app closed the stream");
		return false;
	}
	if (n <= 0) {
		if (n < 0) {
			wlr_log_errno(
				WLR_ERROR, "Camera provider %s: relaying its stream", relay->name);
		}
		/* A frame cut short: the app has its header and part of it, nothing more comes. */
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider stopped");
		return false;
	}
	relay->splice_left -= (size_t)n;
	relay->stats.bytes += (uint64_t)n;
	if (relay->splice_left == 0) {
		relay->stats.frames++;
		wl_event_source_timer_update(relay->timer, relay->timeout_ms);
	}
	return true;
}

/* The header is in: check it, then make room for the pixels it announces. */
static bool header_done(struct cordon_camera_relay *relay) {
	struct cordon_camera_frame_header header;
	memcpy(&header, relay->reading.data, HEADER_SIZE);
	const char *reason;
	if (!cordon_camera_frame_header_check(&header, relay->max_frame_bytes, &reason)) {
		wlr_log(WLR_ERROR, "Camera provider %s sent %s (frame %llu)", relay->name, reason,
			(unsigned long long)relay->stats.frames);
		end(relay, CORDON_CAMERA_RELAY_PROVIDER,
			"the camera provider sent what is not a frame");
		return false;
	}
	if (can_cut_through(relay, HEADER_SIZE + header.size)) {
		/* The header is all that passes through cordon's memory. */
		ssize_t n = write(relay->app_fd, relay->reading.data, HEADER_SIZE);
		if (n == (ssize_t)HEADER_SIZE) {
			relay->stats.bytes += HEADER_SIZE;
			relay->reading.size = 0;
			relay->splice_left = header.size;
			return true;
		}
		if (n >= 0 || errno != EAGAIN) {
			end(relay, CORDON_CAMERA_RELAY_READER_CLOSED, "the app closed the stream");
			return false;
		}
	}
	relay->reading_want = HEADER_SIZE + header.size;
	if (!reserve(&relay->reading, relay->reading_want)) {
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "cordon is out of memory");
		return false;
	}
	return true;
}

static int handle_provider_readable(int fd, uint32_t mask, void *data) {
	struct cordon_camera_relay *relay = data;
	bool sent_any = false;
	/* A bounded number of reads per wake-up: other clients get their turn. */
	for (int round = 0; round < 16; round++) {
		if (relay->splice_left > 0) {
			bool again = false;
			if (!splice_pixels(relay, &again)) {
				return 0;
			}
			if (again) {
				break;
			}
			continue;
		}
		struct frame *frame = &relay->reading;
		ssize_t n = read(fd, frame->data + frame->size, relay->reading_want - frame->size);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			break;
		}
		if (n < 0) {
			wlr_log_errno(
				WLR_ERROR, "Camera provider %s: reading its stream", relay->name);
			end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider stopped");
			return 0;
		}
		if (n == 0) {
			/* The frames it sent before it stopped still reach the app (or time out).
			 */
			relay->provider_done = true;
			cordon_remove_source(&relay->provider_source);
			wl_event_source_timer_update(relay->timer, relay->timeout_ms);
			send_frames(relay);
			return 0;
		}
		frame->size += (size_t)n;
		if (frame->size < relay->reading_want) {
			continue;
		}
		if (relay->reading_want == HEADER_SIZE) {
			if (!header_done(relay)) {
				return 0;
			}
			if (relay->splice_left > 0 || relay->reading_want > HEADER_SIZE) {
				continue;
			}
		}
		if (!frame_done(relay)) {
			return 0;
		}
		sent_any = true;
	}
	if (sent_any && relay->app_source) {
		send_frames(relay);
	}
	return 0;
}

static int handle_app_writable(int fd, uint32_t mask, void *data) {
	struct cordon_camera_relay *relay = data;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		end(relay, CORDON_CAMERA_RELAY_READER_CLOSED, "the app closed the stream");
		return 0;
	}
	if (relay->splice_left > 0) {
		/* A splice waited for room: the provider's pipe is watched again. */
		watch_app(relay, false);
		wl_event_source_fd_update(relay->provider_source, WL_EVENT_READABLE);
		return handle_provider_readable(relay->provider_fd, WL_EVENT_READABLE, relay);
	}
	send_frames(relay);
	return 0;
}

static int handle_pid(int fd, uint32_t mask, void *data) {
	struct cordon_camera_relay *relay = data;
	int status;
	if (!cordon_camera_process_reap(&relay->process, &status)) {
		return 0;
	}
	cordon_remove_source(&relay->pid_source);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		wlr_log(WLR_ERROR, "Camera provider %s failed while streaming (%s %d)", relay->name,
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider failed");
		return 0;
	}
	/* What it started must not keep the stream going: the pipe's end of file ends it. */
	cordon_camera_process_kill_group(&relay->process);
	return 0;
}

static int handle_timeout(void *data) {
	struct cordon_camera_relay *relay = data;
	if (relay->provider_done) {
		end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider stopped");
		return 0;
	}
	wlr_log(WLR_ERROR, "Camera provider %s sent no frame for %d ms; stopped", relay->name,
		relay->timeout_ms);
	end(relay, CORDON_CAMERA_RELAY_PROVIDER, "the camera provider stalled");
	return 0;
}

struct cordon_camera_relay *cordon_camera_relay_start(struct wl_event_loop *loop,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_relay_options *options, cordon_camera_relay_ended_func ended,
	void *data, int *app_fd, const char **error) {
	*error = "cordon could not start the camera provider";
	if (app_fd) {
		*app_fd = -1;
	}
	struct cordon_camera_relay *relay = calloc(1, sizeof(*relay));
	if (!relay) {
		return NULL;
	}
	relay->ended = ended;
	relay->data = data;
	relay->provider_fd = relay->app_fd = relay->process.pidfd = -1;
	relay->max_frame_bytes = options->max_frame_bytes;
	relay->timeout_ms = options->timeout_ms;
	relay->reading_want = HEADER_SIZE;
	relay->frame = options->frame;
	relay->name = strdup(provider->id);
	int from_provider[2] = {-1, -1}, to_app[2] = {-1, -1};
	if (!relay->name || !reserve(&relay->reading, HEADER_SIZE)) {
		goto error;
	}
	if (pipe2(from_provider, O_CLOEXEC) != 0 ||
		(!relay->frame && pipe2(to_app, O_CLOEXEC) != 0)) {
		wlr_log_errno(WLR_ERROR, "Camera provider %s: no pipes", provider->id);
		goto error;
	}
	relay->provider_fd = from_provider[0];
	relay->app_fd = to_app[1];
	/* Fewer wake-ups for a frame; the default (64 KiB) is kept when the kernel refuses. */
	fcntl(relay->provider_fd, F_SETPIPE_SZ, PIPE_SIZE);
	if (fcntl(relay->provider_fd, F_SETFL, O_NONBLOCK) != 0) {
		goto error;
	}
	if (!relay->frame) {
		fcntl(relay->app_fd, F_SETPIPE_SZ, PIPE_SIZE);
		int size = fcntl(relay->app_fd, F_GETPIPE_SZ);
		relay->app_pipe_size = size > 0 ? (size_t)size : 0;
		if (fcntl(relay->app_fd, F_SETFL, O_NONBLOCK) != 0) {
			goto error;
		}
	}
	struct cordon_camera_process_options process_options = {
		.width = options->width,
		.height = options->height,
		.app_id = options->app_id,
		.launcher = options->launcher,
	};
	bool started = cordon_camera_process_spawn(
		&relay->process, provider, &process_options, from_provider[1]);
	cordon_close_fd(&from_provider[1]);
	if (!started) {
		wlr_log_errno(WLR_ERROR, "Cannot start the camera provider %s (%s)", provider->id,
			provider->argv[0]);
		goto error;
	}
	wlr_log(WLR_INFO, "Camera provider %s streams as pid %d", provider->id,
		(int)relay->process.pid);
	relay->provider_source = wl_event_loop_add_fd(
		loop, relay->provider_fd, WL_EVENT_READABLE, handle_provider_readable, relay);
	relay->app_source = relay->frame
		? NULL
		: wl_event_loop_add_fd(loop, relay->app_fd, 0, handle_app_writable, relay);
	relay->pid_source = relay->process.pidfd >= 0
		? wl_event_loop_add_fd(
			  loop, relay->process.pidfd, WL_EVENT_READABLE, handle_pid, relay)
		: NULL;
	relay->timer = wl_event_loop_add_timer(loop, handle_timeout, relay);
	if (!relay->provider_source || (!relay->frame && !relay->app_source) ||
		!relay->pid_source || !relay->timer ||
		wl_event_source_timer_update(relay->timer, options->timeout_ms) != 0) {
		wlr_log_errno(WLR_ERROR, "Camera provider %s: cannot watch it", provider->id);
		goto error;
	}
	if (app_fd) {
		*app_fd = to_app[0];
	}
	return relay;
error:
	cordon_close_fd(&from_provider[1]);
	cordon_close_fd(&to_app[0]);
	cordon_camera_relay_destroy(relay);
	return NULL;
}

void cordon_camera_relay_destroy(struct cordon_camera_relay *relay) {
	if (!relay) {
		return;
	}
	cordon_remove_source(&relay->provider_source);
	cordon_remove_source(&relay->app_source);
	cordon_remove_source(&relay->pid_source);
	cordon_remove_source(&relay->timer);
	/* The app's end first: it sees the end now, not after the provider has stopped. */
	cordon_close_fd(&relay->app_fd);
	cordon_camera_process_stop(&relay->process);
	cordon_close_fd(&relay->provider_fd);
	relay->finished = true;
	if (relay->in_frame_callback) {
		relay->destroyed = true;
		return;
	}
	relay_free(relay);
}

const struct cordon_camera_relay_stats *cordon_camera_relay_get_stats(
	const struct cordon_camera_relay *relay) {
	return &relay->stats;
}
