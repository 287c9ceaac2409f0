/*
 * panel-client: a wlr-layer-shell panel anchored to the top edge, full width,
 * --height H tall with an exclusive zone of its height, like a taskbar.
 * Prints "layer-configure width=W height=H" and "closed".
 */
#include "common.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct panel {
	struct tc_client *client;
	struct wl_surface *surface;
	struct zwlr_layer_surface_v1 *layer_surface;
};

static void handle_configure(void *data, struct zwlr_layer_surface_v1 *layer_surface,
	uint32_t serial, uint32_t width, uint32_t height) {
	struct panel *panel = data;
	tc_print("layer-configure width=%u height=%u", width, height);
	zwlr_layer_surface_v1_ack_configure(layer_surface, serial);
	wl_surface_attach(panel->surface,
		tc_buffer_create(panel->client, (int32_t)width, (int32_t)height, 0xff303060), 0, 0);
	wl_surface_damage(panel->surface, 0, 0, (int32_t)width, (int32_t)height);
	wl_surface_commit(panel->surface);
}

static void handle_closed(void *data, struct zwlr_layer_surface_v1 *layer_surface) {
	struct panel *panel = data;
	tc_print("closed");
	panel->client->quit = true;
}

static const struct zwlr_layer_surface_v1_listener layer_surface_listener = {
	.configure = handle_configure,
	.closed = handle_closed,
};

struct layer_shell_binding {
	struct zwlr_layer_shell_v1 *layer_shell;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct layer_shell_binding *binding = data;
	if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
		/* Version 3 brings the destroy request used at exit. */
		binding->layer_shell = wl_registry_bind(
			registry, name, &zwlr_layer_shell_v1_interface, version < 3 ? version : 3);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void usage(void) {
	tc_die("usage: panel-client [--height H] [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "panel-client",
		.width = 0,
		.height = 30,
		.timeout = 120,
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (!tc_window_option(opt, optarg, &window)) {
			usage();
		}
	}
	if (optind != argc) {
		usage();
	}

	struct panel panel = {.client = tc_client_connect()};
	/* The layer shell is bound here: the other clients never need it. */
	struct layer_shell_binding binding = {0};
	struct wl_registry *registry = wl_display_get_registry(panel.client->display);
	wl_registry_add_listener(registry, &registry_listener, &binding);
	wl_display_roundtrip(panel.client->display);
	if (!binding.layer_shell) {
		tc_die("the compositor offers no zwlr_layer_shell_v1");
	}

	panel.surface = wl_compositor_create_surface(panel.client->compositor);
	panel.layer_surface = zwlr_layer_shell_v1_get_layer_surface(binding.layer_shell,
		panel.surface, NULL, ZWLR_LAYER_SHELL_V1_LAYER_TOP, window.app_id);
	zwlr_layer_surface_v1_add_listener(panel.layer_surface, &layer_surface_listener, &panel);
	zwlr_layer_surface_v1_set_anchor(panel.layer_surface,
		ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
			ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
	zwlr_layer_surface_v1_set_size(panel.layer_surface, 0, (uint32_t)window.height);
	zwlr_layer_surface_v1_set_exclusive_zone(panel.layer_surface, window.height);
	wl_surface_commit(panel.surface);

	int code = tc_exit_code(panel.client, tc_run(panel.client, tc_timeout_ms(window.timeout)));
	zwlr_layer_surface_v1_destroy(panel.layer_surface);
	wl_surface_destroy(panel.surface);
	zwlr_layer_shell_v1_destroy(binding.layer_shell);
	wl_registry_destroy(registry);
	tc_client_destroy(panel.client);
	return code;
}
