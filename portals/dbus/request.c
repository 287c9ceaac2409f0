/*
 * org.freedesktop.impl.portal.Request: each call of the D-Bus door exports one at the
 * handle path the frontend chose, until the one reply. Close ends the call as "other" (2)
 * and dismisses the dialog, as the frontend asks when the app closes its request or
 * leaves the bus. The method call itself stays referenced: the reply is sent when the
 * dialog answers, never by blocking the loop.
 */
#include "portals/dbus_request.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "portals/dbus.h"

static void free_request(struct cordon_dbus_request *request) {
	wl_list_remove(&request->link);
	sd_bus_slot_unref(request->object);
	sd_bus_message_unref(request->call);
	free(request->handle);
	free(request);
}

static int handle_close(sd_bus_message *m, void *data, sd_bus_error *error) {
	struct cordon_dbus_request *request = data;
	if (!cordon_dbus_portal_check_sender(request->service, m, error)) {
		return -EACCES;
	}
	wlr_log(WLR_INFO, "D-Bus portal: request %s closed by the frontend", request->handle);
	int r = sd_bus_reply_method_return(m, "");
	request->dismiss(request->data);
	cordon_dbus_request_finish(request, CORDON_DBUS_RESPONSE_OTHER, NULL, NULL);
	return r < 0 ? r : 1;
}

static const sd_bus_vtable request_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Close", "", "", handle_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

struct cordon_dbus_request *cordon_dbus_request_create(struct cordon_dbus_portal *service,
	sd_bus_message *call, const char *handle, sd_bus_error *error) {
	struct cordon_dbus_request *existing;
	wl_list_for_each(existing, &service->requests, link) {
		if (strcmp(existing->handle, handle) == 0) {
			sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
				"a request with this handle is pending");
			return NULL;
		}
	}
	struct cordon_dbus_request *request = calloc(1, sizeof(*request));
	if (!request || !(request->handle = strdup(handle))) {
		free(request);
		sd_bus_error_set_errno(error, ENOMEM);
		return NULL;
	}
	request->service = service;
	int r = sd_bus_add_object_vtable(service->bus, &request->object, handle,
		"org.freedesktop.impl.portal.Request", request_vtable, request);
	if (r < 0) {
		sd_bus_error_set_errnof(error, -r, "cannot export the request at %s", handle);
		free(request->handle);
		free(request);
		return NULL;
	}
	request->call = sd_bus_message_ref(call);
	wl_list_insert(service->requests.prev, &request->link);
	return request;
}

void cordon_dbus_request_finish(struct cordon_dbus_request *request, uint32_t response,
	cordon_dbus_results_func results, void *data) {
	sd_bus_message *reply = NULL;
	int r = sd_bus_message_new_method_return(request->call, &reply);
	if (r >= 0) {
		r = sd_bus_message_append(reply, "u", response);
	}
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'a', "{sv}");
	}
	if (r >= 0 && results) {
		r = results(reply, data);
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(reply);
	}
	if (r >= 0) {
		r = sd_bus_send(NULL, reply, NULL);
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot reply to request %s: %s", request->handle,
			strerror(-r));
	}
	sd_bus_message_unref(reply);
	struct cordon_dbus_portal *service = request->service;
	free_request(request);
	cordon_dbus_portal_flush(service);
}

void cordon_dbus_request_drop(struct cordon_dbus_request *request) {
	request->dismiss(request->data);
	free_request(request);
}
