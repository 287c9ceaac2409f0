/* The D-Bus door to the portals: cordon as the xdg-desktop-portal backend (docs/portals.md). */
#ifndef CORDON_PORTALS_DBUS_H
#define CORDON_PORTALS_DBUS_H

#include <stdbool.h>
#include <systemd/sd-bus.h>
#include <wayland-server-core.h>

#include "portals/request.h"

struct cordon_portals;

#define CORDON_DBUS_PORTAL_NAME "org.freedesktop.impl.portal.desktop.cordon"
#define CORDON_DBUS_PORTAL_PATH "/org/freedesktop/portal/desktop"
/* The frontend: only its calls are served, and only it says which app asks. */
#define CORDON_DBUS_FRONTEND_NAME "org.freedesktop.portal.Desktop"

struct cordon_dbus_portal {
	struct cordon_portals *portals;
	sd_bus *bus;
	sd_bus_slot *name_request;
	sd_bus_slot *owner_match; /* NameOwnerChanged of the frontend */
	sd_bus_slot *owner_query;
	sd_bus_slot *file_chooser, *access, *print;
	struct wl_list print_tokens; /* the frontend's uint32 tokens (portals/dbus/print.c) */
	char *frontend; /* the frontend's unique name, NULL while it has none */
	struct wl_list requests; /* cordon_dbus_request.link */
	/* Answered calls' state, freed from an idle callback (never inside the answer). */
	struct wl_list reaped; /* struct reap.link (service.c) */
	struct wl_event_source *reap_idle;
};

/* Exports the interfaces and asks for the name; NULL without a bus (nothing to serve). */
struct cordon_dbus_portal *cordon_dbus_portal_create(struct cordon_portals *portals, sd_bus *bus);
/* Before the portals' requests go: pending D-Bus requests are answered as ended. */
void cordon_dbus_portal_destroy(struct cordon_dbus_portal *service);

/* After queueing messages outside a bus callback (an answer from a dialog). */
void cordon_dbus_portal_flush(struct cordon_dbus_portal *service);

/* Frees DATA with FREE_FN soon, from the event loop, or when the service goes. */
bool cordon_dbus_portal_defer_free(
	struct cordon_dbus_portal *service, void (*free_fn)(void *), void *data);

/* False with a D-Bus error unless M comes from the frontend that owns the portal name. */
bool cordon_dbus_portal_check_sender(
	struct cordon_dbus_portal *service, sd_bus_message *m, sd_bus_error *error);

/*
 * Who asks: the parent window's client when PARENT_WINDOW is a "wayland:" handle that
 * cordon exported (its tag must carry APP_ID, or the call is refused with *mismatch),
 * else the frontend's APP_ID ("" for a host app). *parent is that window's toplevel.
 */
bool cordon_dbus_portal_caller(struct cordon_dbus_portal *service, const char *app_id,
	const char *parent_window, struct cordon_portal_caller *caller, struct wl_resource **parent,
	bool *mismatch);

/* The D-Bus interfaces, one file each. */
int cordon_dbus_file_chooser_add(struct cordon_dbus_portal *service);
int cordon_dbus_access_add(struct cordon_dbus_portal *service);
int cordon_dbus_print_add(struct cordon_dbus_portal *service);
/* Frees the print tokens. */
void cordon_dbus_print_finish(struct cordon_dbus_portal *service);

#endif
