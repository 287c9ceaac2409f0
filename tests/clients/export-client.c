/*
 * export-client: a toplevel that exports itself with xdg-foreign-v2, as a GTK or Qt app
 * does before it asks a portal over D-Bus, and prints "handle HANDLE" (what it passes as
 * parent_window "wayland:HANDLE"). Prints "no-exporter" when the global is hidden.
 */
#include "common.h"
#include <getopt.h>
#include <string.h>

#include "xdg-foreign-unstable-v2-client-protocol.h"

static struct zxdg_exporter_v2 *exporter;

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	if (strcmp(interface, zxdg_exporter_v2_interface.name) == 0) {
		exporter = wl_registry_bind(registry, name, &zxdg_exporter_v2_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_handle(void *data, struct zxdg_exported_v2 *exported, const char *handle) {
	tc_print("handle %s", handle);
}

static const struct zxdg_exported_v2_listener exported_listener = {
	.handle = handle_handle,
};

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "export-client",
		.width = 200,
		.height = 200,
		.timeout = 120,
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (!tc_window_option(opt, optarg, &window)) {
			tc_die("usage: export-client [--app-id ID] [--width W] [--height H] "
			       "[--timeout SECONDS]");
		}
	}
	struct tc_client *client = tc_client_connect();
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(client->display);
	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, 0xff406080);
	struct zxdg_exported_v2 *exported = NULL;
	if (exporter) {
		exported = zxdg_exporter_v2_export_toplevel(exporter, toplevel->surface);
		zxdg_exported_v2_add_listener(exported, &exported_listener, NULL);
	} else {
		tc_print("no-exporter");
	}
	int result = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, result);
	if (exported) {
		zxdg_exported_v2_destroy(exported);
	}
	if (exporter) {
		zxdg_exporter_v2_destroy(exporter);
	}
	wl_registry_destroy(registry);
	tc_toplevel_destroy(toplevel);
	tc_client_destroy(client);
	return code;
}
