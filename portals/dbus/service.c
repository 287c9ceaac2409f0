/*
 * The D-Bus door's service object: the name org.freedesktop.impl.portal.desktop.cordon,
 * owned from start-up when there is a session bus (cordon is the compositor: the bus does
 * not start it), and who may call. Only the frontend, xdg-desktop-portal, is served: it
 * found out which app asks (from /proc/PID/root/.flatpak-info), an app on the bus cannot
 * claim an app id by calling the backend itself. When the frontend's name changes owner
 * (it died), its pending requests are dismissed and their dialogs close.
 */
#include "portals/dbus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "portals/dbus_request.h"
#include "portals/portals.h"

struct reap {
	struct wl_list link;
	void (*free_fn)(void *data);
	void *data;
};

static void reap_all(struct cordon_dbus_portal *service) {
	struct reap *reap, *tmp;
	wl_list_for_each_safe(reap, tmp, &service->reaped, link) {
		wl_list_remove(&reap->link);
		reap->free_fn(reap->data);
		free(reap);
	}
}

static void handle_reap_idle(void *data) {
	struct cordon_dbus_portal *service = data;
	service->reap_idle = NULL;
	reap_all(service);
}

bool cordon_dbus_portal_defer_free(
	struct cordon_dbus_portal *service, void (*free_fn)(void *), void *data) {
	struct reap *reap = calloc(1, sizeof(*reap));
	if (!reap) {
		return false;
	}
	reap->free_fn = free_fn;
	reap->data = data;
	wl_list_insert(service->reaped.prev, &reap->link);
	if (!service->reap_idle) {
		service->reap_idle = wl_event_loop_add_idle(
			service->portals->host.event_loop, handle_reap_idle, service);
	}
	return true;
}

void cordon_dbus_portal_flush(struct cordon_dbus_portal *service) {
	const struct cordon_portal_host *host = &service->portals->host;
	host->session_bus_changed(host->data);
}

static void drop_requests(struct cordon_dbus_portal *service) {
	struct cordon_dbus_request *request, *tmp;
	wl_list_for_each_safe(request, tmp, &service->requests, link) {
		cordon_dbus_request_drop(request);
	}
}

static void set_frontend(struct cordon_dbus_portal *service, const char *owner) {
	if (service->frontend && (!owner || strcmp(owner, service->frontend) != 0)) {
		if (!wl_list_empty(&service->requests)) {
			wlr_log(WLR_INFO,
				"D-Bus portal: the frontend %s left: dismissing its %d "
				"requests",
				service->frontend, wl_list_length(&service->requests));
		}
		drop_requests(service);
	}
	free(service->frontend);
	service->frontend = owner && owner[0] ? strdup(owner) : NULL;
	if (service->frontend) {
		wlr_log(WLR_INFO, "D-Bus portal: the frontend is %s", service->frontend);
	}
}

static int handle_owner_changed(sd_bus_message *m, void *data, sd_bus_error *error) {
	const char *name, *old_owner, *new_owner;
	if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 ||
		strcmp(name, CORDON_DBUS_FRONTEND_NAME) != 0) {
		return 0;
	}
	set_frontend(data, new_owner);
	return 0;
}

static int handle_owner_reply(sd_bus_message *m, void *data, sd_bus_error *error) {
	struct cordon_dbus_portal *service = data;
	service->owner_query = sd_bus_slot_unref(service->owner_query);
	const char *owner;
	/* An error is "no owner yet": the bus activates the frontend on its first call. */
	if (!sd_bus_message_is_method_error(m, NULL) && sd_bus_message_read(m, "s", &owner) >= 0 &&
		!service->frontend) {
		set_frontend(service, owner);
	}
	return 0;
}

static int handle_name_reply(sd_bus_message *m, void *data, sd_bus_error *error) {
	struct cordon_dbus_portal *service = data;
	service->name_request = sd_bus_slot_unref(service->name_request);
	const sd_bus_error *e = sd_bus_message_get_error(m);
	if (e) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot own %s: %s", CORDON_DBUS_PORTAL_NAME,
			e->message ? e->message : e->name);
		return 0;
	}
	uint32_t reply = 0;
	sd_bus_message_read(m, "u", &reply);
	/* 1: primary owner; anything else means another backend has it. */
	if (reply == 1) {
		wlr_log(WLR_INFO, "D-Bus portal: serving as %s", CORDON_DBUS_PORTAL_NAME);
	} else {
		wlr_log(WLR_ERROR, "D-Bus portal: %s is owned by another process (reply %u)",
			CORDON_DBUS_PORTAL_NAME, reply);
	}
	return 0;
}

bool cordon_dbus_portal_check_sender(
	struct cordon_dbus_portal *service, sd_bus_message *m, sd_bus_error *error) {
	const char *sender = sd_bus_message_get_sender(m);
	if (service->frontend && sender && strcmp(sender, service->frontend) == 0) {
		return true;
	}
	wlr_log(WLR_INFO, "D-Bus portal: refused %s from %s: not the frontend (%s)",
		sd_bus_message_get_member(m), sender ? sender : "?",
		service->frontend ? service->frontend : "none");
	sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED,
		"only the xdg-desktop-portal frontend may call this backend");
	return false;
}

struct cordon_dbus_portal *cordon_dbus_portal_create(struct cordon_portals *portals, sd_bus *bus) {
	if (!bus) {
		return NULL;
	}
	struct cordon_dbus_portal *service = calloc(1, sizeof(*service));
	if (!service) {
		return NULL;
	}
	service->portals = portals;
	service->bus = sd_bus_ref(bus);
	wl_list_init(&service->requests);
	wl_list_init(&service->reaped);
	wl_list_init(&service->print_tokens);
	/* Only the frontend's name: not a wake-up for every client of the bus. */
	int r = sd_bus_add_match_async(bus, &service->owner_match,
		"type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
		"interface='org.freedesktop.DBus',member='NameOwnerChanged',"
		"arg0='" CORDON_DBUS_FRONTEND_NAME "'",
		handle_owner_changed, NULL, service);
	if (r >= 0) {
		r = sd_bus_call_method_async(bus, &service->owner_query, "org.freedesktop.DBus",
			"/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
			handle_owner_reply, service, "s", CORDON_DBUS_FRONTEND_NAME);
	}
	if (r >= 0) {
		r = cordon_dbus_file_chooser_add(service);
	}
	if (r >= 0) {
		r = cordon_dbus_access_add(service);
	}
	if (r >= 0) {
		r = cordon_dbus_print_add(service);
	}
	if (r >= 0) {
		r = sd_bus_request_name_async(bus, &service->name_request, CORDON_DBUS_PORTAL_NAME,
			0, handle_name_reply, service);
	}
	if (r < 0) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot set up the backend: %s", strerror(-r));
		cordon_dbus_portal_destroy(service);
		return NULL;
	}
	cordon_dbus_portal_flush(service);
	return service;
}

void cordon_dbus_portal_destroy(struct cordon_dbus_portal *service) {
	if (!service) {
		return;
	}
	/* The frontend gets a last answer for each: the backend is going away. */
	struct cordon_dbus_request *request, *tmp;
	wl_list_for_each_safe(request, tmp, &service->requests, link) {
		request->dismiss(request->data);
		cordon_dbus_request_finish(request, CORDON_DBUS_RESPONSE_OTHER, NULL, NULL);
	}
	if (service->reap_idle) {
		wl_event_source_remove(service->reap_idle);
	}
	reap_all(service);
	sd_bus_slot_unref(service->file_chooser);
	sd_bus_slot_unref(service->access);
	sd_bus_slot_unref(service->print);
	cordon_dbus_print_finish(service);
	sd_bus_slot_unref(service->name_request);
	sd_bus_slot_unref(service->owner_match);
	sd_bus_slot_unref(service->owner_query);
	sd_bus_release_name_async(service->bus, NULL, CORDON_DBUS_PORTAL_NAME, NULL, NULL);
	sd_bus_unref(service->bus);
	free(service->frontend);
	free(service);
}
