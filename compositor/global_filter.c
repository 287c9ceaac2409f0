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
	/* Portals exist for sandboxed apps: the caller is known by its tag. */
	"cordon_portal_manager_v1",
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

void cordon_global_filter_init(struct cordon_server *server) {
	wl_display_set_global_filter(server->display, filter_global, server);
}
