/*
 * input-thief: a hostile app for the input attacks (tests/attack/input/). It maps a
 * window meant to catch what the user types or clicks for another one (any size,
 * colour and alpha, fullscreen), and on every key it gets: prints "key code=C serial=S"
 * (a keylogger), reads the clipboard ("pasted bytes=N text=T") and puts its own text
 * on it ("copied serial=S"). Also:
 *
 *   --color AARRGGBB      the window's colour (alpha 00: fully transparent)
 *   --fullscreen          asks to be fullscreen before it maps
 *   --map-after MS        maps only after MS milliseconds (right before the user types)
 *   --copy TEXT           on a key, set the clipboard to TEXT with the key's serial
 *   --paste               on a key or button press, read the clipboard (text/plain;charset=utf-8)
 *   --activate-later MS   after its first button press, wait MS ms, then ask for a token
 *                         with that press's serial and activate its own window
 *                         ("activation-requested"); the stale-serial attack
 *   --token-on-key        on a key press, make a token with that key's serial and its
 *                         surface and print "token=T" (a launcher, the positive control)
 *   --activate-env        after its first configure, activate with $XDG_ACTIVATION_TOKEN
 *                         (a launched app)
 *   --open-on-key APP_ID  on a key press, map a second window with that app_id (a dialog)
 *   --cursor WxH          on pointer enter, set a WxH cursor image of --cursor-color
 *   --cursor-hotspot X,Y  its hotspot (default 0,0)
 *   --cursor-color AARRGGBB
 *   --cursor-shape NAME   on pointer enter, ask for that wp_cursor_shape_v1 shape instead
 *                         ("cursor-shape NAME"): default, wait, crosshair, not-allowed, text
 *   --lock-pointer        once mapped, ask for a persistent pointer lock on its window and
 *                         print "pointer-locked" / "pointer-unlocked" as cordon answers;
 *                         also prints "relative dx=X dy=Y" for relative pointer motion and
 *                         "motion x=X y=Y" for wl_pointer motion
 *   --inhibit-shortcuts   once mapped, ask to take every key, the compositor's bindings
 *                         too, and print "shortcuts-inhibited" / "shortcuts-restored" as
 *                         cordon answers ("shortcuts-inhibit-unavailable" without the global)
 *   --drag-flood N        once mapped, ask N times to start a drag without a source and
 *                         without a held button (each one refused), then print
 *                         "drag-flood N" once cordon answered a round trip
 */
#include "common.h"
#include "cursor-shape-v1-client-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

struct state {
	struct tc_client *client;
	struct tc_window_options window;
	uint32_t color;
	bool fullscreen;
	int map_after_ms;
	struct tc_toplevel *toplevel;
	struct wl_data_device_manager *manager;
	struct wl_data_device *device;
	struct xdg_activation_v1 *activation;
	struct wl_keyboard *keyboard;
	struct tc_input *input;

	const char *copy_text;
	bool paste;
	struct wl_data_offer *pending, *current;
	struct wl_data_source *source;

	int activate_later_ms;
	uint32_t first_press_serial;
	bool pressed_once;
	bool token_on_key;
	bool activate_env;

	const char *open_on_key;
	struct tc_toplevel *second;

	int cursor_width, cursor_height, hotspot_x, hotspot_y;
	uint32_t cursor_color;
	struct wl_surface *cursor_surface;

	const char *cursor_shape;
	struct wp_cursor_shape_manager_v1 *shape_manager;
	struct wp_cursor_shape_device_v1 *shape_device;

	bool lock_pointer;
	struct zwp_pointer_constraints_v1 *constraints;
	struct zwp_locked_pointer_v1 *locked;
	struct zwp_relative_pointer_manager_v1 *relative_manager;
	struct zwp_relative_pointer_v1 *relative;

	bool inhibit_shortcuts;
	int drag_flood;
	struct zwp_keyboard_shortcuts_inhibit_manager_v1 *shortcuts_manager;
	struct zwp_keyboard_shortcuts_inhibitor_v1 *shortcuts_inhibitor;
};

/* Clipboard */

static void handle_source_send(
	void *data, struct wl_data_source *source, const char *type, int32_t fd) {
	struct state *state = data;
	if (write(fd, state->copy_text, strlen(state->copy_text)) < 0) {
		tc_print("source-write-failed");
	}
	close(fd);
	tc_print("source-send type=%s", type);
}

static void handle_source_cancelled(void *data, struct wl_data_source *source) {
	struct state *state = data;
	tc_print("source-cancelled");
	if (state->source == source) {
		state->source = NULL;
	}
	wl_data_source_destroy(source);
}

static void handle_source_target(void *data, struct wl_data_source *source, const char *type) {
}

static const struct wl_data_source_listener source_listener = {
	.target = handle_source_target,
	.send = handle_source_send,
	.cancelled = handle_source_cancelled,
};

static void copy(struct state *state, uint32_t serial) {
	struct wl_data_source *source = wl_data_device_manager_create_data_source(state->manager);
	wl_data_source_add_listener(source, &source_listener, state);
	wl_data_source_offer(source, "text/plain;charset=utf-8");
	wl_data_source_offer(source, "text/plain");
	wl_data_device_set_selection(state->device, source, serial);
	state->source = source;
	tc_print("copied serial=%u", serial);
}

static void handle_device_data_offer(
	void *data, struct wl_data_device *device, struct wl_data_offer *offer) {
	struct state *state = data;
	if (state->pending) {
		wl_data_offer_destroy(state->pending);
	}
	state->pending = offer;
}

static void handle_device_selection(
	void *data, struct wl_data_device *device, struct wl_data_offer *offer) {
	struct state *state = data;
	if (state->current && state->current != offer) {
		wl_data_offer_destroy(state->current);
	}
	state->current = offer;
	if (state->pending == offer) {
		state->pending = NULL;
	}
	tc_print("selection %s", offer ? "some" : "none");
}

static void handle_device_enter(void *data, struct wl_data_device *device, uint32_t serial,
	struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y, struct wl_data_offer *offer) {
}

static void handle_device_leave(void *data, struct wl_data_device *device) {
}

static void handle_device_motion(
	void *data, struct wl_data_device *device, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
}

static void handle_device_drop(void *data, struct wl_data_device *device) {
}

static const struct wl_data_device_listener device_listener = {
	.data_offer = handle_device_data_offer,
	.enter = handle_device_enter,
	.leave = handle_device_leave,
	.motion = handle_device_motion,
	.drop = handle_device_drop,
	.selection = handle_device_selection,
};

static void paste(struct state *state) {
	if (!state->current) {
		tc_print("paste-none");
		return;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tc_die("pipe: %s", strerror(errno));
	}
	wl_data_offer_receive(state->current, "text/plain;charset=utf-8", fds[1]);
	close(fds[1]);
	wl_display_flush(state->client->display);
	char text[4096];
	size_t total = 0;
	int display_fd = wl_display_get_fd(state->client->display);
	for (;;) {
		struct pollfd pfds[2] = {{fds[0], POLLIN, 0}, {display_fd, POLLIN, 0}};
		wl_display_flush(state->client->display);
		if (poll(pfds, 2, 10000) <= 0) {
			break;
		}
		if ((pfds[1].revents & POLLIN) && wl_display_dispatch(state->client->display) < 0) {
			break;
		}
		if (!(pfds[0].revents & (POLLIN | POLLHUP))) {
			continue;
		}
		ssize_t n = read(fds[0], text + total, sizeof(text) - 1 - total);
		if (n <= 0) {
			break;
		}
		total += (size_t)n;
		if (total == sizeof(text) - 1) {
			break;
		}
	}
	close(fds[0]);
	text[total] = '\0';
	tc_print("pasted bytes=%zu text=%s", total, text);
}

/* Activation */

static void handle_token_done(void *data, struct xdg_activation_token_v1 *token, const char *name) {
	struct state *state = data;
	if (state->token_on_key) {
		tc_print("token=%s", name);
	} else {
		xdg_activation_v1_activate(state->activation, name, state->toplevel->surface);
		tc_print("activation-requested");
	}
	xdg_activation_token_v1_destroy(token);
}

static const struct xdg_activation_token_v1_listener token_listener = {
	.done = handle_token_done,
};

static void request_token(struct state *state, uint32_t serial, bool with_surface) {
	if (!state->activation) {
		tc_die("the compositor offers no xdg_activation_v1");
	}
	struct xdg_activation_token_v1 *token =
		xdg_activation_v1_get_activation_token(state->activation);
	xdg_activation_token_v1_add_listener(token, &token_listener, state);
	xdg_activation_token_v1_set_serial(token, serial, state->client->seat);
	if (with_surface) {
		xdg_activation_token_v1_set_surface(token, state->toplevel->surface);
	}
	xdg_activation_token_v1_commit(token);
}

/* Input */

static void handle_keymap(
	void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
}

static void handle_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	struct wl_surface *surface, struct wl_array *keys) {
	tc_print("keyboard-enter");
}

static void handle_leave(
	void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
	tc_print("keyboard-leave");
}

static void handle_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t key_state) {
	struct state *state = data;
	if (key_state != WL_KEYBOARD_KEY_STATE_PRESSED) {
		return;
	}
	tc_print("key code=%u serial=%u", key, serial);
	if (state->token_on_key) {
		request_token(state, serial, true);
	}
	if (state->open_on_key && !state->second) {
		state->second = tc_toplevel_create(
			state->client, state->open_on_key, 200, 150, state->color);
		tc_print("opened %s", state->open_on_key);
	}
	if (state->copy_text) {
		copy(state, serial);
	}
	if (state->paste) {
		paste(state);
	}
}

static void handle_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
}

static void handle_repeat_info(
	void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = handle_keymap,
	.enter = handle_enter,
	.leave = handle_leave,
	.key = handle_key,
	.modifiers = handle_modifiers,
	.repeat_info = handle_repeat_info,
};

static void handle_button(
	struct tc_input *input, uint32_t serial, uint32_t button, uint32_t button_state) {
	struct state *state = input->data;
	if (button_state != WL_POINTER_BUTTON_STATE_PRESSED) {
		return;
	}
	if (!state->pressed_once) {
		state->pressed_once = true;
		state->first_press_serial = serial;
	}
	if (state->paste) {
		paste(state);
	}
}

/* Cursor */

static void set_cursor(struct state *state, uint32_t serial) {
	if (!state->cursor_surface) {
		state->cursor_surface = wl_compositor_create_surface(state->client->compositor);
	}
	struct wl_buffer *buffer = tc_buffer_create(
		state->client, state->cursor_width, state->cursor_height, state->cursor_color);
	wl_surface_attach(state->cursor_surface, buffer, 0, 0);
	wl_surface_damage(state->cursor_surface, 0, 0, state->cursor_width, state->cursor_height);
	wl_surface_commit(state->cursor_surface);
	wl_pointer_set_cursor(state->input->pointer, serial, state->cursor_surface,
		state->hotspot_x, state->hotspot_y);
	tc_print("cursor-set %dx%d hotspot=%d,%d", state->cursor_width, state->cursor_height,
		state->hotspot_x, state->hotspot_y);
}

/* The shapes the attacks use: what an app would put over a dialog's button to mislead. */
static uint32_t shape_from_name(const char *name) {
	static const struct {
		const char *name;
		uint32_t shape;
	} shapes[] = {
		{"default", WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT},
		{"wait", WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_WAIT},
		{"crosshair", WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_CROSSHAIR},
		{"not-allowed", WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NOT_ALLOWED},
		{"text", WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT},
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (strcmp(name, shapes[i].name) == 0) {
			return shapes[i].shape;
		}
	}
	tc_die("unknown cursor shape \"%s\"", name);
	return 0;
}

static void set_cursor_shape(struct state *state, uint32_t serial) {
	if (!state->shape_device) {
		state->shape_device = wp_cursor_shape_manager_v1_get_pointer(
			state->shape_manager, state->input->pointer);
	}
	wp_cursor_shape_device_v1_set_shape(
		state->shape_device, serial, shape_from_name(state->cursor_shape));
	tc_print("cursor-shape %s", state->cursor_shape);
}

static void handle_pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial,
	struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y) {
	struct state *state = data;
	tc_print("pointer-enter");
	if (state->cursor_shape) {
		set_cursor_shape(state, serial);
	} else if (state->cursor_width > 0) {
		set_cursor(state, serial);
	}
}

/* Drags */

/*
 * What a hostile app does to grow cordon's memory: wlroots keeps a drag that never starts
 * until something frees it. Flushes as it goes, so that the socket never fills.
 */
static void drag_flood(struct state *state) {
	for (int i = 0; i < state->drag_flood; i++) {
		wl_data_device_start_drag(state->device, NULL, state->toplevel->surface, NULL, 0);
		if (i % 64 == 63 && wl_display_roundtrip(state->client->display) < 0) {
			tc_die("disconnected after %d drags", i + 1);
		}
	}
	if (wl_display_roundtrip(state->client->display) < 0) {
		tc_die("disconnected after the drags");
	}
	tc_print("drag-flood %d", state->drag_flood);
}

/* Keyboard shortcuts */

static void handle_shortcuts_active(
	void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *inhibitor) {
	tc_print("shortcuts-inhibited");
}

static void handle_shortcuts_inactive(
	void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *inhibitor) {
	tc_print("shortcuts-restored");
}

static const struct zwp_keyboard_shortcuts_inhibitor_v1_listener shortcuts_listener = {
	.active = handle_shortcuts_active,
	.inactive = handle_shortcuts_inactive,
};

static void inhibit_shortcuts(struct state *state) {
	if (!state->shortcuts_manager) {
		tc_print("shortcuts-inhibit-unavailable");
		return;
	}
	state->shortcuts_inhibitor = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(
		state->shortcuts_manager, state->toplevel->surface, state->client->seat);
	zwp_keyboard_shortcuts_inhibitor_v1_add_listener(
		state->shortcuts_inhibitor, &shortcuts_listener, state);
	tc_print("shortcuts-inhibit-requested");
}

/* Pointer lock and relative motion */

static void handle_locked(void *data, struct zwp_locked_pointer_v1 *locked) {
	tc_print("pointer-locked");
}

static void handle_unlocked(void *data, struct zwp_locked_pointer_v1 *locked) {
	tc_print("pointer-unlocked");
}

static const struct zwp_locked_pointer_v1_listener locked_listener = {
	.locked = handle_locked,
	.unlocked = handle_unlocked,
};

static void handle_relative_motion(void *data, struct zwp_relative_pointer_v1 *relative,
	uint32_t utime_hi, uint32_t utime_lo, wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t dx_unaccel,
	wl_fixed_t dy_unaccel) {
	tc_print("relative dx=%d dy=%d", wl_fixed_to_int(dx), wl_fixed_to_int(dy));
}

static const struct zwp_relative_pointer_v1_listener relative_listener = {
	.relative_motion = handle_relative_motion,
};

static void lock_pointer(struct state *state) {
	if (!state->constraints || !state->relative_manager) {
		tc_die("no zwp_pointer_constraints_v1 or zwp_relative_pointer_manager_v1");
	}
	state->locked = zwp_pointer_constraints_v1_lock_pointer(state->constraints,
		state->toplevel->surface, state->input->pointer, NULL,
		ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(state->locked, &locked_listener, state);
	state->relative = zwp_relative_pointer_manager_v1_get_relative_pointer(
		state->relative_manager, state->input->pointer);
	zwp_relative_pointer_v1_add_listener(state->relative, &relative_listener, state);
	wl_surface_commit(state->toplevel->surface);
	tc_print("lock-requested");
}

static void handle_pointer_leave(
	void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
	tc_print("pointer-leave");
}

static void handle_pointer_motion(
	void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	struct state *state = data;
	/* Where the pointer went: only with --lock-pointer, the attack that asks. */
	if (state->lock_pointer) {
		tc_print("motion x=%d y=%d", wl_fixed_to_int(x), wl_fixed_to_int(y));
	}
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial,
	uint32_t time, uint32_t button, uint32_t button_state) {
	struct state *state = data;
	tc_print("button serial=%u state=%u", serial, button_state);
	handle_button(state->input, serial, button, button_state);
}

static void handle_pointer_axis(
	void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
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
};

/* Set-up */

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wl_data_device_manager_interface.name) == 0) {
		state->manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface,
			version < 3 ? version : 3);
	} else if (strcmp(interface, xdg_activation_v1_interface.name) == 0) {
		state->activation =
			wl_registry_bind(registry, name, &xdg_activation_v1_interface, 1);
	} else if (strcmp(interface, wp_cursor_shape_manager_v1_interface.name) == 0) {
		state->shape_manager =
			wl_registry_bind(registry, name, &wp_cursor_shape_manager_v1_interface, 1);
	} else if (strcmp(interface, zwp_pointer_constraints_v1_interface.name) == 0) {
		state->constraints =
			wl_registry_bind(registry, name, &zwp_pointer_constraints_v1_interface, 1);
	} else if (strcmp(interface, zwp_keyboard_shortcuts_inhibit_manager_v1_interface.name) ==
		0) {
		state->shortcuts_manager = wl_registry_bind(
			registry, name, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, 1);
	} else if (strcmp(interface, zwp_relative_pointer_manager_v1_interface.name) == 0) {
		state->relative_manager = wl_registry_bind(
			registry, name, &zwp_relative_pointer_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static uint32_t parse_color(const char *text) {
	char *end;
	uint32_t color = (uint32_t)strtoul(text, &end, 16);
	if (end == text || *end != '\0') {
		tc_die("expected hex AARRGGBB, got \"%s\"", text);
	}
	return color;
}

static void parse_pair(const char *text, char sep, int *a, int *b) {
	if (sscanf(text, sep == 'x' ? "%dx%d" : "%d,%d", a, b) != 2) {
		tc_die("expected two numbers, got \"%s\"", text);
	}
}

/* Waits MS ms while still answering the compositor. */
static void wait_ms(struct state *state, int ms) {
	int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	struct itimerspec spec = {.it_value = {ms / 1000, (long)(ms % 1000) * 1000000}};
	timerfd_settime(timer, 0, &spec, NULL);
	int display_fd = wl_display_get_fd(state->client->display);
	for (;;) {
		struct pollfd pfds[2] = {{timer, POLLIN, 0}, {display_fd, POLLIN, 0}};
		wl_display_flush(state->client->display);
		if (poll(pfds, 2, -1) < 0 && errno != EINTR) {
			break;
		}
		if (pfds[0].revents & POLLIN) {
			break;
		}
		if ((pfds[1].revents & POLLIN) && wl_display_dispatch(state->client->display) < 0) {
			tc_die("disconnected");
		}
	}
	close(timer);
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"color", required_argument, NULL, 'c'},
		{"fullscreen", no_argument, NULL, 'f'},
		{"map-after", required_argument, NULL, 'm'},
		{"copy", required_argument, NULL, 'C'},
		{"paste", no_argument, NULL, 'p'},
		{"activate-later", required_argument, NULL, 'l'},
		{"token-on-key", no_argument, NULL, 'k'},
		{"activate-env", no_argument, NULL, 'e'},
		{"open-on-key", required_argument, NULL, 'o'},
		{"cursor", required_argument, NULL, 'u'},
		{"cursor-hotspot", required_argument, NULL, 'H'},
		{"cursor-color", required_argument, NULL, 'U'},
		{"cursor-shape", required_argument, NULL, 'S'},
		{"lock-pointer", no_argument, NULL, 'L'},
		{"inhibit-shortcuts", no_argument, NULL, 'I'},
		{"drag-flood", required_argument, NULL, 'D'},
		{NULL, 0, NULL, 0},
	};
	struct state state = {
		.window = {.app_id = "input-thief", .width = 300, .height = 200, .timeout = 60},
		.color = 0xff806040,
		.cursor_color = 0xffff00ff,
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			state.color = parse_color(optarg);
			break;
		case 'f':
			state.fullscreen = true;
			break;
		case 'm':
			state.map_after_ms = tc_parse_int("--map-after", optarg, 0, 60000);
			break;
		case 'C':
			state.copy_text = optarg;
			break;
		case 'p':
			state.paste = true;
			break;
		case 'l':
			state.activate_later_ms =
				tc_parse_int("--activate-later", optarg, 0, 60000);
			break;
		case 'k':
			state.token_on_key = true;
			break;
		case 'e':
			state.activate_env = true;
			break;
		case 'o':
			state.open_on_key = optarg;
			break;
		case 'u':
			parse_pair(optarg, 'x', &state.cursor_width, &state.cursor_height);
			break;
		case 'H':
			parse_pair(optarg, ',', &state.hotspot_x, &state.hotspot_y);
			break;
		case 'U':
			state.cursor_color = parse_color(optarg);
			break;
		case 'S':
			shape_from_name(optarg);
			state.cursor_shape = optarg;
			break;
		case 'L':
			state.lock_pointer = true;
			break;
		case 'I':
			state.inhibit_shortcuts = true;
			break;
		case 'D':
			state.drag_flood = tc_parse_int("--drag-flood", optarg, 1, 1000000);
			break;
		default:
			if (!tc_window_option(opt, optarg, &state.window)) {
				tc_die("unknown option");
			}
		}
	}

	struct tc_client *client = tc_client_connect();
	state.client = client;
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	wl_display_roundtrip(client->display);
	if (!client->seat || !state.manager) {
		tc_die("no wl_seat or wl_data_device_manager");
	}
	if (state.cursor_shape && !state.shape_manager) {
		tc_die("no wp_cursor_shape_manager_v1");
	}
	state.device = wl_data_device_manager_get_data_device(state.manager, client->seat);
	wl_data_device_add_listener(state.device, &device_listener, &state);
	state.keyboard = wl_seat_get_keyboard(client->seat);
	wl_keyboard_add_listener(state.keyboard, &keyboard_listener, &state);
	state.input = calloc(1, sizeof(*state.input));
	state.input->client = client;
	state.input->data = &state;
	state.input->pointer = wl_seat_get_pointer(client->seat);
	wl_pointer_add_listener(state.input->pointer, &pointer_listener, &state);

	if (state.map_after_ms > 0) {
		tc_print("waiting ms=%d", state.map_after_ms);
		wait_ms(&state, state.map_after_ms);
	}
	state.toplevel = tc_toplevel_create(
		client, state.window.app_id, state.window.width, state.window.height, state.color);
	if (state.fullscreen) {
		xdg_toplevel_set_fullscreen(state.toplevel->xdg_toplevel, NULL);
		wl_surface_commit(state.toplevel->surface);
	}
	tc_print("mapping");
	if (state.lock_pointer) {
		lock_pointer(&state);
	}
	if (state.inhibit_shortcuts) {
		inhibit_shortcuts(&state);
	}
	if (state.drag_flood > 0) {
		drag_flood(&state);
	}
	const char *token = getenv("XDG_ACTIVATION_TOKEN");
	if (state.activate_env && token && *token) {
		/* As a launched app does once its window is up. */
		wl_display_roundtrip(client->display);
		xdg_activation_v1_activate(state.activation, token, state.toplevel->surface);
		tc_print("activation-requested token=%s", token);
	}

	if (state.activate_later_ms > 0) {
		while (!state.pressed_once) {
			if (wl_display_dispatch(client->display) < 0) {
				tc_die("disconnected");
			}
		}
		tc_print("pressed serial=%u; waiting ms=%d", state.first_press_serial,
			state.activate_later_ms);
		wait_ms(&state, state.activate_later_ms);
		request_token(&state, state.first_press_serial, false);
	}

	int ret = tc_run(client, tc_timeout_ms(state.window.timeout));
	int code = tc_exit_code(client, ret);
	if (state.second) {
		tc_toplevel_destroy(state.second);
	}
	tc_toplevel_destroy(state.toplevel);
	if (state.cursor_surface) {
		wl_surface_destroy(state.cursor_surface);
	}
	if (state.shape_device) {
		wp_cursor_shape_device_v1_destroy(state.shape_device);
	}
	if (state.locked) {
		zwp_locked_pointer_v1_destroy(state.locked);
	}
	if (state.relative) {
		zwp_relative_pointer_v1_destroy(state.relative);
	}
	if (state.shortcuts_inhibitor) {
		zwp_keyboard_shortcuts_inhibitor_v1_destroy(state.shortcuts_inhibitor);
	}
	if (state.current) {
		wl_data_offer_destroy(state.current);
	}
	if (state.pending) {
		wl_data_offer_destroy(state.pending);
	}
	if (state.source) {
		wl_data_source_destroy(state.source);
	}
	if (state.activation) {
		xdg_activation_v1_destroy(state.activation);
	}
	wl_pointer_destroy(state.input->pointer);
	free(state.input);
	wl_keyboard_destroy(state.keyboard);
	wl_data_device_destroy(state.device);
	wl_data_device_manager_destroy(state.manager);
	wl_registry_destroy(registry);
	tc_client_destroy(client);
	return code;
}
