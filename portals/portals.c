/*
 * The portal host: the cordon_portal_manager_v1 global, offered to host and
 * sandboxed clients alike (a sandboxed app is who needs it), the permission
 * store and the dialog UI that every portal shares.
 */
#include "portals/portals.h"

#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "cordon-portal-v1-protocol.h"
#include "portals/camera.h"
#include "portals/camera_indicator.h"
#include "portals/camera_stream.h"
#include "portals/dbus.h"
#include "portals/file_chooser.h"
#include "portals/permission_store.h"
#include "portals/print.h"
#include "portals/request.h"
#include "portals/ui_plugin.h"

#define MANAGER_VERSION 5

static void handle_manager_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_get_file_chooser(
	struct wl_client *client, struct wl_resource *resource, uint32_t id, uint32_t kind) {
	struct cordon_portals *portals = wl_resource_get_user_data(resource);
	cordon_file_chooser_create(portals, client, resource, id, kind);
}

static void handle_take_photo(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	cordon_camera_photo_create(wl_resource_get_user_data(resource), client, resource, id);
}

static void handle_open_camera_stream(
	struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	cordon_camera_stream_create(wl_resource_get_user_data(resource), client, resource, id);
}

static void handle_get_print(
	struct wl_client *client, struct wl_resource *resource, uint32_t id, uint32_t kind) {
	struct cordon_portals *portals = wl_resource_get_user_data(resource);
	cordon_print_create(portals, client, resource, id, kind);
}

static const struct cordon_portal_manager_v1_interface manager_impl = {
	.destroy = handle_manager_destroy,
	.get_file_chooser = handle_get_file_chooser,
	.take_photo = handle_take_photo,
	.open_camera_stream = handle_open_camera_stream,
	.get_print = handle_get_print,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource =
		wl_resource_create(client, &cordon_portal_manager_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

struct cordon_portals *cordon_portals_create(const struct cordon_portal_host *host) {
	struct cordon_portals *portals = calloc(1, sizeof(*portals));
	if (!portals) {
		return NULL;
	}
	portals->host = *host;
	wl_list_init(&portals->requests);
	wl_list_init(&portals->camera_streams);
	/* Created after every other layer, so it is drawn above all of them. */
	portals->layer = wlr_scene_tree_create(host->scene_root);
	char *path = cordon_permission_store_default_path();
	if (!path) {
		wlr_log(WLR_ERROR,
			"Neither XDG_STATE_HOME nor HOME is set: portal permissions "
			"will not be saved");
	}
	portals->store = cordon_permission_store_load(path);
	free(path);
	struct cordon_portal_ui_choice choice = {
		.name = host->settings.ui,
		.plugin_dir = host->settings.ui_plugin_dir,
		.options = host->settings.ui_options,
	};
	portals->ui = cordon_portal_ui_create(portals, &choice);
	portals->print = cordon_print_portal_create(portals);
	portals->camera_indicator = cordon_camera_indicator_create(portals);
	portals->manager = wl_global_create(host->display, &cordon_portal_manager_v1_interface,
		MANAGER_VERSION, portals, bind_manager);
	if (!portals->layer || !portals->store || !portals->ui || !portals->print ||
		!portals->camera_indicator || !portals->manager) {
		wlr_log(WLR_ERROR, "Cannot create the portal host");
		cordon_portals_destroy(portals);
		return NULL;
	}
	/* The D-Bus door: nothing to serve without a session bus, not an error. */
	portals->dbus = cordon_dbus_portal_create(portals, host->session_bus);
	wlr_log(WLR_INFO, "Portal dialogs by the '%s' UI", cordon_portal_ui_name(portals->ui));
	return portals;
}

void cordon_portals_destroy(struct cordon_portals *portals) {
	if (!portals) {
		return;
	}
	if (portals->manager) {
		wl_global_destroy(portals->manager);
	}
	/* Its pending calls get their last answer while the bus is still there. */
	cordon_dbus_portal_destroy(portals->dbus);
	/* Requests of clients still connected (none once the display's clients are gone). */
	struct cordon_portal_request *request, *tmp;
	wl_list_for_each_safe(request, tmp, &portals->requests, link) {
		cordon_portal_request_cancel(request);
	}
	/* After the requests: waits for jobs still being sent. */
	cordon_print_portal_destroy(portals->print);
	cordon_camera_indicator_destroy(portals->camera_indicator);
	cordon_portal_ui_destroy(portals->ui);
	cordon_permission_store_destroy(portals->store);
	if (portals->layer) {
		wlr_scene_node_destroy(&portals->layer->node);
	}
	free(portals);
}

bool cordon_portals_set_permission(struct cordon_portals *portals, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error) {
	if (!cordon_permission_store_set(portals->store, app_id, portal, permission, error)) {
		return false;
	}
	/* A stream consented to once, or under allow, ends with the consent. */
	if (permission != CORDON_PERMISSION_ALLOW && strcmp(portal, "camera") == 0) {
		size_t count = cordon_camera_streams_revoke(portals, app_id);
		if (count) {
			wlr_log(WLR_INFO, "Camera revoked for '%s': %zu streams ended",
				cordon_log_text(app_id), count);
		}
	}
	return true;
}
