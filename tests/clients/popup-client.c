/*
 * popup-client: a toplevel that opens an xdg_popup (and, with --nested, a popup
 * of that popup) anchored at its parent's bottom-right corner, so that the
 * popup would hang off the output unless the compositor unconstrains it.
 *
 * Prints "popup-configure x=X y=Y w=W h=H depth=D" for each popup configure,
 * X/Y relative to the parent's window geometry, and "popup-done depth=D".
 */
#include "common.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 2

struct popup {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_popup *xdg_popup;
	int depth;
	int32_t x, y, width, height; /* from the last xdg_popup.configure */
	bool mapped;
};

struct popup_client {
	struct tc_client *client;
	struct tc_toplevel *toplevel;
	struct popup popups[MAX_DEPTH];
	int depth; /* how many popups to open */
	int popup_count; /* how many are open */
	int32_t popup_width, popup_height;
	uint32_t adjustment; /* enum xdg_positioner_constraint_adjustment */
};

static void open_popup(struct popup_client *pc);

static void handle_popup_configure(void *data, struct xdg_popup *xdg_popup, int32_t x, int32_t y,
	int32_t width, int32_t height) {
	struct popup *popup = data;
	popup->x = x;
	popup->y = y;
	popup->width = width;
	popup->height = height;
}

static void handle_popup_done(void *data, struct xdg_popup *xdg_popup) {
	struct popup *popup = data;
	tc_print("popup-done depth=%d", popup->depth);
}

static void handle_popup_repositioned(void *data, struct xdg_popup *xdg_popup, uint32_t token) {
}

static const struct xdg_popup_listener popup_listener = {
	.configure = handle_popup_configure,
	.popup_done = handle_popup_done,
	.repositioned = handle_popup_repositioned,
};

static void handle_popup_surface_configure(
	void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct popup_client *pc = data;
	struct popup *popup = NULL;
	for (int i = 0; i < pc->popup_count; i++) {
		if (pc->popups[i].xdg_surface == xdg_surface) {
			popup = &pc->popups[i];
		}
	}
	if (!popup) {
		return;
	}
	xdg_surface_ack_configure(xdg_surface, serial);
	tc_print("popup-configure x=%d y=%d w=%d h=%d depth=%d", popup->x, popup->y, popup->width,
		popup->height, popup->depth);
	int32_t width = popup->width > 0 ? popup->width : pc->popup_width;
	int32_t height = popup->height > 0 ? popup->height : pc->popup_height;
	uint32_t color = popup->depth == 1 ? 0xff3070d0 : 0xffd07030;
	wl_surface_attach(popup->surface, tc_buffer_create(pc->client, width, height, color), 0, 0);
	wl_surface_damage(popup->surface, 0, 0, width, height);
	wl_surface_commit(popup->surface);
	if (!popup->mapped) {
		popup->mapped = true;
		/* A child popup needs a mapped parent, so the next one waits for this commit. */
		open_popup(pc);
	}
}

static const struct xdg_surface_listener popup_surface_listener = {
	.configure = handle_popup_surface_configure,
};

static void open_popup(struct popup_client *pc) {
	if (pc->popup_count >= pc->depth) {
		return;
	}
	struct xdg_surface *parent;
	int32_t parent_width, parent_height;
	if (pc->popup_count == 0) {
		parent = pc->toplevel->xdg_surface;
		parent_width = pc->toplevel->width;
		parent_height = pc->toplevel->height;
	} else {
		struct popup *up = &pc->popups[pc->popup_count - 1];
		parent = up->xdg_surface;
		parent_width = up->width;
		parent_height = up->height;
	}

	struct popup *popup = &pc->popups[pc->popup_count++];
	popup->depth = pc->popup_count;
	popup->surface = wl_compositor_create_surface(pc->client->compositor);
	popup->xdg_surface = xdg_wm_base_get_xdg_surface(pc->client->wm_base, popup->surface);
	xdg_surface_add_listener(popup->xdg_surface, &popup_surface_listener, pc);

	/*
	 * Anchored just inside the parent's bottom-right corner and growing down
	 * and right: a parent reaching near the output's corner puts the popup
	 * mostly off the output, which only the constraint adjustments can fix.
	 */
	struct xdg_positioner *positioner = xdg_wm_base_create_positioner(pc->client->wm_base);
	xdg_positioner_set_size(positioner, pc->popup_width, pc->popup_height);
	xdg_positioner_set_anchor_rect(positioner, parent_width - 10, parent_height - 10, 10, 10);
	xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT);
	xdg_positioner_set_gravity(positioner, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
	xdg_positioner_set_constraint_adjustment(positioner, pc->adjustment);
	popup->xdg_popup = xdg_surface_get_popup(popup->xdg_surface, parent, positioner);
	xdg_positioner_destroy(positioner);
	xdg_popup_add_listener(popup->xdg_popup, &popup_listener, popup);
	wl_surface_commit(popup->surface);
}

static void handle_toplevel_configured(struct tc_toplevel *toplevel, void *data) {
	struct popup_client *pc = data;
	if (pc->popup_count == 0) {
		open_popup(pc);
	}
}

static uint32_t parse_adjustment(const char *value) {
	static const struct {
		const char *name;
		uint32_t bits;
	} names[] = {
		{"none", XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_NONE},
		{"slide",
			XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X |
				XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y},
		{"flip",
			XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X |
				XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y},
		{"resize",
			XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X |
				XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y},
	};
	uint32_t bits = 0;
	char *copy = strdup(value);
	if (!copy) {
		tc_die("out of memory");
	}
	char *save = NULL;
	for (char *word = strtok_r(copy, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < sizeof(names) / sizeof(names[0]) && strcmp(names[i].name, word) != 0) {
			i++;
		}
		if (i == sizeof(names) / sizeof(names[0])) {
			free(copy);
			tc_die("--adjust: unknown adjustment \"%s\" (none, slide, flip, resize)",
				word);
		}
		bits |= names[i].bits;
	}
	free(copy);
	return bits;
}

static void usage(void) {
	tc_die("usage: popup-client [--app-id ID] [--width W] [--height H] [--popup-width W]\n"
	       "       [--popup-height H] [--adjust slide,flip,resize|none] [--nested]\n"
	       "       [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"popup-width", required_argument, NULL, 'W'},
		{"popup-height", required_argument, NULL, 'H'},
		{"adjust", required_argument, NULL, 'j'},
		{"nested", no_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "popup-client",
		.width = 1000,
		.height = 600,
		.timeout = 120,
	};
	struct popup_client pc = {
		.depth = 1,
		.popup_width = 300,
		.popup_height = 200,
		.adjustment = parse_adjustment("slide,flip"),
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'W':
			pc.popup_width = tc_parse_int("--popup-width", optarg, 1, 8192);
			break;
		case 'H':
			pc.popup_height = tc_parse_int("--popup-height", optarg, 1, 8192);
			break;
		case 'j':
			pc.adjustment = parse_adjustment(optarg);
			break;
		case 'n':
			pc.depth = 2;
			break;
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc) {
		usage();
	}

	pc.client = tc_client_connect();
	pc.toplevel = tc_toplevel_create(
		pc.client, window.app_id, window.width, window.height, 0xff40a040);
	pc.toplevel->on_configure = handle_toplevel_configured;
	pc.toplevel->data = &pc;

	int ret = tc_run(pc.client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(pc.client, ret);
	/* Children before parents: xdg-shell makes destroying a parent popup first an error. */
	for (int i = pc.popup_count - 1; i >= 0; i--) {
		xdg_popup_destroy(pc.popups[i].xdg_popup);
		xdg_surface_destroy(pc.popups[i].xdg_surface);
		wl_surface_destroy(pc.popups[i].surface);
	}
	tc_toplevel_destroy(pc.toplevel);
	tc_client_destroy(pc.client);
	return code;
}
