/*
 * frame-client: a toplevel of one colour that redraws on every frame callback, as an
 * animating client does, and prints "frame N" for each callback it gets. It declares
 * its whole surface opaque (wl_surface.set_opaque_region) unless --no-opaque-region,
 * so that tests can see when the compositor stops and resumes frame callbacks for a
 * window that others cover.
 */
#include "common.h"
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>

struct frame_state {
	struct tc_toplevel *toplevel;
	struct wl_callback *callback;
	unsigned frames;
};

static void request_frame(struct frame_state *state);

static void handle_frame_done(void *data, struct wl_callback *callback, uint32_t time) {
	struct frame_state *state = data;
	wl_callback_destroy(callback);
	state->callback = NULL;
	tc_print("frame %u", ++state->frames);
	/* A new buffer each time: the compositor has to draw this window again. */
	struct tc_toplevel *toplevel = state->toplevel;
	struct wl_buffer *buffer = tc_buffer_create(
		toplevel->client, toplevel->width, toplevel->height, toplevel->color);
	wl_surface_attach(toplevel->surface, buffer, 0, 0);
	wl_surface_damage(toplevel->surface, 0, 0, INT32_MAX, INT32_MAX);
	request_frame(state);
}

static const struct wl_callback_listener frame_listener = {
	.done = handle_frame_done,
};

static void request_frame(struct frame_state *state) {
	state->callback = wl_surface_frame(state->toplevel->surface);
	wl_callback_add_listener(state->callback, &frame_listener, state);
	wl_surface_commit(state->toplevel->surface);
}

/* After the first configure's buffer went out: start the frame loop once. */
static void handle_configured(struct tc_toplevel *toplevel, void *data) {
	struct frame_state *state = data;
	if (!state->callback && state->frames == 0) {
		request_frame(state);
	}
}

static void usage(void) {
	tc_die("usage: frame-client [--app-id ID] [--width W] [--height H] [--color AARRGGBB]\n"
	       "       [--no-opaque-region] [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"color", required_argument, NULL, 'c'},
		{"no-opaque-region", no_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "frame-client",
		.width = 200,
		.height = 200,
		.timeout = 120,
	};
	uint32_t color = 0xff808080;
	bool opaque_region = true;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'n':
			opaque_region = false;
			break;
		case 'c': {
			char *end;
			color = (uint32_t)strtoul(optarg, &end, 16);
			if (end == optarg || *end != '\0') {
				tc_die("--color: expected hex AARRGGBB, got \"%s\"", optarg);
			}
			break;
		}
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc) {
		usage();
	}

	struct tc_client *client = tc_client_connect();
	struct frame_state state = {0};
	state.toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, color);
	state.toplevel->on_configure = handle_configured;
	state.toplevel->data = &state;
	if (opaque_region) {
		/* Double-buffered: it applies with the first buffer; the compositor clips it. */
		struct wl_region *region = wl_compositor_create_region(client->compositor);
		wl_region_add(region, 0, 0, INT32_MAX, INT32_MAX);
		wl_surface_set_opaque_region(state.toplevel->surface, region);
		wl_region_destroy(region);
	}

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, ret);
	if (state.callback) {
		wl_callback_destroy(state.callback);
	}
	tc_toplevel_destroy(state.toplevel);
	tc_client_destroy(client);
	return code;
}
