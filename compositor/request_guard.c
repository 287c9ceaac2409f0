/*
 * The request guard. A libwayland protocol logger sees each request just before its
 * handler is called, which is the one place cordon can act before wlroots' own handlers of
 * the protocols wlroots implements. It posts a protocol error (the client is disconnected
 * once this request is dispatched) and makes the object inert for the handler that follows,
 * which wlroots' handlers check for.
 *
 * Guarded:
 * - xdg_popup.reposition before the popup's initial commit: wlroots schedules a configure
 *   for a surface that was never initialized and aborts (assert in
 *   wlr_xdg_surface_schedule_configure). Found by the Wayland fuzzer (docs/fuzzing.md).
 * - xdg_popup.grab on a popup that holds a grab already: wlroots puts it on the seat's grab
 *   list a second time, the list then still points at the popup once it is freed, and the
 *   next button press on the desktop ends the grab through that memory. Found by the
 *   Wayland fuzzer.
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
 * Posts the protocol error on error_object (the client is disconnected once this request is
 * dispatched) and makes the request's object inert: wlroots' handler runs next, and without
 * its object it does nothing.
 */
static void refuse(struct wl_resource *resource, struct wl_resource *error_object, uint32_t code,
	const char *why) {
	pid_t pid = 0;
	wl_client_get_credentials(wl_resource_get_client(resource), &pid, NULL, NULL);
	wlr_log(WLR_INFO, "Refused %s (pid %d)", why, (int)pid);
	wl_resource_post_error(error_object, code, "%s", why);
	wl_resource_set_user_data(resource, NULL);
}

static void guard_popup_reposition(struct wl_resource *resource) {
	struct wlr_xdg_popup *popup = wlr_xdg_popup_from_resource(resource);
	if (popup && !popup->base->initialized) {
		refuse(resource, popup->base->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			"xdg_popup.reposition before the popup's initial commit");
	}
}

static void guard_popup_grab(struct wl_resource *resource) {
	struct wlr_xdg_popup *popup = wlr_xdg_popup_from_resource(resource);
	if (popup && popup->seat) {
		refuse(resource, resource, XDG_POPUP_ERROR_INVALID_GRAB,
			"xdg_popup.grab on a popup that has its grab");
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
	}
}

struct wl_protocol_logger *cordon_request_guard_create(struct wl_display *display) {
	return wl_display_add_protocol_logger(display, handle_message, NULL);
}
