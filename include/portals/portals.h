/* The portal host: the cordon_portal_manager_v1 global and what every portal shares. */
#ifndef CORDON_PORTALS_PORTALS_H
#define CORDON_PORTALS_PORTALS_H

#include <stdbool.h>
#include <wayland-server-core.h>

#include "portals/host.h"

struct cordon_portal_ui;
struct cordon_permission_store;
struct cordon_print_portal;
struct cordon_dbus_portal;
struct cordon_camera_indicator;
struct wlr_scene_tree;

struct cordon_portals {
	/* The compositor, as far as the portals may see it: a copy of what it handed over. */
	struct cordon_portal_host host;
	struct wl_global *manager;
	/* Above every other scene layer: dialogs live here (portals/dialog_surface.c). */
	struct wlr_scene_tree *layer;
	struct wl_list requests; /* cordon_portal_request.link, oldest first */
	struct cordon_portal_ui *ui;
	struct cordon_permission_store *store;
	struct cordon_print_portal *print; /* portals/print.c */
	struct cordon_dbus_portal *dbus; /* portals/dbus/: NULL without a session bus */
	struct wl_list camera_streams; /* open ones, oldest first (portals/camera_stream.c) */
	struct cordon_camera_indicator *camera_indicator;
	/* A modifier change was kept from the app: its state is stale until sent again. */
	bool modifiers_withheld;
};

/*
 * Creates the global, the permission store and the dialog UI in HOST (copied); NULL after
 * logging why.
 */
struct cordon_portals *cordon_portals_create(const struct cordon_portal_host *host);
/* After the clients are gone. */
void cordon_portals_destroy(struct cordon_portals *portals);

/*
 * The user changed what APP_ID may do with PORTAL (cordonctl permissions): sets it
 * in the store, and takes back what is open under the old answer (camera streams).
 * False with *error (malloc'ed) as cordon_permission_store_set.
 */
enum cordon_permission;
bool cordon_portals_set_permission(struct cordon_portals *portals, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error);

#endif
