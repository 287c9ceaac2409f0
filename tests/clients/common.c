/* Shared plumbing for cordon's test clients. */
#include "common.h"
#include <errno.h>
#include <limits.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/*
 * The highest versions whose events these clients handle. Binding above what
 * the listeners know would let the compositor send an event with no handler.
 */
#define COMPOSITOR_VERSION 4
#define SHM_VERSION 1
#define WM_BASE_VERSION 3
#define SEAT_VERSION 7

struct tc_buffer {
	struct wl_buffer *buffer;
	struct wl_list link; /* tc_client.buffers */
};

void tc_print(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
}

void tc_die(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	exit(TC_EXIT_USAGE);
}

int tc_parse_int(const char *option, const char *value, int min, int max) {
	char *end;
	errno = 0;
	long n = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0' || n < min || n > max) {
		tc_die("%s: expected an integer in [%d, %d], got \"%s\"", option, min, max, value);
	}
	return (int)n;
}

int tc_timeout_ms(int seconds) {
	if (seconds <= 0) {
		return -1;
	}
	return seconds > INT_MAX / 1000 ? INT_MAX : seconds * 1000;
}

static uint32_t min_version(uint32_t advertised, uint32_t ours) {
	return advertised < ours ? advertised : ours;
}

static void handle_wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	/* A client that does not pong is considered hung by the compositor. */
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = handle_wm_base_ping,
};

static void handle_seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps) {
	struct tc_client *client = data;
	client->seat_caps = caps;
}

static void handle_seat_name(void *data, struct wl_seat *seat, const char *name) {
}

static const struct wl_seat_listener seat_listener = {
	.capabilities = handle_seat_capabilities,
	.name = handle_seat_name,
};

static void handle_registry_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct tc_client *client = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0 && !client->compositor) {
		client->compositor = wl_registry_bind(registry, name, &wl_compositor_interface,
			min_version(version, COMPOSITOR_VERSION));
	} else if (strcmp(interface, wl_shm_interface.name) == 0 && !client->shm) {
		client->shm = wl_registry_bind(
			registry, name, &wl_shm_interface, min_version(version, SHM_VERSION));
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0 && !client->wm_base) {
		client->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface,
			min_version(version, WM_BASE_VERSION));
		xdg_wm_base_add_listener(client->wm_base, &wm_base_listener, client);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 && !client->seat) {
		client->seat = wl_registry_bind(
			registry, name, &wl_seat_interface, min_version(version, SEAT_VERSION));
		wl_seat_add_listener(client->seat, &seat_listener, client);
	} else if (strcmp(interface, zwp_idle_inhibit_manager_v1_interface.name) == 0 &&
		!client->idle_inhibit_manager) {
		client->idle_inhibit_manager =
			wl_registry_bind(registry, name, &zwp_idle_inhibit_manager_v1_interface, 1);
	}
}

static void handle_registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_registry_global,
	.global_remove = handle_registry_global_remove,
};

struct tc_client *tc_client_connect(void) {
	struct tc_client *client = calloc(1, sizeof(*client));
	if (!client) {
		tc_die("out of memory");
	}
	wl_list_init(&client->buffers);
	client->display = wl_display_connect(NULL);
	if (!client->display) {
		tc_die("cannot connect to the Wayland display \"%s\": %s",
			getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "wayland-0",
			strerror(errno));
	}
	client->registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(client->registry, &registry_listener, client);
	/* The first round trip lists the globals, the second brings the seat's capabilities. */
	if (wl_display_roundtrip(client->display) < 0 ||
		wl_display_roundtrip(client->display) < 0) {
		tc_die("the compositor closed the connection during setup");
	}
	if (!client->compositor || !client->shm || !client->wm_base) {
		tc_die("missing a global: wl_compositor %s, wl_shm %s, xdg_wm_base %s",
			client->compositor ? "yes" : "no", client->shm ? "yes" : "no",
			client->wm_base ? "yes" : "no");
	}
	return client;
}

void tc_client_destroy(struct tc_client *client) {
	struct tc_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, &client->buffers, link) {
		wl_buffer_destroy(buffer->buffer);
		wl_list_remove(&buffer->link);
		free(buffer);
	}
	if (client->seat) {
		if (wl_seat_get_version(client->seat) >= WL_SEAT_RELEASE_SINCE_VERSION) {
			wl_seat_release(client->seat);
		} else {
			wl_seat_destroy(client->seat);
		}
	}
	if (client->idle_inhibit_manager) {
		zwp_idle_inhibit_manager_v1_destroy(client->idle_inhibit_manager);
	}
	if (client->wm_base) {
		xdg_wm_base_destroy(client->wm_base);
	}
	if (client->shm) {
		wl_shm_destroy(client->shm);
	}
	if (client->compositor) {
		wl_compositor_destroy(client->compositor);
	}
	wl_registry_destroy(client->registry);
	wl_display_flush(client->display);
	wl_display_disconnect(client->display);
	free(client);
}

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the socket with the read intention taken; 1 readable, 0 timed out, -1 error. */
static int wait_readable(struct tc_client *client, int64_t deadline) {
	struct pollfd pfd = {
		.fd = wl_display_get_fd(client->display),
		.events = POLLIN,
	};
	for (;;) {
		int timeout = -1;
		if (deadline >= 0) {
			int64_t left = deadline - now_ms();
			timeout = left <= 0 ? 0 : (left > INT_MAX ? INT_MAX : (int)left);
		}
		int n = poll(&pfd, 1, timeout);
		if (n >= 0) {
			return n > 0 ? 1 : 0;
		}
		if (errno != EINTR) {
			return -1;
		}
	}
}

int tc_run(struct tc_client *client, int timeout_ms) {
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	while (!client->quit) {
		while (wl_display_prepare_read(client->display) != 0) {
			if (wl_display_dispatch_pending(client->display) < 0) {
				return -1;
			}
		}
		if (client->quit) {
			wl_display_cancel_read(client->display);
			break;
		}
		/* EAGAIN only means the socket is full; the rest goes out on the next turn. */
		if (wl_display_flush(client->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(client->display);
			return -1;
		}
		int ready = wait_readable(client, deadline);
		if (ready <= 0) {
			wl_display_cancel_read(client->display);
			return ready == 0 ? 1 : -1;
		}
		if (wl_display_read_events(client->display) < 0) {
			return -1;
		}
		if (wl_display_dispatch_pending(client->display) < 0) {
			return -1;
		}
	}
	if (wl_display_flush(client->display) < 0 && errno != EAGAIN) {
		return -1;
	}
	return 0;
}

bool tc_report_disconnect(struct tc_client *client) {
	int err = wl_display_get_error(client->display);
	if (err != EPROTO) {
		tc_print("disconnected errno=%d", err);
		return false;
	}
	const struct wl_interface *interface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(client->display, &interface, &id);
	tc_print("protocol-error interface=%s code=%u id=%u",
		interface ? interface->name : "unknown", code, id);
	return true;
}

int tc_exit_code(struct tc_client *client, int run_result) {
	if (run_result < 0) {
		tc_report_disconnect(client);
		return TC_EXIT_FAIL;
	}
	return run_result > 0 ? TC_EXIT_TIMEOUT : TC_EXIT_OK;
}

static void handle_buffer_release(void *data, struct wl_buffer *wl_buffer) {
	struct tc_buffer *buffer = data;
	wl_buffer_destroy(buffer->buffer);
	wl_list_remove(&buffer->link);
	free(buffer);
}

static const struct wl_buffer_listener buffer_listener = {
	.release = handle_buffer_release,
};

struct wl_buffer *tc_buffer_create(
	struct tc_client *client, int32_t width, int32_t height, uint32_t argb) {
	if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
		tc_die("buffer size %dx%d out of range", width, height);
	}
	int32_t stride = width * 4;
	size_t size = (size_t)stride * (size_t)height;
	int fd = memfd_create("cordon-test-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		tc_die("memfd_create: %s", strerror(errno));
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		tc_die("ftruncate: %s", strerror(errno));
	}
	uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		tc_die("mmap: %s", strerror(errno));
	}
	for (size_t i = 0; i < size / 4; i++) {
		pixels[i] = argb;
	}
	munmap(pixels, size);

	struct tc_buffer *buffer = calloc(1, sizeof(*buffer));
	if (!buffer) {
		tc_die("out of memory");
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(client->shm, fd, (int32_t)size);
	buffer->buffer =
		wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
	/* The buffer keeps the pool's memory alive; neither the pool nor the fd is needed. */
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(buffer->buffer, &buffer_listener, buffer);
	wl_list_insert(&client->buffers, &buffer->link);
	return buffer->buffer;
}

static const char *state_name(uint32_t state) {
	switch (state) {
	case XDG_TOPLEVEL_STATE_MAXIMIZED:
		return "maximized";
	case XDG_TOPLEVEL_STATE_FULLSCREEN:
		return "fullscreen";
	case XDG_TOPLEVEL_STATE_RESIZING:
		return "resizing";
	case XDG_TOPLEVEL_STATE_ACTIVATED:
		return "activated";
	case XDG_TOPLEVEL_STATE_TILED_LEFT:
		return "tiled_left";
	case XDG_TOPLEVEL_STATE_TILED_RIGHT:
		return "tiled_right";
	case XDG_TOPLEVEL_STATE_TILED_TOP:
		return "tiled_top";
	case XDG_TOPLEVEL_STATE_TILED_BOTTOM:
		return "tiled_bottom";
	default:
		return "unknown";
	}
}

static void handle_toplevel_configure(void *data, struct xdg_toplevel *xdg_toplevel, int32_t width,
	int32_t height, struct wl_array *states) {
	struct tc_toplevel *toplevel = data;
	toplevel->pending_width = width;
	toplevel->pending_height = height;

	char list[256] = "";
	size_t used = 0;
	uint32_t *state;
	wl_array_for_each(state, states) {
		int n = snprintf(list + used, sizeof(list) - used, "%s%s", used ? "," : "",
			state_name(*state));
		if (n < 0 || (size_t)n >= sizeof(list) - used) {
			break;
		}
		used += (size_t)n;
	}
	tc_print("configure width=%d height=%d states=%s", width, height, used ? list : "none");
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *xdg_toplevel) {
	struct tc_toplevel *toplevel = data;
	tc_print("close");
	toplevel->client->quit = true;
}

static void handle_toplevel_configure_bounds(
	void *data, struct xdg_toplevel *xdg_toplevel, int32_t width, int32_t height) {
}

static void handle_toplevel_wm_capabilities(
	void *data, struct xdg_toplevel *xdg_toplevel, struct wl_array *capabilities) {
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = handle_toplevel_configure,
	.close = handle_toplevel_close,
	.configure_bounds = handle_toplevel_configure_bounds,
	.wm_capabilities = handle_toplevel_wm_capabilities,
};

static void handle_xdg_surface_configure(
	void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct tc_toplevel *toplevel = data;
	/* xdg_surface.configure ends the batch: the toplevel state before it applies now. */
	xdg_surface_ack_configure(xdg_surface, serial);
	if (toplevel->pending_width > 0) {
		toplevel->width = toplevel->pending_width;
	}
	if (toplevel->pending_height > 0) {
		toplevel->height = toplevel->pending_height;
	}
	struct wl_buffer *buffer = tc_buffer_create(
		toplevel->client, toplevel->width, toplevel->height, toplevel->color);
	wl_surface_attach(toplevel->surface, buffer, 0, 0);
	wl_surface_damage(toplevel->surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(toplevel->surface);
	toplevel->configured = true;
	if (toplevel->on_configure) {
		toplevel->on_configure(toplevel, toplevel->data);
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = handle_xdg_surface_configure,
};

struct tc_toplevel *tc_toplevel_create(struct tc_client *client, const char *app_id, int32_t width,
	int32_t height, uint32_t argb) {
	struct tc_toplevel *toplevel = calloc(1, sizeof(*toplevel));
	if (!toplevel) {
		tc_die("out of memory");
	}
	toplevel->client = client;
	toplevel->color = argb;
	toplevel->width = width;
	toplevel->height = height;
	toplevel->surface = wl_compositor_create_surface(client->compositor);
	toplevel->xdg_surface = xdg_wm_base_get_xdg_surface(client->wm_base, toplevel->surface);
	xdg_surface_add_listener(toplevel->xdg_surface, &xdg_surface_listener, toplevel);
	toplevel->xdg_toplevel = xdg_surface_get_toplevel(toplevel->xdg_surface);
	xdg_toplevel_add_listener(toplevel->xdg_toplevel, &toplevel_listener, toplevel);
	xdg_toplevel_set_app_id(toplevel->xdg_toplevel, app_id);
	xdg_toplevel_set_title(toplevel->xdg_toplevel, app_id);
	/* The first commit has no buffer: it asks for the initial configure. */
	wl_surface_commit(toplevel->surface);
	return toplevel;
}

void tc_toplevel_destroy(struct tc_toplevel *toplevel) {
	xdg_toplevel_destroy(toplevel->xdg_toplevel);
	xdg_surface_destroy(toplevel->xdg_surface);
	wl_surface_destroy(toplevel->surface);
	free(toplevel);
}

const char *tc_button_name(uint32_t button) {
	switch (button) {
	case BTN_LEFT:
		return "left";
	case BTN_RIGHT:
		return "right";
	case BTN_MIDDLE:
		return "middle";
	default:
		return "other";
	}
}

static void handle_pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial,
	struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y) {
	struct tc_input *input = data;
	input->pointer_focus = surface;
	tc_print("enter x=%d y=%d", wl_fixed_to_int(x), wl_fixed_to_int(y));
}

static void handle_pointer_leave(
	void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
	struct tc_input *input = data;
	input->pointer_focus = NULL;
	tc_print("leave");
}

static void handle_pointer_motion(
	void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial,
	uint32_t time, uint32_t button, uint32_t state) {
	struct tc_input *input = data;
	tc_print("button name=%s code=%u state=%s serial=%u", tc_button_name(button), button,
		state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released", serial);
	if (input->on_button) {
		input->on_button(input, serial, button, state);
	}
}

static void handle_pointer_axis(
	void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
	tc_print("axis axis=%s value=%.2f",
		axis == WL_POINTER_AXIS_VERTICAL_SCROLL ? "vertical" : "horizontal",
		wl_fixed_to_double(value));
}

static void handle_pointer_frame(void *data, struct wl_pointer *pointer) {
}

static void handle_pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source) {
}

static void handle_pointer_axis_stop(
	void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
}

static void handle_pointer_axis_discrete(
	void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete) {
}

static void handle_pointer_axis_value120(
	void *data, struct wl_pointer *pointer, uint32_t axis, int32_t value120) {
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = handle_pointer_enter,
	.leave = handle_pointer_leave,
	.motion = handle_pointer_motion,
	.button = handle_pointer_button,
	.axis = handle_pointer_axis,
	.frame = handle_pointer_frame,
	.axis_source = handle_pointer_axis_source,
	.axis_stop = handle_pointer_axis_stop,
	.axis_discrete = handle_pointer_axis_discrete,
	.axis_value120 = handle_pointer_axis_value120,
};

static void handle_keyboard_keymap(
	void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
	/* This keyboard only reports raw codes; key-client is the one that reads keymaps. */
	close(fd);
}

static void handle_keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	struct wl_surface *surface, struct wl_array *keys) {
	tc_print("keyboard-enter");
}

static void handle_keyboard_leave(
	void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
	tc_print("keyboard-leave");
}

static void handle_keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	uint32_t time, uint32_t key, uint32_t state) {
	struct tc_input *input = data;
	tc_print("key code=%u state=%s", key,
		state == WL_KEYBOARD_KEY_STATE_PRESSED ? "pressed" : "released");
	if (input->on_key) {
		input->on_key(input, key, state);
	}
}

static void handle_keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
}

static void handle_keyboard_repeat_info(
	void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
	tc_print("repeat-info rate=%d delay=%d", rate, delay);
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = handle_keyboard_keymap,
	.enter = handle_keyboard_enter,
	.leave = handle_keyboard_leave,
	.key = handle_keyboard_key,
	.modifiers = handle_keyboard_modifiers,
	.repeat_info = handle_keyboard_repeat_info,
};

struct tc_input *tc_input_create(struct tc_client *client, bool with_keyboard) {
	if (!client->seat || !(client->seat_caps & WL_SEAT_CAPABILITY_POINTER)) {
		tc_die("the seat has no pointer");
	}
	if (with_keyboard && !(client->seat_caps & WL_SEAT_CAPABILITY_KEYBOARD)) {
		tc_die("the seat has no keyboard");
	}
	struct tc_input *input = calloc(1, sizeof(*input));
	if (!input) {
		tc_die("out of memory");
	}
	input->client = client;
	input->pointer = wl_seat_get_pointer(client->seat);
	wl_pointer_add_listener(input->pointer, &pointer_listener, input);
	if (with_keyboard) {
		input->keyboard = wl_seat_get_keyboard(client->seat);
		wl_keyboard_add_listener(input->keyboard, &keyboard_listener, input);
	}
	return input;
}

void tc_input_destroy(struct tc_input *input) {
	if (wl_pointer_get_version(input->pointer) >= WL_POINTER_RELEASE_SINCE_VERSION) {
		wl_pointer_release(input->pointer);
	} else {
		wl_pointer_destroy(input->pointer);
	}
	if (input->keyboard) {
		if (wl_keyboard_get_version(input->keyboard) >= WL_KEYBOARD_RELEASE_SINCE_VERSION) {
			wl_keyboard_release(input->keyboard);
		} else {
			wl_keyboard_destroy(input->keyboard);
		}
	}
	free(input);
}

bool tc_window_option(int opt, const char *arg, struct tc_window_options *options) {
	switch (opt) {
	case 'a':
		options->app_id = arg;
		return true;
	case 'w':
		options->width = tc_parse_int("--width", arg, 1, 8192);
		return true;
	case 'h':
		options->height = tc_parse_int("--height", arg, 1, 8192);
		return true;
	case 't':
		options->timeout = tc_parse_int("--timeout", arg, 0, 86400);
		return true;
	default:
		return false;
	}
}
