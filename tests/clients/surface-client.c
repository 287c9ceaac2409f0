/*
 * surface-client: a toplevel drawn with the protocols of a current toolkit. Its own
 * solid buffer (--color) is shown at the opacity --alpha (a percentage,
 * wp_alpha_modifier); over its left half lies a subsurface whose buffer is a single
 * pixel (single-pixel-buffer, --pixel RRGGBBAA, premultiplied as the protocol says)
 * stretched by wp_viewporter. The window says what it shows with --content-type
 * (content-type-v1) and prints "preferred-scale N" (in 120ths) whenever
 * fractional-scale tells it the scale to draw at. A global missing ends it with
 * "the compositor offers no NAME" (status 2).
 */
#include "alpha-modifier-v1-client-protocol.h"
#include "common.h"
#include "content-type-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct globals {
	struct wl_subcompositor *subcompositor;
	struct wp_viewporter *viewporter;
	struct wp_single_pixel_buffer_manager_v1 *single_pixel;
	struct wp_alpha_modifier_v1 *alpha_modifier;
	struct wp_fractional_scale_manager_v1 *fractional_scale;
	struct wp_content_type_manager_v1 *content_type;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct globals *globals = data;
	if (strcmp(interface, wl_subcompositor_interface.name) == 0) {
		globals->subcompositor =
			wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		globals->viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0) {
		globals->single_pixel = wl_registry_bind(
			registry, name, &wp_single_pixel_buffer_manager_v1_interface, 1);
	} else if (strcmp(interface, wp_alpha_modifier_v1_interface.name) == 0) {
		globals->alpha_modifier =
			wl_registry_bind(registry, name, &wp_alpha_modifier_v1_interface, 1);
	} else if (strcmp(interface, wp_fractional_scale_manager_v1_interface.name) == 0) {
		globals->fractional_scale = wl_registry_bind(
			registry, name, &wp_fractional_scale_manager_v1_interface, 1);
	} else if (strcmp(interface, wp_content_type_manager_v1_interface.name) == 0) {
		globals->content_type =
			wl_registry_bind(registry, name, &wp_content_type_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_preferred_scale(
	void *data, struct wp_fractional_scale_v1 *fractional_scale, uint32_t scale) {
	tc_print("preferred-scale %u", scale);
}

static const struct wp_fractional_scale_v1_listener fractional_scale_listener = {
	.preferred_scale = handle_preferred_scale,
};

static void need(const void *global, const char *name) {
	if (!global) {
		tc_die("the compositor offers no %s", name);
	}
}

static uint32_t parse_hex(const char *option, const char *value) {
	char *end;
	unsigned long parsed = strtoul(value, &end, 16);
	if (end == value || *end != '\0' || parsed > UINT32_MAX) {
		tc_die("%s: expected 8 hex digits, got \"%s\"", option, value);
	}
	return (uint32_t)parsed;
}

static enum wp_content_type_v1_type parse_content_type(const char *value) {
	static const char *const names[] = {"none", "photo", "video", "game"};
	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(value, names[i]) == 0) {
			return i;
		}
	}
	tc_die("--content-type: none, photo, video or game, not \"%s\"", value);
}

/* 8 bits of a channel as the 32 bits single-pixel-buffer takes. */
static uint32_t channel(uint32_t rgba, int shift) {
	return ((rgba >> shift) & 0xff) * (UINT32_MAX / 0xff);
}

static void usage(void) {
	tc_die("usage: surface-client [--app-id ID] [--width W] [--height H] [--color AARRGGBB]\n"
	       "       [--pixel RRGGBBAA] [--alpha PERCENT] [--content-type TYPE] [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"color", required_argument, NULL, 'c'},
		{"pixel", required_argument, NULL, 'p'},
		{"alpha", required_argument, NULL, 'A'},
		{"content-type", required_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "surface-client",
		.width = 300,
		.height = 200,
		.timeout = 120,
	};
	uint32_t color = 0xff0000ff, pixel = 0xff0000ff;
	int alpha = 100;
	enum wp_content_type_v1_type type = WP_CONTENT_TYPE_V1_TYPE_NONE;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			color = parse_hex("--color", optarg);
			break;
		case 'p':
			pixel = parse_hex("--pixel", optarg);
			break;
		case 'A':
			alpha = tc_parse_int("--alpha", optarg, 0, 100);
			break;
		case 'C':
			type = parse_content_type(optarg);
			break;
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc || window.width < 2) {
		usage();
	}

	struct tc_client *client = tc_client_connect();
	struct globals globals = {0};
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, &globals);
	wl_display_roundtrip(client->display);
	need(globals.subcompositor, "wl_subcompositor");
	need(globals.viewporter, "wp_viewporter");
	need(globals.single_pixel, "wp_single_pixel_buffer_manager_v1");
	need(globals.alpha_modifier, "wp_alpha_modifier_v1");
	need(globals.fractional_scale, "wp_fractional_scale_manager_v1");
	need(globals.content_type, "wp_content_type_manager_v1");

	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, color);
	struct wp_fractional_scale_v1 *fractional_scale =
		wp_fractional_scale_manager_v1_get_fractional_scale(
			globals.fractional_scale, toplevel->surface);
	wp_fractional_scale_v1_add_listener(fractional_scale, &fractional_scale_listener, NULL);
	struct wp_content_type_v1 *content_type =
		wp_content_type_manager_v1_get_surface_content_type(
			globals.content_type, toplevel->surface);
	wp_content_type_v1_set_content_type(content_type, type);

	struct wp_alpha_modifier_surface_v1 *modifier =
		wp_alpha_modifier_v1_get_surface(globals.alpha_modifier, toplevel->surface);
	wp_alpha_modifier_surface_v1_set_multiplier(
		modifier, (uint32_t)((uint64_t)UINT32_MAX * (uint64_t)alpha / 100));

	/* The overlay: one pixel, stretched over the left half of the window. */
	struct wl_surface *overlay = wl_compositor_create_surface(client->compositor);
	struct wl_subsurface *subsurface =
		wl_subcompositor_get_subsurface(globals.subcompositor, overlay, toplevel->surface);
	wl_subsurface_set_position(subsurface, 0, 0);
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		globals.single_pixel, channel(pixel, 24), channel(pixel, 16), channel(pixel, 8),
		channel(pixel, 0));
	struct wp_viewport *viewport = wp_viewporter_get_viewport(globals.viewporter, overlay);
	wp_viewport_set_destination(viewport, window.width / 2, window.height);
	wl_surface_attach(overlay, buffer, 0, 0);
	wl_surface_commit(overlay);
	/* A synchronized subsurface, and the modifier: both come with the parent's first
	 * commit, made in answer to the first configure. */

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, ret);
	wp_alpha_modifier_surface_v1_destroy(modifier);
	wp_viewport_destroy(viewport);
	wl_buffer_destroy(buffer);
	wl_subsurface_destroy(subsurface);
	wl_surface_destroy(overlay);
	wp_content_type_v1_destroy(content_type);
	wp_fractional_scale_v1_destroy(fractional_scale);
	tc_toplevel_destroy(toplevel);
	wp_content_type_manager_v1_destroy(globals.content_type);
	wp_fractional_scale_manager_v1_destroy(globals.fractional_scale);
	wp_alpha_modifier_v1_destroy(globals.alpha_modifier);
	wp_single_pixel_buffer_manager_v1_destroy(globals.single_pixel);
	wp_viewporter_destroy(globals.viewporter);
	wl_subcompositor_destroy(globals.subcompositor);
	wl_registry_destroy(registry);
	tc_client_destroy(client);
	return code;
}
