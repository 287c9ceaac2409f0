/*
 * A portal client for the lifecycle tests, printing one line per event ("file NAME",
 * "done", "cancelled", "failed CODE REASON", "protocol-error INTERFACE CODE").
 *
 *   portal-client parent   two requests for one toplevel: the second fails as busy; on
 *                          SIGUSR1 the toplevel goes, which cancels the first
 *   portal-client window   a mapped toplevel; on the first SIGUSR1 one request with it
 *                          as parent, on the second the toplevel goes
 *   portal-client hold     one request, waits for its answer (or to be killed)
 *   portal-client cap      one request more than the per-client cap
 *   portal-client hoard    answered requests never destroyed, past the object cap
 *   portal-client late     set_title after submit
 *   portal-client kind     an unknown file chooser kind
 *   portal-client bench N  N open requests one after the other (for bench/portal-dbus):
 *                          prints "bench N chosen C mean_us US", the mean round trip
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "cordon-portal-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static int signal_pipe[2];
static struct cordon_portal_manager_v1 *manager;
static struct wl_compositor *compositor;
static struct xdg_wm_base *wm_base;
static struct wl_shm *shm;
/* window mode: the request waits for SIGUSR1, so the test can move the pointer first. */
static bool request_on_signal;

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	if (strcmp(interface, cordon_portal_manager_v1_interface.name) == 0) {
		manager = wl_registry_bind(registry, name, &cordon_portal_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_compositor_interface.name) == 0) {
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_file(
	void *data, struct cordon_portal_file_chooser_v1 *chooser, int32_t fd, const char *name) {
	printf("%s file %s\n", (const char *)data, name);
	close(fd);
}

static void handle_done(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	printf("%s done\n", (const char *)data);
}

static void handle_cancelled(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	printf("%s cancelled\n", (const char *)data);
}

static void handle_failed(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	uint32_t failure, const char *reason) {
	printf("%s failed %u %s\n", (const char *)data, failure, reason);
}

static const struct cordon_portal_file_chooser_v1_listener chooser_listener = {
	.file = handle_file,
	.done = handle_done,
	.cancelled = handle_cancelled,
	.failed = handle_failed,
};

static struct cordon_portal_file_chooser_v1 *make_request(
	const char *label, struct xdg_toplevel *parent) {
	struct cordon_portal_file_chooser_v1 *chooser = cordon_portal_manager_v1_get_file_chooser(
		manager, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN);
	cordon_portal_file_chooser_v1_add_listener(chooser, &chooser_listener, (void *)label);
	cordon_portal_file_chooser_v1_set_title(chooser, label);
	if (parent) {
		cordon_portal_file_chooser_v1_set_parent(chooser, parent);
	}
	cordon_portal_file_chooser_v1_submit(chooser);
	return chooser;
}

static int bench_answered, bench_chosen;

static void bench_file(
	void *data, struct cordon_portal_file_chooser_v1 *chooser, int32_t fd, const char *name) {
	close(fd);
}

static void bench_done(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	bench_answered++;
	bench_chosen++;
}

static void bench_cancelled(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	bench_answered++;
}

static void bench_failed(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	uint32_t failure, const char *reason) {
	bench_answered++;
}

static const struct cordon_portal_file_chooser_v1_listener bench_listener = {
	.file = bench_file,
	.done = bench_done,
	.cancelled = bench_cancelled,
	.failed = bench_failed,
};

/* Dispatches until *answered changes from before, for at most timeout_ms; false if not. */
static bool wait_answer(
	struct wl_display *display, const int *answered, int before, int timeout_ms) {
	struct pollfd fd = {wl_display_get_fd(display), POLLIN, 0};
	while (*answered == before) {
		while (wl_display_prepare_read(display) != 0) {
			if (wl_display_dispatch_pending(display) < 0) {
				return false;
			}
		}
		wl_display_flush(display);
		if (poll(&fd, 1, timeout_ms) <= 0) {
			wl_display_cancel_read(display);
			return false;
		}
		if (wl_display_read_events(display) < 0 ||
			wl_display_dispatch_pending(display) < 0) {
			return false;
		}
	}
	return true;
}

/* The same request as the D-Bus bench's OpenFile, answered by the auto UI, N times. */
static int bench(struct wl_display *display, int count) {
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < count; i++) {
		struct cordon_portal_file_chooser_v1 *chooser =
			cordon_portal_manager_v1_get_file_chooser(
				manager, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN);
		cordon_portal_file_chooser_v1_add_listener(chooser, &bench_listener, NULL);
		cordon_portal_file_chooser_v1_set_title(chooser, "A title");
		cordon_portal_file_chooser_v1_submit(chooser);
		/* Each request is answered within 30 s, or the bench ends saying which was not. */
		if (!wait_answer(display, &bench_answered, bench_answered, 30000)) {
			fprintf(stderr,
				"portal-client: request %d of %d not answered within 30 s\n", i + 1,
				count);
			return 1;
		}
		cordon_portal_file_chooser_v1_destroy(chooser);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	double us = ((double)(end.tv_sec - start.tv_sec) * 1e9 +
			    (double)(end.tv_nsec - start.tv_nsec)) /
		1e3 / count;
	printf("bench %d chosen %d mean_us %.1f\n", count, bench_chosen, us);
	return 0;
}

static void handle_signal(int sig) {
	char c = 1;
	(void)!write(signal_pipe[1], &c, 1);
}

/* Dispatches until the connection ends; returns the protocol error, if any. */
static void run(struct wl_display *display, struct xdg_toplevel **toplevel,
	struct xdg_surface **xdg_surface) {
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
		if (fds[1].revents & POLLIN) {
			char c;
			(void)!read(signal_pipe[0], &c, 1);
			if (request_on_signal) {
				request_on_signal = false;
				make_request("windowed", *toplevel);
			} else if (toplevel && *toplevel) {
				xdg_toplevel_destroy(*toplevel);
				xdg_surface_destroy(*xdg_surface);
				*toplevel = NULL;
				printf("parent destroyed\n");
			}
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
}

/* A 200x200 grey buffer, enough for cordon to map the toplevel. */
static struct wl_buffer *grey_buffer(void) {
	const int size = 200, stride = size * 4;
	int fd = memfd_create("portal-client", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, stride * size) != 0) {
		return NULL;
	}
	void *data = mmap(NULL, stride * size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	memset(data, 0x80, stride * size);
	munmap(data, stride * size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, stride * size);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, size, size, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buffer;
}

static void handle_xdg_surface_configure(
	void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct wl_surface *surface = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	static struct wl_buffer *buffer;
	if (!buffer) {
		buffer = grey_buffer();
	}
	if (buffer) {
		wl_surface_attach(surface, buffer, 0, 0);
	}
	wl_surface_commit(surface);
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = handle_xdg_surface_configure,
};

int main(int argc, char *argv[]) {
	if (argc != 2 && !(argc == 3 && strcmp(argv[1], "bench") == 0)) {
		fprintf(stderr, "usage: portal-client parent|window|hold|cap|late|kind|bench N\n");
		return 2;
	}
	const char *mode = argv[1];
	if (pipe(signal_pipe) != 0) {
		return 2;
	}
	signal(SIGUSR1, handle_signal);
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "portal-client: no display\n");
		return 2;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!manager || !compositor || !wm_base) {
		fprintf(stderr, "portal-client: missing globals\n");
		return 2;
	}
	struct wl_surface *surface = NULL;
	struct xdg_surface *xdg_surface = NULL;
	struct xdg_toplevel *toplevel = NULL;
	if (strcmp(mode, "bench") == 0) {
		int count = atoi(argv[2]);
		return count > 0 ? bench(display, count) : 2;
	}
	if (strcmp(mode, "parent") == 0) {
		surface = wl_compositor_create_surface(compositor);
		xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
		toplevel = xdg_surface_get_toplevel(xdg_surface);
		make_request("first", toplevel);
		make_request("second", toplevel);
	} else if (strcmp(mode, "window") == 0) {
		if (!shm) {
			fprintf(stderr, "portal-client: no wl_shm\n");
			return 2;
		}
		surface = wl_compositor_create_surface(compositor);
		xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
		xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, surface);
		toplevel = xdg_surface_get_toplevel(xdg_surface);
		xdg_toplevel_set_app_id(toplevel, "portal-window");
		wl_surface_commit(surface);
		request_on_signal = true;
	} else if (strcmp(mode, "hold") == 0) {
		make_request("held", NULL);
	} else if (strcmp(mode, "cap") == 0) {
		for (int i = 0; i <= 8; i++) {
			make_request("capped", NULL);
		}
	} else if (strcmp(mode, "hoard") == 0) {
		/* Each is answered (the auto UI cancels) but kept: the 33rd is refused. */
		for (int i = 0; i < 40; i++) {
			make_request("hoarded", NULL);
			wl_display_roundtrip(display);
		}
	} else if (strcmp(mode, "late") == 0) {
		struct cordon_portal_file_chooser_v1 *chooser = make_request("late", NULL);
		cordon_portal_file_chooser_v1_set_title(chooser, "changed my mind");
	} else if (strcmp(mode, "kind") == 0) {
		cordon_portal_manager_v1_get_file_chooser(manager, 7);
	} else {
		fprintf(stderr, "portal-client: unknown mode %s\n", mode);
		return 2;
	}
	printf("ready\n");
	run(display, &toplevel, &xdg_surface);
	return 0;
}
