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
};

bool cordon_global_visible(const struct wl_client *client, const struct wl_global *global) {
	if (!cordon_client_is_sandboxed(cordon_client_from_wl(client))) {
		return true;
	}
	const char *name = wl_global_get_interface(global)->name;
	for (size_t i = 0; i < sizeof(sandbox_allowed) / sizeof(sandbox_allowed[0]); i++) {
		if (strcmp(name, sandbox_allowed[i]) == 0) {
			return true;
		}
	}
	return false;
}

static bool filter_global(const struct wl_client *client, const struct wl_global *global,
		void *data) {
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
