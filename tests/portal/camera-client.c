/*
 * A camera portal client for the misuse tests, printing one line per event
 * ("photo MIME", "cancelled", "failed CODE REASON", "parent destroyed",
 * "protocol-error INTERFACE CODE", "disconnected").
 *
 *   camera-client cap       nine photo requests: one more than the per-client cap
 *   camera-client late      set_size after submit
 *   camera-client size      a size of 0
 *   camera-client mime      a malformed mime type
 *   camera-client mimes     17 mime types
 *   camera-client parent    a photo for a toplevel, which goes on SIGUSR1
 *   camera-client streams   five streams at once, never read: one more than the cap
 *   camera-client old-stream  a stream asked for on a version 3 manager
 *   camera-client stream-size  a stream of size 0
 *
 * Streams print "stream", "ended REASON MESSAGE", or failed as photos do.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "cordon-portal-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static int signal_pipe[2];
static struct cordon_portal_manager_v1 *manager;
static struct wl_compositor *compositor;
static struct xdg_wm_base *wm_base;
/* 4: streams are relayed pipes; old-stream binds 3 to see that refused. */
static uint32_t manager_version = 4;

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	if (strcmp(interface, cordon_portal_manager_v1_interface.name) == 0 &&
		version >= manager_version) {
		manager = wl_registry_bind(
			registry, name, &cordon_portal_manager_v1_interface, manager_version);
	} else if (strcmp(interface, wl_compositor_interface.name) == 0) {
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_photo(void *data, struct cordon_portal_camera_photo_v1 *photo, int32_t fd,
	const char *mime_type) {
	printf("photo %s\n", mime_type);
	close(fd);
}

static void handle_cancelled(void *data, struct cordon_portal_camera_photo_v1 *photo) {
	printf("cancelled\n");
}

static void handle_failed(void *data, struct cordon_portal_camera_photo_v1 *photo, uint32_t failure,
	const char *reason) {
	printf("failed %u %s\n", failure, reason);
}

static const struct cordon_portal_camera_photo_v1_listener photo_listener = {
	.photo = handle_photo,
	.cancelled = handle_cancelled,
	.failed = handle_failed,
};

static struct cordon_portal_camera_photo_v1 *make_photo(void) {
	struct cordon_portal_camera_photo_v1 *photo = cordon_portal_manager_v1_take_photo(manager);
	cordon_portal_camera_photo_v1_add_listener(photo, &photo_listener, NULL);
	return photo;
}

static void handle_stream(void *data, struct cordon_portal_camera_stream_v1 *stream, int32_t fd) {
	/* Kept open and never read: a reader that falls behind for good. */
	printf("stream\n");
}

static void handle_stream_cancelled(void *data, struct cordon_portal_camera_stream_v1 *stream) {
	printf("cancelled\n");
}

static void handle_stream_failed(void *data, struct cordon_portal_camera_stream_v1 *stream,
	uint32_t failure, const char *reason) {
	printf("failed %u %s\n", failure, reason);
}

static void handle_stream_ended(void *data, struct cordon_portal_camera_stream_v1 *stream,
	uint32_t reason, const char *message) {
	printf("ended %u %s\n", reason, message);
}

static const struct cordon_portal_camera_stream_v1_listener stream_listener = {
	.stream = handle_stream,
	.cancelled = handle_stream_cancelled,
	.failed = handle_stream_failed,
	.ended = handle_stream_ended,
};

static struct cordon_portal_camera_stream_v1 *make_stream(void) {
	struct cordon_portal_camera_stream_v1 *stream =
		cordon_portal_manager_v1_open_camera_stream(manager);
	cordon_portal_camera_stream_v1_add_listener(stream, &stream_listener, NULL);
	return stream;
}

static void handle_signal(int sig) {
	char c = 1;
	(void)!write(signal_pipe[1], &c, 1);
}

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr,
			"usage: camera-client cap|late|size|mime|mimes|parent|streams|"
			"old-stream|stream-size\n");
		return 2;
	}
	const char *mode = argv[1];
	if (pipe(signal_pipe) != 0) {
		return 2;
	}
	signal(SIGUSR1, handle_signal);
	if (strcmp(mode, "old-stream") == 0) {
		manager_version = 3;
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "camera-client: no display\n");
		return 2;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!manager || !compositor || !wm_base) {
		fprintf(stderr, "camera-client: missing globals\n");
		return 2;
	}
	struct wl_surface *surface = NULL;
	struct xdg_surface *xdg_surface = NULL;
	struct xdg_toplevel *toplevel = NULL;
	if (strcmp(mode, "cap") == 0) {
		for (int i = 0; i <= 8; i++) {
			cordon_portal_camera_photo_v1_submit(make_photo());
		}
	} else if (strcmp(mode, "late") == 0) {
		struct cordon_portal_camera_photo_v1 *photo = make_photo();
		cordon_portal_camera_photo_v1_submit(photo);
		cordon_portal_camera_photo_v1_set_size(photo, 10, 10);
	} else if (strcmp(mode, "size") == 0) {
		cordon_portal_camera_photo_v1_set_size(make_photo(), 0, 480);
	} else if (strcmp(mode, "mime") == 0) {
		cordon_portal_camera_photo_v1_add_mime_type(make_photo(), "png");
	} else if (strcmp(mode, "mimes") == 0) {
		struct cordon_portal_camera_photo_v1 *photo = make_photo();
		for (int i = 0; i < 17; i++) {
			cordon_portal_camera_photo_v1_add_mime_type(photo, "image/png");
		}
	} else if (strcmp(mode, "parent") == 0) {
		surface = wl_compositor_create_surface(compositor);
		xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
		toplevel = xdg_surface_get_toplevel(xdg_surface);
		struct cordon_portal_camera_photo_v1 *photo = make_photo();
		cordon_portal_camera_photo_v1_set_parent(photo, toplevel);
		cordon_portal_camera_photo_v1_submit(photo);
	} else if (strcmp(mode, "streams") == 0) {
		for (int i = 0; i < 5; i++) {
			cordon_portal_camera_stream_v1_submit(make_stream());
		}
	} else if (strcmp(mode, "old-stream") == 0) {
		cordon_portal_camera_stream_v1_submit(make_stream());
	} else if (strcmp(mode, "stream-size") == 0) {
		cordon_portal_camera_stream_v1_set_size(make_stream(), 0, 10);
	} else {
		fprintf(stderr, "camera-client: unknown mode %s\n", mode);
		return 2;
	}
	struct pollfd fds[] = {
		{wl_display_get_fd(display), POLLIN, 0},
		{signal_pipe[0], POLLIN, 0},
	};
	for (;;) {
		while (wl_display_prepare_read(display) != 0) {
			wl_display_dispatch_pending(display);
		}
		if (wl_display_flush(display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(display);
			break;
		}
		fflush(stdout);
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(display);
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (fds[0].revents & POLLIN) {
			if (wl_display_read_events(display) < 0) {
				break;
			}
		} else {
			wl_display_cancel_read(display);
		}
		if (wl_display_dispatch_pending(display) < 0) {
			break;
		}
		if ((fds[1].revents & POLLIN) && toplevel) {
			char c;
			(void)!read(signal_pipe[0], &c, 1);
			xdg_toplevel_destroy(toplevel);
			xdg_surface_destroy(xdg_surface);
			wl_surface_destroy(surface);
			toplevel = NULL;
			wl_display_roundtrip(display);
			printf("parent destroyed\n");
		}
	}
	const struct wl_interface *interface;
	uint32_t id;
	int code = wl_display_get_protocol_error(display, &interface, &id);
	if (interface) {
		printf("protocol-error %s %d\n", interface->name, code);
	} else {
		printf("disconnected\n");
	}
	fflush(stdout);
	return 0;
}
