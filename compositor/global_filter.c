/*
 * The global filter: a sandboxed client sees only what an ordinary app needs
 * to draw, take input and exchange data through the user. Everything else
 * (screen capture, clipboard managers, virtual input, panels, output and gamma
 * control, input inhibitors, and any global added later) stays invisible and
 * cannot be bound. An allow-list, so that a new global is private by default.
 */
#include "compositor/global_filter.h"

#include <string.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "common/policy.h"
#include "compositor/client.h"
#include "compositor/server.h"

static const char *const sandbox_allowed[] = {
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
	"wp_viewporter",
	"wp_presentation",
	"xdg_activation_v1",
	"zwp_idle_inhibit_manager_v1",
	/* The pointer as the app's own: its cursor's shape, relative motion for games, and a
	 * lock or confinement that holds only while the user gave it the keyboard (seat_protocols.c). */
	"wp_cursor_shape_manager_v1",
	"zwp_relative_pointer_manager_v1",
	"zwp_pointer_constraints_v1",
	/* Naming its own window as a portal dialog's parent; importing is not offered. */
	"zxdg_exporter_v2",
	/* Portals exist for sandboxed apps: the caller is known by its tag. */
	"cordon_portal_manager_v1",
};

static bool allow_listed(const char *name) {
	for (size_t i = 0; i < sizeof(sandbox_allowed) / sizeof(sandbox_allowed[0]); i++) {
		if (strcmp(name, sandbox_allowed[i]) == 0) {
			return true;
		}
	}
	return false;
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
	return allow_listed(name) || granted(client, name);
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
