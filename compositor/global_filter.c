/*
 * The global filter: a sandboxed client sees only what an ordinary app needs
 * to draw, take input and exchange data through the user. Everything else
 * (screen capture, clipboard managers, virtual input, panels, output and gamma
 * control, lock screens, and any global added later) stays invisible and
 * cannot be bound.
 *
 * Every global cordon creates is named in exactly one of the two tables below,
 * which docs/security.md mirrors; tests/unit/test_global_tables.c lists what a
 * running cordon really announces and fails on a name in neither table or in
 * both. A global in neither is hidden from sandboxed clients all the same.
 */
#include "compositor/global_filter.h"

#include <string.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/util/log.h>

#include "common/policy.h"
#include "compositor/client.h"
#include "compositor/server.h"

/* What every client sees, sandboxed or not. */
static const char *const offered_to_sandboxes[] = {
	"wl_compositor",
	"wl_subcompositor",
	"wl_shm",
	"wl_seat",
	"wl_output",
	"wl_data_device_manager",
	"zwp_primary_selection_device_manager_v1",
	"zwp_linux_dmabuf_v1",
	"wl_drm",
	"xdg_wm_base",
	"zxdg_output_manager_v1",
	"zxdg_decoration_manager_v1",
	"org_kde_kwin_server_decoration_manager",
	/* Drawing: scaled and cropped buffers, one-colour buffers, the app's own opacity,
	 * the scale it should draw at, what kind of content it shows, when frames appeared. */
	"wp_viewporter",
	"wp_single_pixel_buffer_manager_v1",
	"wp_alpha_modifier_v1",
	"wp_fractional_scale_manager_v1",
	"wp_content_type_manager_v1",
	"wp_presentation",
	/* Its own windows: dialogs modal over their parent, their icon, a bell. */
	"xdg_wm_dialog_v1",
	"xdg_toplevel_icon_manager_v1",
	"xdg_system_bell_v1",
	"xdg_activation_v1",
	"zwp_idle_inhibit_manager_v1",
	/* The pointer as the app's own: its cursor's shape, relative motion for games, and a
	 * lock or confinement that holds only while the user gave it the keyboard
	 * (seat_protocols.c). */
	"wp_cursor_shape_manager_v1",
	"zwp_relative_pointer_manager_v1",
	"zwp_pointer_constraints_v1",
	/* Naming its own window as a portal dialog's parent; importing is not offered. */
	"zxdg_exporter_v2",
	/* Portals exist for sandboxed apps: the caller is known by its tag. */
	"cordon_portal_manager_v1",
	NULL,
};

/*
 * What only host clients see: other apps' pixels, windows and clipboard, input made up,
 * the outputs themselves, the lock screen. A policy may grant some of these to one
 * sandboxed app (the "globals" words of common/policy.c, all of them in this table).
 */
static const char *const host_only[] = {
	"zwlr_screencopy_manager_v1",
	"zwlr_export_dmabuf_manager_v1",
	"ext_image_copy_capture_manager_v1",
	"ext_output_image_capture_source_manager_v1",
	"ext_foreign_toplevel_image_capture_source_manager_v1",
	"zwlr_data_control_manager_v1",
	"ext_data_control_manager_v1",
	"zwp_virtual_keyboard_manager_v1",
	"zwlr_virtual_pointer_manager_v1",
	"zwlr_layer_shell_v1",
	"zwlr_foreign_toplevel_manager_v1",
	"ext_foreign_toplevel_list_v1",
	"zwlr_gamma_control_manager_v1",
	"zwlr_output_manager_v1",
	"ext_idle_notifier_v1",
	"ext_session_lock_manager_v1",
	/* cordon's bindings, taken by the app that has the keyboard (seat_protocols.c). */
	"zwp_keyboard_shortcuts_inhibit_manager_v1",
	"wp_security_context_manager_v1",
	/* Parents the app's surfaces to another client's exported window. */
	"zxdg_importer_v2",
	NULL,
};

static bool in_table(const char *const *table, const char *name) {
	for (; *table; table++) {
		if (strcmp(name, *table) == 0) {
			return true;
		}
	}
	return false;
}

unsigned cordon_global_tables_holding(const char *name) {
	return (in_table(offered_to_sandboxes, name) ? CORDON_GLOBAL_OFFERED : 0) |
		(in_table(host_only, name) ? CORDON_GLOBAL_HOST_ONLY : 0);
}

const char *const *cordon_global_table(enum cordon_global_class class) {
	return class == CORDON_GLOBAL_OFFERED ? offered_to_sandboxes : host_only;
}

/*
 * A grant in the policy ("globals = ..." for the app or its profile), looked up by the app id
 * of the tag: never by anything the client said. A client of unknown sandbox has no app id, so
 * only the default profile's grants reach it.
 */
static bool granted(const struct cordon_client *client, const char *name) {
	if (!client || !client->server->policy) {
		return false;
	}
	const struct cordon_tag *tag = cordon_client_get_tag(client);
	const char *app_id = tag && tag->app_id[0] ? tag->app_id : NULL;
	return cordon_policy_list_contains(client->server->policy, app_id, NULL, "globals", name);
}

bool cordon_global_visible(const struct wl_client *wl_client, const struct wl_global *global) {
	const struct cordon_client *client = cordon_client_from_wl(wl_client);
	if (!cordon_client_is_sandboxed(client)) {
		return true;
	}
	const char *name = wl_global_get_interface(global)->name;
	unsigned tables = cordon_global_tables_holding(name);
	if (tables == CORDON_GLOBAL_OFFERED) {
		return true;
	}
	if (tables != CORDON_GLOBAL_HOST_ONLY) {
		wlr_log(WLR_ERROR,
			"Global %s is not in exactly one table of global_filter.c: hidden", name);
		return false;
	}
	return granted(client, name);
}

static bool filter_global(
	const struct wl_client *client, const struct wl_global *global, void *data) {
	return cordon_global_visible(client, global);
}

/*
 * libwayland has no list of globals to ask, so "how many globals can this client see" is
 * answered from what its registry was actually told: every wl_registry.global event the
 * filter let through, less every global_remove. One registry per client is counted, the
 * first: a second registry is told the same globals again.
 */
static void handle_protocol_message(void *data, enum wl_protocol_logger_type direction,
	const struct wl_protocol_logger_message *message) {
	const struct wl_message *events = wl_registry_interface.events;
	if (direction != WL_PROTOCOL_LOGGER_EVENT ||
		(message->message != &events[WL_REGISTRY_GLOBAL] &&
			message->message != &events[WL_REGISTRY_GLOBAL_REMOVE])) {
		return;
	}
	struct cordon_client *client =
		cordon_client_from_wl(wl_resource_get_client(message->resource));
	if (!client) {
		return;
	}
	if (!client->registry) {
		client->registry = message->resource;
	}
	if (client->registry == message->resource) {
		client->visible_globals += message->message == &events[WL_REGISTRY_GLOBAL] ? 1 : -1;
	}
}

void cordon_global_filter_init(struct cordon_server *server) {
	wl_display_set_global_filter(server->display, filter_global, server);
	server->global_census =
		wl_display_add_protocol_logger(server->display, handle_protocol_message, server);
}

void cordon_global_filter_finish(struct cordon_server *server) {
	if (server->global_census) {
		wl_protocol_logger_destroy(server->global_census);
		server->global_census = NULL;
	}
}
