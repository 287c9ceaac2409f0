/*
 * move-resize-client: a toplevel that starts an interactive move (or, with
 * --resize EDGES, a resize) when a pointer button is pressed on it, passing
 * that press's serial as xdg-shell requires.
 *
 * Prints "move serial=N" or "resize edges=E serial=N" when it asks, then
 * "move-sent"/"resize-sent" once the compositor has read the request (a
 * wl_display.sync round trip), so a test may start moving the pointer.
 * With --unmap-in-grab it then unmaps its window (a null buffer) in the
 * middle of the grab and prints "unmapped" once that was read.
 * Configures are printed by common.c.
 */
#include "common.h"
#include <getopt.h>
#include <linux/input-event-codes.h>
#include <string.h>

struct move_resize_client {
	struct tc_client *client;
	struct tc_toplevel *toplevel;
	uint32_t button; /* the button that starts the grab */
	bool resize;
	uint32_t edges; /* enum xdg_toplevel_resize_edge */
	struct wl_callback *sync;
	bool unmap_in_grab;
	bool grab_sent; /* the compositor has read the move or resize request */
	bool unmapped;
};

static const struct wl_callback_listener sync_listener;

static void handle_sync_done(void *data, struct wl_callback *callback, uint32_t serial) {
	struct move_resize_client *mrc = data;
	wl_callback_destroy(callback);
	mrc->sync = NULL;
	if (mrc->unmapped) {
		tc_print("unmapped");
		return;
	}
	tc_print("%s", mrc->resize ? "resize-sent" : "move-sent");
	mrc->grab_sent = true;
}

/*
 * The grab is on and its configure answered: the window goes away under it (xdg-shell
 * allows a null buffer any time). Not before that configure is acked: an unmap forgets
 * the configures in flight, and acking one later would be this client's error.
 */
static void handle_configure(struct tc_toplevel *toplevel, void *data) {
	struct move_resize_client *mrc = data;
	if (!mrc->unmap_in_grab || !mrc->grab_sent || mrc->unmapped) {
		return;
	}
	wl_surface_attach(toplevel->surface, NULL, 0, 0);
	wl_surface_commit(toplevel->surface);
	mrc->unmapped = true;
	mrc->sync = wl_display_sync(mrc->client->display);
	wl_callback_add_listener(mrc->sync, &sync_listener, mrc);
}

static const struct wl_callback_listener sync_listener = {
	.done = handle_sync_done,
};

static void handle_button(
	struct tc_input *input, uint32_t serial, uint32_t button, uint32_t state) {
	struct move_resize_client *mrc = input->data;
	if (button != mrc->button || state != WL_POINTER_BUTTON_STATE_PRESSED || mrc->sync ||
		mrc->unmapped) {
		return;
	}
	/* The serial of the press proves to the compositor that the button is really held. */
	if (mrc->resize) {
		xdg_toplevel_resize(
			mrc->toplevel->xdg_toplevel, mrc->client->seat, serial, mrc->edges);
		tc_print("resize edges=%u serial=%u", mrc->edges, serial);
	} else {
		xdg_toplevel_move(mrc->toplevel->xdg_toplevel, mrc->client->seat, serial);
		tc_print("move serial=%u", serial);
	}
	/* Requests are handled in order: when this sync is done, so is the move. */
	mrc->sync = wl_display_sync(mrc->client->display);
	wl_callback_add_listener(mrc->sync, &sync_listener, mrc);
}

static uint32_t parse_edges(const char *value) {
	static const struct {
		const char *name;
		uint32_t edges;
	} names[] = {
		{"top", XDG_TOPLEVEL_RESIZE_EDGE_TOP},
		{"bottom", XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM},
		{"left", XDG_TOPLEVEL_RESIZE_EDGE_LEFT},
		{"right", XDG_TOPLEVEL_RESIZE_EDGE_RIGHT},
		{"top_left", XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT},
		{"top_right", XDG_TOPLEVEL_RESIZE_EDGE_TOP_RIGHT},
		{"bottom_left", XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_LEFT},
		{"bottom_right", XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(names[i].name, value) == 0) {
			return names[i].edges;
		}
	}
	tc_die("--resize: unknown edges \"%s\" (top, bottom, left, right, top_left, top_right, "
	       "bottom_left, bottom_right)",
		value);
}

static uint32_t parse_button(const char *value) {
	if (strcmp(value, "left") == 0) {
		return BTN_LEFT;
	}
	if (strcmp(value, "right") == 0) {
		return BTN_RIGHT;
	}
	if (strcmp(value, "middle") == 0) {
		return BTN_MIDDLE;
	}
	tc_die("--button: expected left, right or middle, got \"%s\"", value);
}

static void usage(void) {
	tc_die("usage: move-resize-client [--app-id ID] [--width W] [--height H]\n"
	       "       [--resize EDGES] [--button left|right|middle] [--unmap-in-grab]\n"
	       "       [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"resize", required_argument, NULL, 'r'},
		{"button", required_argument, NULL, 'b'},
		{"unmap-in-grab", no_argument, NULL, 'u'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "move-resize-client",
		.width = 300,
		.height = 200,
		.timeout = 120,
	};
	struct move_resize_client mrc = {
		.button = BTN_LEFT,
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'r':
			mrc.resize = true;
			mrc.edges = parse_edges(optarg);
			break;
		case 'b':
			mrc.button = parse_button(optarg);
			break;
		case 'u':
			mrc.unmap_in_grab = true;
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

	mrc.client = tc_client_connect();
	struct tc_input *input = tc_input_create(mrc.client, true);
	input->on_button = handle_button;
	input->data = &mrc;
	mrc.toplevel = tc_toplevel_create(
		mrc.client, window.app_id, window.width, window.height, 0xffa05050);
	mrc.toplevel->on_configure = handle_configure;
	mrc.toplevel->data = &mrc;

	int code = tc_exit_code(mrc.client, tc_run(mrc.client, tc_timeout_ms(window.timeout)));
	if (mrc.sync) {
		wl_callback_destroy(mrc.sync);
	}
	tc_toplevel_destroy(mrc.toplevel);
	tc_input_destroy(input);
	tc_client_destroy(mrc.client);
	return code;
}
