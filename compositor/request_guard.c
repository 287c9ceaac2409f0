/*
 * The request guard. A libwayland protocol logger sees each request just before its
 * handler is called, which is the one place cordon can act before wlroots' own handlers of
 * the protocols wlroots implements. It posts a protocol error (the client is disconnected
 * once this request is dispatched) and, where wlroots' handler checks for it, makes the
 * object inert for that handler.
 *
 * Guarded:
 * - xdg_popup.reposition before the popup's initial commit: wlroots schedules a configure
 *   for a surface that was never initialized and aborts (assert in
 *   wlr_xdg_surface_schedule_configure). Found by the Wayland fuzzer (docs/fuzzing.md).
 * - xdg_popup.grab on a popup that holds a grab already: wlroots puts it on the seat's grab
 *   list a second time, the list then still points at the popup once it is freed, and the
 *   next button press on the desktop ends the grab through that memory. Found by the
 *   Wayland fuzzer.
 * - xdg_surface.get_popup whose parent is the surface itself, or a popup above which it
 *   sits: wlroots makes the popup, and its chain of parents becomes a loop that everything
 *   walking up to a popup's toplevel (cordon's placement and input routing, wlroots'
 *   coordinates) never leaves, which hung the compositor at the popup's first commit. Found
 *   by the Wayland fuzzer. This one is not made inert (wlroots asserts that a get_popup's
 *   xdg_surface is there): the popup is made, and goes with its client right after this
 *   request, before anything walks it.
 */
#include "compositor/request_guard.h"

#include <string.h>
#include <sys/types.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "xdg-shell-protocol.h"

static bool is_request(const struct wl_protocol_logger_message *message, const char *interface,
	const char *request) {
	return strcmp(wl_resource_get_class(message->resource), interface) == 0 &&
		strcmp(message->message->name, request) == 0;
}

/*
 * Posts the protocol error on error_object: the client is disconnected once this request is
 * dispatched, before any other request of any client.
 */
static void refuse(struct wl_resource *resource, struct wl_resource *error_object, uint32_t code,
	const char *why) {
	pid_t pid = 0;
	wl_client_get_credentials(wl_resource_get_client(resource), &pid, NULL, NULL);
	wlr_log(WLR_INFO, "Refused %s (pid %d)", why, (int)pid);
	wl_resource_post_error(error_object, code, "%s", why);
}

/*
 * Refuses the request and makes its object inert: wlroots' handler runs next, and without
 * its object it does nothing. Only for objects whose wlroots destructor does not need it
 * (an xdg_popup's is freed through its own destroy listener).
 */
static void refuse_inert(struct wl_resource *resource, struct wl_resource *error_object,
	uint32_t code, const char *why) {
	refuse(resource, error_object, code, why);
	wl_resource_set_user_data(resource, NULL);
}

static void guard_popup_reposition(struct wl_resource *resource) {
	struct wlr_xdg_popup *popup = wlr_xdg_popup_from_resource(resource);
	if (popup && !popup->base->initialized) {
		refuse_inert(resource, popup->base->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			"xdg_popup.reposition before the popup's initial commit");
	}
}

static void guard_popup_grab(struct wl_resource *resource) {
	struct wlr_xdg_popup *popup = wlr_xdg_popup_from_resource(resource);
	if (popup && popup->seat) {
		refuse_inert(resource, resource, XDG_POPUP_ERROR_INVALID_GRAB,
			"xdg_popup.grab on a popup that has its grab");
	}
}

/*
 * Whether surface is from, or above it in from's chain of popup parents. It ends: every
 * popup was checked here when it was made, and one refused is gone with its client before
 * the next request.
 */
static bool popup_chain_holds(struct wlr_surface *from, struct wlr_surface *surface) {
	for (struct wlr_surface *above = from; above;) {
		if (above == surface) {
			return true;
		}
		struct wlr_xdg_popup *popup = wlr_xdg_popup_try_from_wlr_surface(above);
		above = popup ? popup->parent : NULL;
	}
	return false;
}

static void guard_get_popup(struct wl_resource *resource, const union wl_argument *args) {
	struct wlr_xdg_surface *xdg_surface = wlr_xdg_surface_from_resource(resource);
	/* get_popup(new_id id, object parent, object positioner); the parent may be null. */
	struct wl_resource *parent_resource = (struct wl_resource *)args[1].o;
	if (!xdg_surface || !parent_resource) {
		return;
	}
	struct wlr_xdg_surface *parent = wlr_xdg_surface_from_resource(parent_resource);
	if (parent && popup_chain_holds(parent->surface, xdg_surface->surface)) {
		refuse(resource, xdg_surface->client->resource,
			XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
			"xdg_surface.get_popup with the surface itself at or above its parent");
	}
}

static void handle_message(void *data, enum wl_protocol_logger_type type,
	const struct wl_protocol_logger_message *message) {
	if (type != WL_PROTOCOL_LOGGER_REQUEST) {
		return;
	}
	if (is_request(message, xdg_popup_interface.name, "reposition")) {
		guard_popup_reposition(message->resource);
	} else if (is_request(message, xdg_popup_interface.name, "grab")) {
		guard_popup_grab(message->resource);
	} else if (is_request(message, xdg_surface_interface.name, "get_popup")) {
		guard_get_popup(message->resource, message->arguments);
	}
}

struct wl_protocol_logger *cordon_request_guard_create(struct wl_display *display) {
	return wl_display_add_protocol_logger(display, handle_message, NULL);
}
