/*
 * org.freedesktop.impl.portal.Access: the grant/deny question xdg-desktop-portal asks
 * before it opens the camera for an app (its camera portal). cordon asks it with its
 * camera consent dialog and answers from the same permission store entry as its own
 * camera portal ("camera"): deny answers at once without a dialog, allow without one.
 * The frontend's title, subtitle and body are shown as the app's words.
 *
 * The frontend asks AccessDialog for other devices too (the microphone, the speakers,
 * location), and only its icon option says which. A camera "allow" must never answer
 * those, and cordon has no consent dialog of its own for them yet, so any AccessDialog
 * without the camera's icon is refused without a dialog.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "cordon/portal-ui.h"
#include "portals/dbus.h"
#include "portals/dbus_options.h"
#include "portals/dbus_request.h"
#include "portals/portals.h"
#include "portals/request.h"

struct access {
	struct cordon_dbus_portal *service;
	struct cordon_dbus_request *dbus; /* NULL once answered */
	struct cordon_portal_request *request;
	char *text;
};

static void free_access(void *data) {
	struct access *access = data;
	cordon_portal_request_destroy(access->request);
	free(access->text);
	free(access);
}

static void access_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct access *access = request->data;
	uint32_t code = response->result == CORDON_PORTAL_CHOSEN ? CORDON_DBUS_RESPONSE_SUCCESS
		: response->result == CORDON_PORTAL_CANCELLED    ? CORDON_DBUS_RESPONSE_CANCELLED
								 : CORDON_DBUS_RESPONSE_OTHER;
	struct cordon_dbus_request *dbus = access->dbus;
	access->dbus = NULL;
	cordon_dbus_request_finish(dbus, code, NULL, NULL);
	if (!cordon_dbus_portal_defer_free(access->service, free_access, access)) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot free request %s", request->token);
	}
}

/* The user granted it in the dialog. */
static void access_confirm(struct cordon_portal_request *request) {
	struct cordon_portal_response response = {.result = CORDON_PORTAL_CHOSEN};
	cordon_portal_request_respond(request, &response);
}

/* The store says allow: nothing to ask. */
static bool access_allowed_without_dialog(struct cordon_portal_request *request) {
	access_confirm(request);
	return true;
}

static const struct cordon_portal_request_impl request_impl = {
	.portal = "camera",
	.send_response = access_send_response,
	.confirm = access_confirm,
	.allowed_without_dialog = access_allowed_without_dialog,
};

/* The icon xdg-desktop-portal's camera (and device) portal asks with. */
#define CAMERA_ICON "camera-web-symbolic"

static int read_icon(sd_bus_message *m, void *target, sd_bus_error *error) {
	return cordon_dbus_read_string(m, target, error);
}

static const struct cordon_dbus_option access_options[] = {
	{"modal", "b", NULL},
	{"deny_label", "s", NULL},
	{"grant_label", "s", NULL},
	{"icon", "s", read_icon},
	{"choices", "a(ssa(ss)s)", NULL},
};

static int handle_access_dialog(sd_bus_message *m, void *data, sd_bus_error *error) {
	struct cordon_dbus_portal *service = data;
	if (!cordon_dbus_portal_check_sender(service, m, error)) {
		return -EACCES;
	}
	const char *handle, *app_id, *parent_window, *title, *subtitle, *body;
	int r = sd_bus_message_read(
		m, "osssss", &handle, &app_id, &parent_window, &title, &subtitle, &body);
	if (r < 0) {
		return r;
	}
	char *icon = NULL;
	if (!cordon_dbus_read_options(m, access_options,
		    sizeof(access_options) / sizeof(access_options[0]), &icon, error)) {
		free(icon);
		return -EINVAL;
	}
	bool camera = icon && strcmp(icon, CAMERA_ICON) == 0;
	if (!camera) {
		wlr_log(WLR_INFO,
			"D-Bus portal: AccessDialog for '%s' with icon '%s' refused: "
			"cordon answers only the camera's",
			cordon_log_text(app_id), cordon_log_text(icon ? icon : ""));
		free(icon);
		return sd_bus_reply_method_return(m, "ua{sv}", CORDON_DBUS_RESPONSE_OTHER, 0);
	}
	free(icon);
	struct access *access = calloc(1, sizeof(*access));
	if (!access) {
		return -ENOMEM;
	}
	access->service = service;
	if (asprintf(&access->text, "%s%s%s%s%s", title, subtitle[0] ? " — " : "", subtitle,
		    body[0] ? " — " : "", body) < 0) {
		access->text = NULL;
		free_access(access);
		return -ENOMEM;
	}
	if (strlen(access->text) >= CORDON_DBUS_MAX_STRING) {
		free_access(access);
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "the texts are too long");
	}
	struct cordon_portal_caller caller;
	struct wl_resource *parent;
	bool mismatch;
	if (!cordon_dbus_portal_caller(
		    service, app_id, parent_window, &caller, &parent, &mismatch)) {
		free_access(access);
		if (mismatch) {
			return sd_bus_reply_method_return(
				m, "ua{sv}", CORDON_DBUS_RESPONSE_OTHER, 0);
		}
		return sd_bus_error_set(
			error, SD_BUS_ERROR_INVALID_ARGS, "the app id is not valid");
	}
	bool over_cap;
	access->request = cordon_portal_request_create_for(
		service->portals, &caller, &request_impl, access, &over_cap);
	if (!access->request) {
		free_access(access);
		return over_cap ? sd_bus_error_set(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					  "too many unanswered portal requests of this app")
				: -ENOMEM;
	}
	if (parent) {
		cordon_portal_request_set_parent(access->request, parent);
	}
	access->dbus = cordon_dbus_request_create(service, m, handle, error);
	if (!access->dbus) {
		free_access(access);
		return -EINVAL;
	}
	access->dbus->dismiss = free_access;
	access->dbus->data = access;
	struct cordon_portal_ui_request options = {
		.portal = CORDON_PORTAL_UI_CAMERA_STREAM,
		.title = access->text,
	};
	cordon_portal_request_submit(access->request, &options);
	return 1;
}

static const sd_bus_vtable access_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("AccessDialog", "osssssa{sv}", "ua{sv}", handle_access_dialog,
		SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

int cordon_dbus_access_add(struct cordon_dbus_portal *service) {
	return sd_bus_add_object_vtable(service->bus, &service->access, CORDON_DBUS_PORTAL_PATH,
		"org.freedesktop.impl.portal.Access", access_vtable, service);
}
