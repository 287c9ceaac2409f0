/* Commands of the portal host: the permission store, and the requests waiting for the user. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "compositor/server.h"
#include "portals/camera_indicator.h"
#include "portals/camera_stream.h"
#include "portals/permission_store.h"
#include "portals/portals.h"
#include "portals/request.h"
#include "portals/ui_plugin.h"

static void add_entry(void *data, const char *app_id, const char *portal,
	enum cordon_permission permission, const char *const *folders, size_t folder_count) {
	struct json_object *array = data;
	struct json_object *object = json_object_new_object();
	json_object_object_add(object, "app_id", json_object_new_string(app_id));
	json_object_object_add(object, "portal", json_object_new_string(portal));
	json_object_object_add(
		object, "permission", json_object_new_string(cordon_permission_name(permission)));
	struct json_object *list = json_object_new_array();
	for (size_t i = 0; i < folder_count; i++) {
		json_object_array_add(list, json_object_new_string(folders[i]));
	}
	json_object_object_add(object, "folders", list);
	json_object_array_add(array, object);
}

/* permissions list | permissions grant|revoke|deny APP_ID PORTAL */
CORDON_IPC_HANDLER(cordon_ipc_permissions) {
	static const char *const usage = "usage: permissions list | permissions grant|revoke|deny "
					 "APP_ID PORTAL";
	struct cordon_permission_store *store = server->portals->store;
	if (argc == 1 && strcmp(argv[0], "list") == 0) {
		*result = json_object_new_array();
		cordon_permission_store_for_each(store, add_entry, *result);
		return true;
	}
	if (argc != 3) {
		return cordon_ipc_fail(error, "%s", usage);
	}
	enum cordon_permission permission;
	if (strcmp(argv[0], "grant") == 0) {
		permission = CORDON_PERMISSION_ALLOW;
	} else if (strcmp(argv[0], "revoke") == 0) {
		/* Back to the default: the app asks again, with a dialog. */
		permission = CORDON_PERMISSION_ASK;
	} else if (strcmp(argv[0], "deny") == 0) {
		permission = CORDON_PERMISSION_DENY;
	} else {
		return cordon_ipc_fail(error, "%s", usage);
	}
	char *reason = NULL;
	if (!cordon_portals_set_permission(
		    server->portals, argv[1], argv[2], permission, &reason)) {
		bool ok = cordon_ipc_fail(error, "%s", reason ? reason : "out of memory");
		free(reason);
		return ok;
	}
	*result = json_object_new_object();
	json_object_object_add(*result, "app_id", json_object_new_string(argv[1]));
	json_object_object_add(*result, "portal", json_object_new_string(argv[2]));
	json_object_object_add(
		*result, "permission", json_object_new_string(cordon_permission_name(permission)));
	return true;
}

/* The requests that wait for an answer, oldest first. */
CORDON_IPC_HANDLER(cordon_ipc_portal_requests) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: portal-requests");
	}
	*result = json_object_new_array();
	struct cordon_portal_request *request;
	wl_list_for_each(request, &server->portals->requests, link) {
		if (request->state != CORDON_PORTAL_REQUEST_PENDING) {
			continue;
		}
		struct json_object *object = json_object_new_object();
		json_object_object_add(object, "token", json_object_new_string(request->token));
		json_object_object_add(
			object, "portal", json_object_new_string(request->impl->portal));
		json_object_object_add(object, "app_id",
			json_object_new_string(cordon_portal_request_app_id(request)));
		json_object_object_add(object, "pid", json_object_new_int64(request->pid));
		json_object_object_add(
			object, "sandboxed", json_object_new_boolean(request->tag.sandboxed));
		/* Shown with the keyboard; and past its grace period: what tests wait for. */
		json_object_object_add(object, "dialog_shown",
			json_object_new_boolean(request->dialog &&
				cordon_portal_dialog_has_keyboard(request->dialog)));
		json_object_object_add(object, "dialog_ready",
			json_object_new_boolean(request->dialog &&
				cordon_portal_dialog_input_ready(request->dialog)));
		json_object_array_add(*result, object);
	}
	return true;
}

static void add_stream(void *data, const struct cordon_camera_stream_info *info) {
	struct json_object *array = data;
	struct json_object *object = json_object_new_object();
	json_object_object_add(object, "app_id", json_object_new_string(info->app_id));
	json_object_object_add(object, "provider", json_object_new_string(info->provider));
	json_object_object_add(object, "pid", json_object_new_int64(info->pid));
	json_object_object_add(object, "frames", json_object_new_int64((int64_t)info->frames));
	json_object_object_add(object, "dropped", json_object_new_int64((int64_t)info->dropped));
	json_object_object_add(object, "bytes", json_object_new_int64((int64_t)info->bytes));
	json_object_object_add(object, "width", json_object_new_int64(info->width));
	json_object_object_add(object, "height", json_object_new_int64(info->height));
	json_object_array_add(array, object);
}

/* The open camera streams, and where the indicator's close button is (null: hidden). */
CORDON_IPC_HANDLER(cordon_ipc_camera_streams) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: camera-streams");
	}
	struct json_object *streams = json_object_new_array();
	cordon_camera_streams_for_each(server->portals, add_stream, streams);
	struct json_object *close_box = NULL;
	int x, y, width, height;
	if (cordon_camera_indicator_get_close_box(
		    server->portals->camera_indicator, &x, &y, &width, &height)) {
		close_box = json_object_new_object();
		json_object_object_add(close_box, "x", json_object_new_int(x));
		json_object_object_add(close_box, "y", json_object_new_int(y));
		json_object_object_add(close_box, "width", json_object_new_int(width));
		json_object_object_add(close_box, "height", json_object_new_int(height));
	}
	*result = json_object_new_object();
	json_object_object_add(*result, "streams", streams);
	json_object_object_add(*result, "indicator_close", close_box);
	return true;
}
