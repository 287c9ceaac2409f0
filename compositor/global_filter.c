/*
 * The global filter: a sandboxed client sees only what an ordinary app needs
 * to draw, take input and exchange data through the user. Everything else
 * (screen capture, clipboard managers, virtual input, panels, output and gamma
 * control, session locking) stays invisible and cannot be bound, unless the
 * app's policy grants it by name.
 *
 * Every global cordon creates is in exactly one of three tables: offered to
 * sandboxed apps, host-only (with what it would give away), or an X server's own
 * (each of cordon's X servers sees its own and no other client any). A global in
 * neither is hidden from sandboxed apps like a host-only one, so a protocol added
 * later is private by default, and tests/wlcs/descriptor-check.c and
 * tests/unit/test_global_tables.c fail until it is classified. Globals are
 * matched by interface name: wlroots keeps its wl_interface structs private, so
 * their names are what cordon can compare.
 */
#include "compositor/global_filter.h"

#include <string.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "common/policy.h"
#include "compositor/client.h"
#include "compositor/server.h"
#include "compositor/x11_display.h"
#include "compositor/xwayland.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const offered[] = {
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
	/* Its own windows: dialogs modal over their parent (its own), their icon, a bell. */
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
	/* Its text fields, which the host's input method writes into while it has the
	 * keyboard (text_input.c). */
	"zwp_text_input_manager_v3",
	/* Naming its own window as a portal dialog's parent; importing is host-only. */
	"zxdg_exporter_v2",
	/* Portals exist for sandboxed apps: the caller is known by its tag. */
	"cordon_portal_manager_v1",
};

/* What each would give a sandboxed app. */
static const struct {
	const char *name;
	const char *gives;
} host_only[] = {
	{"zwlr_screencopy_manager_v1", "every pixel on screen, other apps' windows included"},
	{"zwlr_export_dmabuf_manager_v1", "every output's frames, as dmabufs"},
	{"ext_image_copy_capture_manager_v1", "copies of outputs and other apps' windows"},
	{"ext_output_image_capture_source_manager_v1", "every output as a capture source"},
	{"ext_foreign_toplevel_image_capture_source_manager_v1",
		"any app's window as a capture source"},
	{"ext_foreign_toplevel_list_v1", "every window's title and app id"},
	{"zwlr_data_control_manager_v1",
		"every selection, read and set without focus or a user action"},
	{"ext_data_control_manager_v1",
		"every selection, read and set without focus or a user action"},
	{"zwp_virtual_keyboard_manager_v1", "typing into whichever window has the keyboard"},
	{"zwlr_virtual_pointer_manager_v1", "clicking anywhere, trusted dialogs included"},
	{"zwlr_layer_shell_v1",
		"surfaces over every window (fake dialogs) and the keyboard exclusively"},
	{"zwlr_foreign_toplevel_manager_v1", "every window's title and app id, and closing them"},
	{"zwlr_gamma_control_manager_v1",
		"the colours of whole outputs, to hide or fake what they show"},
	{"zwlr_output_manager_v1", "the output layout and modes, and switching outputs off"},
	{"zwlr_output_power_manager_v1", "blanking the screen, under a dialog too"},
	{"ext_idle_notifier_v1", "when the user is away from the machine"},
	{"ext_session_lock_manager_v1", "locking the session: all input and all of the screen"},
	{"zwp_keyboard_shortcuts_inhibit_manager_v1", "cordon's own key bindings"},
	{"zwp_input_method_manager_v2",
		"every key typed into a text field, and writing into any app's fields"},
	{"wp_security_context_manager_v1", "connections tagged with a sandbox of its choosing"},
	{"zxdg_importer_v2", "parenting its surfaces to another app's window"},
	{"cordon_x11_manager_v1",
		"X servers tagged with a sandbox of its choosing, and their sockets"},
};

/*
 * Globals each of cordon's X servers has one of, shown to that server alone
 * (cordon_xwayland_global_is_private); one of them that no X server owns is hidden from all.
 */
static const char *const x_server_only[] = {
	/* Makes any surface of the binder an X window of its X server. */
	"xwayland_shell_v1",
};

static bool listed(const char *name, const char *const *names, size_t count) {
	for (size_t i = 0; i < count; i++) {
		if (strcmp(name, names[i]) == 0) {
			return true;
		}
	}
	return false;
}

static bool host_only_listed(const char *name) {
	for (size_t i = 0; i < ARRAY_LEN(host_only); i++) {
		if (strcmp(name, host_only[i].name) == 0) {
			return true;
		}
	}
	return false;
}

enum cordon_global_class cordon_global_class_of(const char *interface_name) {
	bool is_offered = listed(interface_name, offered, ARRAY_LEN(offered));
	bool is_host_only = host_only_listed(interface_name);
	bool is_x_server_only = listed(interface_name, x_server_only, ARRAY_LEN(x_server_only));
	if ((int)is_offered + (int)is_host_only + (int)is_x_server_only > 1) {
		return CORDON_GLOBAL_IN_BOTH;
	}
	if (is_x_server_only) {
		return CORDON_GLOBAL_X_SERVER_ONLY;
	}
	if (is_offered) {
		return CORDON_GLOBAL_OFFERED;
	}
	return is_host_only ? CORDON_GLOBAL_HOST_ONLY : CORDON_GLOBAL_UNCLASSIFIED;
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
	/* First, for the host too: an X server's own globals are no other client's. */
	bool visible;
	if (client &&
		cordon_xwayland_global_is_private(client->server, global, wl_client, &visible)) {
		return visible;
	}
	const char *name = wl_global_get_interface(global)->name;
	enum cordon_global_class class = cordon_global_class_of(name);
	if (class == CORDON_GLOBAL_X_SERVER_ONLY) {
		return false; /* no X server of cordon's owns it */
	}
	if (!cordon_client_is_sandboxed(client)) {
		return true;
	}
	switch (class) {
	case CORDON_GLOBAL_OFFERED:
		return true;
	case CORDON_GLOBAL_HOST_ONLY:
		return granted(client, name);
	case CORDON_GLOBAL_X_SERVER_ONLY:
	case CORDON_GLOBAL_UNCLASSIFIED:
	case CORDON_GLOBAL_IN_BOTH:
		break;
	}
	return false;
}

static bool filter_global(
	const struct wl_client *client, const struct wl_global *global, void *data) {
	struct cordon_server *server = data;
	/*
	 * The private seat of a sandbox's X display (x11_display.c) is hidden from every
	 * client from the moment wlroots creates its global, before any X server is tied to
	 * it: an X server that saw it announced would bind it, be refused and die.
	 */
	if (cordon_x11_displays_global_is_private(server->x11_displays, global)) {
		return false;
	}
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
