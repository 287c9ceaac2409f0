/* What the control socket tells about cordon's X servers. */
#include "commands.h"

#include <json-c/json.h>

#include "compositor/server.h"
#include "compositor/xwayland.h"

static void add_server(struct cordon_xwayland *xwayland, void *data) {
	struct json_object *list = data;
	struct json_object *object = json_object_new_object();
	const struct cordon_tag *tag = cordon_xwayland_tag(xwayland);
	json_object_object_add(
		object, "display", json_object_new_string(cordon_xwayland_display_name(xwayland)));
	json_object_object_add(
		object, "socket", json_object_new_string(cordon_xwayland_socket_path(xwayland)));
	/* False until the first X client connects, and again after an idle server exited. */
	json_object_object_add(
		object, "running", json_object_new_boolean(cordon_xwayland_is_running(xwayland)));
	json_object_object_add(object, "sandboxed", json_object_new_boolean(tag->sandboxed));
	json_object_object_add(
		object, "engine", json_object_new_string(cordon_tag_engine_name(tag)));
	json_object_object_add(object, "app_id", json_object_new_string(tag->app_id));
	json_object_object_add(object, "instance", json_object_new_string(tag->instance));
	json_object_array_add(list, object);
}

CORDON_IPC_HANDLER(cordon_ipc_x11_servers) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: x11-servers");
	}
	*result = json_object_new_array();
	cordon_xwayland_for_each(server, add_server, *result);
	return true;
}
