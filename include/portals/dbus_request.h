/*
 * One call of the D-Bus door, from the method call to its one reply: the Request object
 * the frontend may Close at the handle path it chose, kept while the dialog is open.
 */
#ifndef CORDON_PORTALS_DBUS_REQUEST_H
#define CORDON_PORTALS_DBUS_REQUEST_H

#include <stdint.h>
#include <systemd/sd-bus.h>
#include <wayland-server-core.h>

struct cordon_dbus_portal;

/* The response codes of org.freedesktop.impl.portal.Request's users. */
enum cordon_dbus_response {
	CORDON_DBUS_RESPONSE_SUCCESS = 0,
	CORDON_DBUS_RESPONSE_CANCELLED = 1,
	CORDON_DBUS_RESPONSE_OTHER = 2, /* ended another way: refused, failed, closed */
};

struct cordon_dbus_request {
	struct cordon_dbus_portal *service;
	struct wl_list link; /* cordon_dbus_portal.requests */
	sd_bus_message *call; /* referenced until the reply */
	char *handle;
	sd_bus_slot *object;
	/* Close, or the frontend gone: the owner ends its request without an answer. */
	void (*dismiss)(void *data);
	void *data;
};

/* Adds the results vardict's entries to REPLY (inside its a{sv}). */
typedef int (*cordon_dbus_results_func)(sd_bus_message *reply, void *data);

/* Exports the Request object at HANDLE for CALL; NULL with ERROR set. */
struct cordon_dbus_request *cordon_dbus_request_create(struct cordon_dbus_portal *service,
	sd_bus_message *call, const char *handle, sd_bus_error *error);
/* Replies (response, results) to the call, unexports and frees the request. */
void cordon_dbus_request_finish(struct cordon_dbus_request *request, uint32_t response,
	cordon_dbus_results_func results, void *data);
/* Dismisses and frees without replying (the caller is gone). */
void cordon_dbus_request_drop(struct cordon_dbus_request *request);

#endif
