/*
 * The compositor as the portals see it: the one file that knows both the portal host
 * interface and the compositor's internals. Each callback answers from the compositor's
 * state at the time it is called, so nothing the portals hold can go stale (an output
 * unplugged, a view unmapped, the labels created after the portals).
 */
#include "compositor/portal_host.h"

#include <stdio.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/box.h>

#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/freeze.h"
#include "compositor/label.h"
#include "compositor/label_style.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/session_bus.h"
#include "compositor/view.h"
#include "compositor/xdg_foreign.h"
#include "portals/host.h"
#include "sandbox/cgroup_tag.h"

/* A requester's name in a dialog's frame is never cut shorter than on its windows. */
_Static_assert(CORDON_PORTAL_LABEL_TEXT_MAX >= CORDON_LABEL_TEXT_MAX,
	"a portal label holds a window label's text");

static void handle_session_bus_changed(void *data) {
	struct cordon_server *server = data;
	cordon_session_bus_changed(server->session_bus);
}

static void handle_client_identity(
	void *data, struct wl_client *client, struct cordon_tag *tag, pid_t *pid) {
	const struct cordon_client *record = cordon_client_from_wl(client);
	*tag = *cordon_client_get_tag(record);
	*pid = record && record->identified ? record->peer.pid : 0;
}

static void handle_wake_client(void *data, struct wl_client *client, const char *reason) {
	cordon_freeze_wake(data, client, reason);
}

static struct wl_resource *handle_exported_toplevel(void *data, const char *handle) {
	struct cordon_server *server = data;
	return cordon_xdg_foreign_lookup(server->xdg_foreign, handle);
}

static bool handle_window_box(void *data, struct wlr_surface *surface, struct wlr_box *box) {
	struct cordon_view *view = cordon_view_from_surface(data, surface);
	if (!view || !view->mapped) {
		return false;
	}
	cordon_view_get_box(view, box);
	return true;
}

static bool handle_pointer_position(void *data, double *lx, double *ly) {
	struct cordon_server *server = data;
	if (!server->seat) {
		return false;
	}
	*lx = server->seat->cursor->x;
	*ly = server->seat->cursor->y;
	return true;
}

static bool handle_output_box_at(void *data, double lx, double ly, struct wlr_box *box) {
	struct cordon_output *output = cordon_output_at(data, lx, ly);
	if (!output) {
		return false;
	}
	cordon_output_get_box(output, box);
	return true;
}

static void handle_label_for_tag(
	void *data, const struct cordon_tag *tag, struct cordon_portal_label *label) {
	struct cordon_server *server = data;
	struct cordon_label_style style;
	cordon_label_style_for_tag(server->policy, tag, tag->sandboxed, &style);
	label->shown = style.shown;
	label->color = style.color;
	snprintf(label->text, sizeof(label->text), "%s", style.text);
}

static struct cordon_ui_font *handle_label_font(void *data) {
	struct cordon_server *server = data;
	return server->labels ? cordon_labels_font(server->labels) : NULL;
}

static void handle_keyboard_returned(void *data) {
	struct cordon_server *server = data;
	cordon_seat_send_modifiers(server->seat);
}

/* [portal] of cordon.ini, as the portals take it. */
static struct cordon_portal_settings portal_settings(const struct cordon_config *config) {
	return (struct cordon_portal_settings){
		.ui = config->portal_ui,
		.ui_plugin_dir = config->portal_plugin_dir,
		.ui_options = config->portal_ui_options,
		.dialog_grace_ms = config->portal_dialog_grace_ms,
		.camera_timeout_ms = config->portal_camera_timeout_ms,
		.camera_max_bytes = config->portal_camera_max_bytes,
		.camera_launcher = config->portal_camera_launcher,
		.print_max_size = config->portal_print_max_size,
	};
}

void cordon_portal_host_init(struct cordon_portal_host *host, struct cordon_server *server) {
	*host = (struct cordon_portal_host){
		.display = server->display,
		.event_loop = server->event_loop,
		.scene_root = &server->scene->tree,
		.policy = server->policy,
		.settings = portal_settings(server->config),
		.session_bus = cordon_session_bus_get(server->session_bus),
		.data = server,
		.session_bus_changed = handle_session_bus_changed,
		.client_identity = handle_client_identity,
		.wake_client = handle_wake_client,
		.exported_toplevel = handle_exported_toplevel,
		.window_box = handle_window_box,
		.pointer_position = handle_pointer_position,
		.output_box_at = handle_output_box_at,
		.label_for_tag = handle_label_for_tag,
		.label_font = handle_label_font,
		.keyboard_returned = handle_keyboard_returned,
	};
}
