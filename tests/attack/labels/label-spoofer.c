/*
 * label-spoofer: a hostile app for the label attacks (tests/attack/labels/). It maps a
 * window of --color and tries to hide or imitate the label cordon draws around it:
 *
 *   --app-id ID / --title T     what it calls itself (another app, or "cordon")
 *   --subsurface-over-label C   a subsurface of colour C (AARRGGBB) over the strip and
 *                               frame: from 40 px above the window to its top, 8 px wider
 *                               on each side ("subsurface-mapped")
 *   --popup-over-label C        a popup of colour C over the same place ("popup-configured")
 *   --geometry-lie              a 400x300 buffer that says its window is the 100x100 at its
 *                               top-left: the rest would be a second, unlabelled "window"
 *   --fullscreen                asks to be fullscreen before it maps
 *   --inhibit-shortcuts         takes the keyboard shortcuts while focused; prints
 *                               "inhibitor-active" / "inhibitor-inactive"
 *
 * Keys it gets are printed as "key code=C state=S" (a keylogger), with "keyboard-enter".
 */
#include "common.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct state {
	struct tc_client *client;
	struct tc_window_options window;
	uint32_t color;
	const char *title;
	uint32_t subsurface_color, popup_color;
	bool subsurface, popup, geometry_lie, fullscreen, inhibit;
	struct wl_subcompositor *subcompositor;
	struct zwp_keyboard_shortcuts_inhibit_manager_v1 *inhibit_manager;
	struct tc_toplevel *toplevel;
	struct tc_input *input;
	bool decorated; /* the one-time additions are made */
	struct wl_surface *popup_surface;
	struct xdg_surface *popup_xdg_surface;
	struct xdg_popup *xdg_popup;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wl_subcompositor_interface.name) == 0) {
		state->subcompositor =
			wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
	} else if (strcmp(interface, zwp_keyboard_shortcuts_inhibit_manager_v1_interface.name) ==
		0) {
		state->inhibit_manager = wl_registry_bind(
			registry, name, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_inhibitor_active(
	void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *inhibitor) {
	tc_print("inhibitor-active");
}

static void handle_inhibitor_inactive(
	void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *inhibitor) {
	tc_print("inhibitor-inactive");
}

static const struct zwp_keyboard_shortcuts_inhibitor_v1_listener inhibitor_listener = {
	.active = handle_inhibitor_active,
	.inactive = handle_inhibitor_inactive,
};

static void handle_popup_xdg_configure(
	void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct state *state = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	int width = state->toplevel->width + 16;
	struct wl_buffer *buffer = tc_buffer_create(state->client, width, 40, state->popup_color);
	wl_surface_attach(state->popup_surface, buffer, 0, 0);
	wl_surface_damage(state->popup_surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(state->popup_surface);
	tc_print("popup-configured");
}

static const struct xdg_surface_listener popup_xdg_listener = {
	.configure = handle_popup_xdg_configure,
};

static void handle_popup_configure(
	void *data, struct xdg_popup *popup, int32_t x, int32_t y, int32_t width, int32_t height) {
	tc_print("popup-placed x=%d y=%d width=%d height=%d", x, y, width, height);
}

static void handle_popup_done(void *data, struct xdg_popup *popup) {
	tc_print("popup-done");
}

static void handle_popup_repositioned(void *data, struct xdg_popup *popup, uint32_t token) {
}

static const struct xdg_popup_listener popup_listener = {
	.configure = handle_popup_configure,
	.popup_done = handle_popup_done,
	.repositioned = handle_popup_repositioned,
};

static void add_subsurface(struct state *state) {
	if (!state->subcompositor) {
		tc_die("no wl_subcompositor");
	}
	struct wl_surface *surface = wl_compositor_create_surface(state->client->compositor);
	struct wl_subsurface *subsurface = wl_subcompositor_get_subsurface(
		state->subcompositor, surface, state->toplevel->surface);
	wl_subsurface_set_position(subsurface, -8, -40);
	wl_subsurface_place_above(subsurface, state->toplevel->surface);
	struct wl_buffer *buffer = tc_buffer_create(
		state->client, state->toplevel->width + 16, 40, state->subsurface_color);
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_commit(surface);
	/* A subsurface's position applies with its parent's next commit. */
	wl_surface_commit(state->toplevel->surface);
	tc_print("subsurface-mapped");
}

static void add_popup(struct state *state) {
	struct xdg_positioner *positioner = xdg_wm_base_create_positioner(state->client->wm_base);
	xdg_positioner_set_size(positioner, state->toplevel->width + 16, 40);
	xdg_positioner_set_anchor_rect(positioner, 0, 0, 1, 1);
	xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_TOP_LEFT);
	xdg_positioner_set_gravity(positioner, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
	xdg_positioner_set_offset(positioner, -8, -40);
	state->popup_surface = wl_compositor_create_surface(state->client->compositor);
	state->popup_xdg_surface =
		xdg_wm_base_get_xdg_surface(state->client->wm_base, state->popup_surface);
	xdg_surface_add_listener(state->popup_xdg_surface, &popup_xdg_listener, state);
	state->xdg_popup = xdg_surface_get_popup(
		state->popup_xdg_surface, state->toplevel->xdg_surface, positioner);
	xdg_popup_add_listener(state->xdg_popup, &popup_listener, state);
	xdg_positioner_destroy(positioner);
	wl_surface_commit(state->popup_surface);
}

static void handle_configure(struct tc_toplevel *toplevel, void *data) {
	struct state *state = data;
	/*
	 * As toolkits do: the window is the main surface (without it, the geometry would be
	 * the bounding box of every subsurface). Applies with the next commit.
	 */
	if (state->geometry_lie) {
		xdg_surface_set_window_geometry(toplevel->xdg_surface, 0, 0, 100, 100);
	} else {
		xdg_surface_set_window_geometry(
			toplevel->xdg_surface, 0, 0, toplevel->width, toplevel->height);
	}
	wl_surface_commit(toplevel->surface);
	if (state->decorated) {
		return;
	}
	state->decorated = true;
	if (state->subsurface) {
		add_subsurface(state);
	}
	if (state->popup) {
		add_popup(state);
	}
	if (state->inhibit) {
		if (!state->inhibit_manager || !state->client->seat) {
			tc_die("no zwp_keyboard_shortcuts_inhibit_manager_v1");
		}
		struct zwp_keyboard_shortcuts_inhibitor_v1 *inhibitor =
			zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(
				state->inhibit_manager, toplevel->surface, state->client->seat);
		zwp_keyboard_shortcuts_inhibitor_v1_add_listener(
			inhibitor, &inhibitor_listener, state);
	}
}

static uint32_t parse_color(const char *option, const char *value) {
	char *end;
	unsigned long color = strtoul(value, &end, 16);
	if (*value == '\0' || *end != '\0' || strlen(value) != 8) {
		tc_die("%s wants AARRGGBB, got '%s'", option, value);
	}
	return (uint32_t)color;
}

int main(int argc, char **argv) {
	struct state state = {
		.window = {.app_id = "label-spoofer", .width = 300, .height = 200},
		.color = 0xff808080,
	};
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"color", required_argument, NULL, 'c'},
		{"title", required_argument, NULL, 'T'},
		{"subsurface-over-label", required_argument, NULL, 's'},
		{"popup-over-label", required_argument, NULL, 'p'},
		{"geometry-lie", no_argument, NULL, 'g'},
		{"fullscreen", no_argument, NULL, 'f'},
		{"inhibit-shortcuts", no_argument, NULL, 'i'},
		{0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (tc_window_option(opt, optarg, &state.window)) {
			continue;
		}
		switch (opt) {
		case 'c':
			state.color = parse_color("--color", optarg);
			break;
		case 'T':
			state.title = optarg;
			break;
		case 's':
			state.subsurface = true;
			state.subsurface_color = parse_color("--subsurface-over-label", optarg);
			break;
		case 'p':
			state.popup = true;
			state.popup_color = parse_color("--popup-over-label", optarg);
			break;
		case 'g':
			state.geometry_lie = true;
			break;
		case 'f':
			state.fullscreen = true;
			break;
		case 'i':
			state.inhibit = true;
			break;
		default:
			tc_die("usage: label-spoofer [options] (see the source)");
		}
	}
	state.client = tc_client_connect();
	struct wl_registry *registry = wl_display_get_registry(state.client->display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	wl_display_roundtrip(state.client->display);
	state.input = tc_input_create(state.client, true);
	int width = state.geometry_lie ? 400 : state.window.width;
	int height = state.geometry_lie ? 300 : state.window.height;
	state.toplevel =
		tc_toplevel_create(state.client, state.window.app_id, width, height, state.color);
	state.toplevel->on_configure = handle_configure;
	state.toplevel->data = &state;
	if (state.title) {
		xdg_toplevel_set_title(state.toplevel->xdg_toplevel, state.title);
	}
	if (state.fullscreen) {
		xdg_toplevel_set_fullscreen(state.toplevel->xdg_toplevel, NULL);
		wl_surface_commit(state.toplevel->surface);
	}
	int result = tc_run(state.client, tc_timeout_ms(state.window.timeout));
	return tc_exit_code(state.client, result);
}
