/* Commands that describe state: outputs, windows, clients. */
#include "commands.h"

#include <wlr/types/wlr_content_type_v1.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_xdg_dialog_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor/client.h"
#include "compositor/globals.h"
#include "compositor/input_router.h"
#include "compositor/label.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xwayland.h"
#include "compositor/xwayland_view.h"

static void add_int(struct json_object *object, const char *key, int64_t value) {
	json_object_object_add(object, key, json_object_new_int64(value));
}

static void add_bool(struct json_object *object, const char *key, bool value) {
	json_object_object_add(object, key, json_object_new_boolean(value));
}

static void add_string(struct json_object *object, const char *key, const char *value) {
	json_object_object_add(object, key, json_object_new_string(value ? value : ""));
}

/* "unknown" when the sandbox could not be told: such clients count as sandboxed. */
static const char *engine_name(const struct cordon_tag *tag) {
	return tag ? cordon_tag_engine_name(tag) : "unknown";
}

CORDON_IPC_HANDLER(cordon_ipc_outputs) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: outputs");
	}
	struct cordon_seat *seat = server->seat;
	struct cordon_output *under_cursor =
		cordon_output_at(server, seat->cursor->x, seat->cursor->y);
	*result = json_object_new_array();
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_output *wlr_output = output->wlr_output;
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		struct json_object *object = json_object_new_object();
		add_string(object, "name", wlr_output->name);
		add_string(object, "description", wlr_output->description);
		add_int(object, "width", wlr_output->width);
		add_int(object, "height", wlr_output->height);
		add_int(object, "x", box.x);
		add_int(object, "y", box.y);
		json_object_object_add(object, "scale", json_object_new_double(wlr_output->scale));
		add_int(object, "refresh_mhz", wlr_output->refresh);
		add_bool(object, "enabled", wlr_output->enabled);
		add_bool(object, "focused", output == under_cursor);
		json_object_array_add(*result, object);
	}
	return true;
}

/* The label cordon draws (label.c), from the tag: null for a host window. */
static void add_label(struct json_object *object, struct cordon_view *view) {
	if (!view->label) {
		json_object_object_add(object, "label", NULL);
		return;
	}
	const struct cordon_label_style *style = cordon_label_get_style(view->label);
	char color[8];
	cordon_label_color_name(style->color, color);
	struct json_object *label = json_object_new_object();
	add_string(label, "color", color);
	add_string(label, "text", style->text);
	add_bool(label, "shown", cordon_label_is_shown(view->label));
	json_object_object_add(object, "label", label);
}

/* What the app says its window shows (content-type-v1). */
static const char *content_type_name(struct cordon_server *server, struct cordon_view *view) {
	switch (wlr_surface_get_content_type_v1(server->globals->content_type, view->surface)) {
	case WP_CONTENT_TYPE_V1_TYPE_PHOTO:
		return "photo";
	case WP_CONTENT_TYPE_V1_TYPE_VIDEO:
		return "video";
	case WP_CONTENT_TYPE_V1_TYPE_GAME:
		return "game";
	default:
		return "none";
	}
}

/* The window's parent (a dialog's), and whether xdg-dialog made it modal over it. */
static void add_parent(
	struct json_object *object, struct cordon_server *server, struct cordon_view *view) {
	struct cordon_view *parent_view = cordon_view_get_parent(view);
	struct wlr_xdg_dialog_v1 *dialog = view->xdg_toplevel
		? wlr_xdg_dialog_v1_try_from_wlr_xdg_toplevel(view->xdg_toplevel)
		: NULL;
	add_int(object, "parent", parent_view ? (int)parent_view->id : 0);
	add_bool(object, "modal", parent_view && dialog && dialog->modal);
}

CORDON_IPC_HANDLER(cordon_ipc_windows) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: windows");
	}
	*result = json_object_new_array();
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped) {
			continue;
		}
		struct wlr_box box;
		cordon_view_get_box(view, &box);
		struct json_object *object = json_object_new_object();
		add_int(object, "id", view->id);
		add_string(object, "app_id", cordon_view_get_app_id(view));
		add_string(object, "title", cordon_view_get_title(view));
		add_int(object, "pid", cordon_view_get_pid(view));
		add_bool(object, "focused", view == server->seat->focused_view);
		add_bool(object, "minimized", view->minimized);
		add_bool(object, "maximized", view->maximized);
		add_bool(object, "fullscreen", view->fullscreen);
		add_parent(object, server, view);
		add_string(object, "content_type", content_type_name(server, view));
		/* Whether a press in it now counts as the user's action (input_router.c). */
		add_bool(object, "input_trusted", cordon_input_router_view_may_consent(view));
		add_int(object, "x", box.x);
		add_int(object, "y", box.y);
		add_int(object, "width", box.width);
		add_int(object, "height", box.height);
		/* The owner's tag, from the kernel; app_id above is only the client's label. */
		struct cordon_client *owner = cordon_client_from_wl(view->client);
		const struct cordon_tag *tag = cordon_client_get_tag(owner);
		add_bool(object, "sandboxed", cordon_client_is_sandboxed(owner));
		add_string(object, "sandbox_engine", engine_name(tag));
		add_string(object, "sandbox_app_id", tag ? tag->app_id : "");
		add_string(object, "sandbox_instance", tag ? tag->instance : "");
		add_string(object, "tag_source", cordon_client_tag_source_name(owner));
		/* An X11 window: pid is its X server's, the tag is the instance's. */
		struct cordon_xwayland *xwayland = cordon_view_get_xwayland(view);
		add_string(object, "shell", xwayland ? "x11" : "xdg");
		add_bool(object, "x11", xwayland != NULL);
		add_string(object, "x11_display",
			xwayland ? cordon_xwayland_display_name(xwayland) : "");
		add_label(object, view);
		json_object_array_add(*result, object);
	}
	return true;
}

static int count_windows(struct cordon_server *server, struct wl_client *client) {
	int count = 0;
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && view->client == client) {
			count++;
		}
	}
	return count;
}

CORDON_IPC_HANDLER(cordon_ipc_clients) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: clients");
	}
	*result = json_object_new_array();
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server->display)) {
		pid_t pid;
		uid_t uid;
		gid_t gid;
		wl_client_get_credentials(client, &pid, &uid, &gid);
		struct json_object *object = json_object_new_object();
		add_int(object, "pid", pid);
		add_int(object, "uid", uid);
		add_int(object, "gid", gid);
		add_int(object, "windows", count_windows(server, client));
		/* The identity taken at connect time, not anything the client said. */
		struct cordon_client *record = cordon_client_from_wl(client);
		const struct cordon_tag *tag = cordon_client_get_tag(record);
		bool identified = record && record->identified;
		add_bool(object, "identified", identified);
		add_bool(object, "sandboxed", cordon_client_is_sandboxed(record));
		add_string(object, "engine", engine_name(tag));
		add_string(object, "app_id", tag ? tag->app_id : "");
		add_string(object, "instance", tag ? tag->instance : "");
		add_string(object, "cgroup", identified ? record->peer.cgroup : "");
		add_string(object, "tag_source", cordon_client_tag_source_name(record));
		add_int(object, "globals", record ? record->visible_globals : 0);
		json_object_array_add(*result, object);
	}
	return true;
}
