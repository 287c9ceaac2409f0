/*
 * Rootless X servers, each a wlroots Xwayland server with its window manager, started at
 * the first X connection. What makes them safe to have several of: the Wayland connection
 * of each carries the tag of whoever the instance is for, decided at the moment wlroots
 * creates it (before it can send a request), so the global filter and the mediation treat
 * an X server exactly as the app it serves; and the globals that only an X server may use
 * (its xwayland_shell_v1, a private selection seat) are shown to that server alone.
 */
#include "compositor/xwayland.h"

#include <stdio.h>
#include <stdlib.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <wlr/xcursor.h>
#include <wlr/xwayland/server.h>
#include <wlr/xwayland/shell.h>
#include <wlr/xwayland/xwayland.h>
#include <xcb/xcb.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/seat.h"
#include "compositor/selection.h"
#include "compositor/server.h"
#include "compositor/xwayland_view.h"

struct cordon_xwayland {
	struct cordon_server *server;
	struct wl_list link; /* cordon_server.xwaylands */
	struct cordon_tag tag;
	struct wlr_seat *selection_seat;
	struct wlr_xwayland_server *xserver;
	struct wlr_xwayland *wlr_xwayland;
	char socket_path[64];
	/*
	 * Its owner let go while the process was starting: wlroots loses the fd of its
	 * readiness pipe when a starting server is destroyed, so it ends once it is ready, or
	 * once its start failed (destroy_idle).
	 */
	bool doomed;
	struct wl_event_source *destroy_idle;

	struct wl_listener start;
	struct wl_listener ready;
	struct wl_listener new_surface;
	struct wl_listener destroy; /* the window manager's, also at the display's end */
	struct wl_listener client_destroy; /* the X server's Wayland connection */
	struct wl_listener seat_destroy;
	/* Without a bridge: the seat takes what the window manager sets (keep_selections). */
	struct wl_listener request_set_selection;
	struct wl_listener request_set_primary_selection;
};

static void handle_destroy_idle(void *data) {
	struct cordon_xwayland *xwayland = data;
	xwayland->destroy_idle = NULL;
	wlr_xwayland_destroy(xwayland->wlr_xwayland); /* handle_destroy frees it */
}

static void end_if_doomed(struct cordon_xwayland *xwayland) {
	if (xwayland->doomed && !xwayland->destroy_idle) {
		/* Not from inside wlroots' own signal. */
		xwayland->destroy_idle = wl_event_loop_add_idle(
			xwayland->server->event_loop, handle_destroy_idle, xwayland);
	}
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, client_destroy);
	wl_list_remove(&xwayland->client_destroy.link);
	wl_list_init(&xwayland->client_destroy.link);
	end_if_doomed(xwayland);
}

static void handle_seat_destroy(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, seat_destroy);
	struct wl_listener *listeners[] = {&xwayland->seat_destroy,
		&xwayland->request_set_selection, &xwayland->request_set_primary_selection};
	for (size_t i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		wl_list_remove(&listeners[i]->link);
		wl_list_init(&listeners[i]->link);
	}
	xwayland->selection_seat = NULL;
}

/* wlroots ends the window manager when asked, and by itself when the display goes. */
static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, destroy);
	struct wl_listener *listeners[] = {&xwayland->start, &xwayland->ready,
		&xwayland->new_surface, &xwayland->destroy, &xwayland->client_destroy,
		&xwayland->seat_destroy, &xwayland->request_set_selection,
		&xwayland->request_set_primary_selection};
	for (size_t i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		wl_list_remove(&listeners[i]->link);
	}
	if (xwayland->destroy_idle) {
		wl_event_source_remove(xwayland->destroy_idle);
	}
	if (xwayland->server->host_xwayland == xwayland) {
		xwayland->server->host_xwayland = NULL;
	}
	wl_list_remove(&xwayland->link);
	free(xwayland);
}

static void handle_start(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, start);
	struct cordon_client *client = cordon_client_from_wl(xwayland->xserver->client);
	/*
	 * client.c tagged the connection while wlroots created it (cordon_xwayland_connecting_tag).
	 * Should it not have, nothing may run under cordon's own credentials: the server ends.
	 */
	if (!client || client->tag_source != CORDON_TAG_SOURCE_XWAYLAND ||
		!cordon_tag_same_sandbox(&client->context_tag, &xwayland->tag)) {
		wlr_log(WLR_ERROR, "X server %s: its Wayland connection was not tagged, ending it",
			xwayland->xserver->display_name);
		wl_client_post_implementation_error(
			xwayland->xserver->client, "connection not identified");
		if (client) {
			cordon_client_disconnect_later(client);
		}
		return;
	}
	wl_list_remove(&xwayland->client_destroy.link);
	wl_client_add_destroy_listener(xwayland->xserver->client, &xwayland->client_destroy);
	wlr_log(WLR_INFO, "Starting X server %s for %s%s%s", xwayland->xserver->display_name,
		cordon_tag_engine_name(&xwayland->tag), xwayland->tag.app_id[0] ? " " : "",
		cordon_log_text(xwayland->tag.app_id));
}

/* X clients draw their own cursors, but the root window shows cordon's until they do. */
static void set_default_cursor(struct cordon_xwayland *xwayland) {
	struct wlr_xcursor_manager *manager = xwayland->server->seat->xcursor_manager;
	if (!manager || !wlr_xcursor_manager_load(manager, 1)) {
		return;
	}
	struct wlr_xcursor *cursor = wlr_xcursor_manager_get_xcursor(manager, "default", 1);
	if (!cursor || cursor->image_count == 0) {
		return;
	}
	struct wlr_xcursor_image *image = cursor->images[0];
	wlr_xwayland_set_cursor(xwayland->wlr_xwayland, wlr_xcursor_image_get_buffer(image),
		(int32_t)image->hotspot_x, (int32_t)image->hotspot_y);
}

static void handle_ready(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, ready);
	wlr_log(WLR_DEBUG, "X server %s is ready", xwayland->xserver->display_name);
	set_default_cursor(xwayland);
	end_if_doomed(xwayland);
}

/*
 * The window manager (and a selection bridge on its seat) set and read selections for
 * the X clients while handling their X events, outside any Wayland request: the
 * selection mediation would otherwise take the client of the last Wayland request for
 * the one asking. The X server is the one asking.
 */
static bool handle_x_event(struct wlr_xwayland *wlr_xwayland, xcb_generic_event_t *event) {
	struct cordon_xwayland *xwayland = wlr_xwayland->data;
	if (xwayland->xserver->client) {
		cordon_selection_set_requester(
			xwayland->server->seat->selection, xwayland->xserver->client);
	}
	return false; /* wlroots handles every event */
}

/*
 * wlroots' window manager reads X events only when its X socket turns readable (since it
 * flushes requests asynchronously, its handler ignores the event loop's check). A reply it
 * waits for elsewhere reads the socket, and X events that came before the reply then wait
 * in xcb's queue for the next X traffic, which may never come: a window whose message
 * naming its surface waited there was never shown. A request with a reply makes the
 * socket readable again, and the handler takes the queued events with the reply.
 */
void cordon_xwayland_take_queued_events(struct cordon_xwayland *xwayland) {
	xcb_connection_t *conn = wlr_xwayland_get_xwm_connection(xwayland->wlr_xwayland);
	if (!conn) {
		return;
	}
	xcb_discard_reply(conn, xcb_get_input_focus(conn).sequence);
	xcb_flush(conn);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland = wl_container_of(listener, xwayland, new_surface);
	if (xwayland->doomed) {
		return; /* its owner let go: nothing of it is shown */
	}
	cordon_xwayland_view_handle_new_surface(xwayland->server, xwayland, data);
}

struct cordon_xwayland *cordon_xwayland_create(struct cordon_server *server,
	const struct cordon_tag *tag, struct wlr_seat *selection_seat) {
	struct cordon_xwayland *xwayland = calloc(1, sizeof(*xwayland));
	if (!xwayland) {
		wlr_log(WLR_ERROR, "Out of memory for an X server");
		return NULL;
	}
	xwayland->server = server;
	xwayland->tag = *tag;
	xwayland->selection_seat = selection_seat;
	/*
	 * Lazy: the process starts at the first X connection, and an idle one (no X client
	 * left for wlroots' delay) exits until the next. wlroots logs why it cannot (no
	 * Xwayland binary, no free display number). No client can bind the shell global it
	 * makes before this returns: the filter sees it listed below from the first request.
	 */
	xwayland->wlr_xwayland = wlr_xwayland_create(server->display, server->compositor, true);
	if (!xwayland->wlr_xwayland) {
		wlr_log(WLR_ERROR, "Cannot create an X server: X11 apps of %s cannot run",
			tag->sandboxed ? cordon_log_text(tag->app_id) : "the host");
		free(xwayland);
		return NULL;
	}
	xwayland->wlr_xwayland->data = xwayland;
	xwayland->wlr_xwayland->user_event_handler = handle_x_event;
	xwayland->xserver = xwayland->wlr_xwayland->server;
	wl_list_insert(&server->xwaylands, &xwayland->link);
	xwayland->start.notify = handle_start;
	wl_signal_add(&xwayland->xserver->events.start, &xwayland->start);
	snprintf(xwayland->socket_path, sizeof(xwayland->socket_path), "/tmp/.X11-unix/X%d",
		xwayland->xserver->display);
	xwayland->ready.notify = handle_ready;
	wl_signal_add(&xwayland->wlr_xwayland->events.ready, &xwayland->ready);
	xwayland->new_surface.notify = handle_new_surface;
	wl_signal_add(&xwayland->wlr_xwayland->events.new_surface, &xwayland->new_surface);
	xwayland->destroy.notify = handle_destroy;
	wl_signal_add(&xwayland->wlr_xwayland->events.destroy, &xwayland->destroy);
	xwayland->client_destroy.notify = handle_client_destroy;
	wl_list_init(&xwayland->client_destroy.link);
	xwayland->seat_destroy.notify = handle_seat_destroy;
	wl_signal_add(&selection_seat->events.destroy, &xwayland->seat_destroy);
	wl_list_init(&xwayland->request_set_selection.link);
	wl_list_init(&xwayland->request_set_primary_selection.link);
	wlr_xwayland_set_seat(xwayland->wlr_xwayland, selection_seat);
	wlr_log(WLR_INFO, "X display %s for %s%s%s (started at its first connection)",
		xwayland->xserver->display_name, cordon_tag_engine_name(tag),
		tag->app_id[0] ? " " : "", cordon_log_text(tag->app_id));
	return xwayland;
}

/*
 * The window manager asks its seat to take an X client's selection (as a Wayland client
 * asks with set_selection); a seat nobody answers leaves the source nobody's, and leaked.
 */
static void handle_request_set_selection(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland =
		wl_container_of(listener, xwayland, request_set_selection);
	struct wlr_seat_request_set_selection_event *event = data;
	wlr_seat_set_selection(xwayland->selection_seat, event->source, event->serial);
}

static void handle_request_set_primary_selection(struct wl_listener *listener, void *data) {
	struct cordon_xwayland *xwayland =
		wl_container_of(listener, xwayland, request_set_primary_selection);
	struct wlr_seat_request_set_primary_selection_event *event = data;
	wlr_seat_set_primary_selection(xwayland->selection_seat, event->source, event->serial);
}

void cordon_xwayland_keep_selections(struct cordon_xwayland *xwayland) {
	struct wlr_seat *seat = xwayland->selection_seat;
	if (!seat || !wl_list_empty(&xwayland->request_set_selection.link)) {
		return;
	}
	xwayland->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&seat->events.request_set_selection, &xwayland->request_set_selection);
	xwayland->request_set_primary_selection.notify = handle_request_set_primary_selection;
	wl_signal_add(&seat->events.request_set_primary_selection,
		&xwayland->request_set_primary_selection);
}

static bool starting(const struct cordon_xwayland *xwayland) {
	return xwayland->xserver->client && !xwayland->xserver->ready;
}

void cordon_xwayland_destroy(struct cordon_xwayland *xwayland) {
	if (!xwayland) {
		return;
	}
	if (starting(xwayland)) {
		/* Nobody's now: it ends once it is ready (end_if_doomed); no window of it maps. */
		xwayland->doomed = true;
		return;
	}
	/* Its windows and views go, then the server and its Wayland client: the process
	 * exits when its sockets close. handle_destroy frees the rest. */
	wlr_xwayland_destroy(xwayland->wlr_xwayland);
}

const char *cordon_xwayland_display_name(const struct cordon_xwayland *xwayland) {
	return xwayland->xserver->display_name;
}

const char *cordon_xwayland_socket_path(const struct cordon_xwayland *xwayland) {
	return xwayland->socket_path;
}

int cordon_xwayland_display_number(const struct cordon_xwayland *xwayland) {
	return xwayland->xserver->display;
}

const struct cordon_tag *cordon_xwayland_tag(const struct cordon_xwayland *xwayland) {
	return &xwayland->tag;
}

struct wlr_xwayland *cordon_xwayland_get_wlr(const struct cordon_xwayland *xwayland) {
	return xwayland->wlr_xwayland;
}

struct wl_client *cordon_xwayland_wl_client(const struct cordon_xwayland *xwayland) {
	return xwayland->xserver->client;
}

bool cordon_xwayland_is_running(const struct cordon_xwayland *xwayland) {
	/* wlroots' pid is of the fork that started Xwayland, not Xwayland's own. */
	return xwayland->xserver->client != NULL;
}

void cordon_xwayland_for_each(struct cordon_server *server,
	void (*fn)(struct cordon_xwayland *xwayland, void *data), void *data) {
	struct cordon_xwayland *xwayland, *next;
	wl_list_for_each_safe(xwayland, next, &server->xwaylands, link) {
		fn(xwayland, data);
	}
}

struct cordon_xwayland *cordon_xwayland_from_client(
	struct cordon_server *server, const struct wl_client *client) {
	struct cordon_xwayland *xwayland;
	wl_list_for_each(xwayland, &server->xwaylands, link) {
		if (client && xwayland->xserver->client == client) {
			return xwayland;
		}
	}
	return NULL;
}

const struct cordon_tag *cordon_xwayland_connecting_tag(
	struct cordon_server *server, struct wl_client *client) {
	/*
	 * wlroots creates the X server's wl_client on its end of a socketpair and forgets the
	 * fd only once wl_client_create returns: while the client-created signal runs, the fd
	 * still names the instance, so nothing the process sends is read before it is tagged.
	 */
	int fd = wl_client_get_fd(client);
	struct cordon_xwayland *xwayland;
	wl_list_for_each(xwayland, &server->xwaylands, link) {
		if (fd >= 0 && xwayland->xserver->wl_fd[0] == fd && !xwayland->xserver->client) {
			return &xwayland->tag;
		}
	}
	return NULL;
}

bool cordon_xwayland_global_is_private(struct cordon_server *server, const struct wl_global *global,
	const struct wl_client *client, bool *visible) {
	struct cordon_xwayland *xwayland;
	wl_list_for_each(xwayland, &server->xwaylands, link) {
		struct wlr_xwayland_shell_v1 *shell =
			xwayland->wlr_xwayland ? xwayland->wlr_xwayland->shell_v1 : NULL;
		/* It turns any surface of its binder into an X window: its own X server only. */
		if (shell && global == shell->global) {
			*visible = client && client == xwayland->xserver->client;
			return true;
		}
		/*
		 * A private selection seat is the window manager's, used in-process: a client that
		 * bound it (even the X server) would have a second seat with no input and its own
		 * clipboard outside the mediation.
		 */
		struct wlr_seat *seat = xwayland->selection_seat;
		if (seat && seat != server->seat->wlr_seat && global == seat->global) {
			*visible = false;
			return true;
		}
	}
	return false;
}

/*
 * The host's X server keeps its selections on a seat of its own, as a sandbox's does:
 * on the real seat, wlroots' window manager takes the X selection over whenever the seat
 * shows a source that is not its own, and every source there is a view of the mediation
 * (selection.c), so an X app's copy would be lost at the first paste. X apps share their
 * selections within the X server; a bridge (xwayland_selection.c) connects the seat with
 * the real one through the mediation.
 */
void cordon_xwayland_host_start(struct cordon_server *server) {
	if (!server->config->xwayland) {
		wlr_log(WLR_INFO, "X11 support is off ([general] xwayland = no)");
		return;
	}
	server->host_xwayland_seat = wlr_seat_create(server->display, "x11-host-selections");
	if (!server->host_xwayland_seat) {
		wlr_log(WLR_ERROR, "Out of memory: no X server for the host's X11 apps");
		return;
	}
	const struct cordon_tag host = {.engine = CORDON_SANDBOX_HOST, .sandboxed = false};
	server->host_xwayland = cordon_xwayland_create(server, &host, server->host_xwayland_seat);
	if (!server->host_xwayland) {
		wlr_seat_destroy(server->host_xwayland_seat);
		server->host_xwayland_seat = NULL;
		return;
	}
	/* server.c connects its seat with the real one (xwayland_selection.c). */
}

void cordon_xwayland_host_finish(struct cordon_server *server) {
	/* At once, even while starting: the event loop runs no more. */
	if (server->host_xwayland) {
		wlr_xwayland_destroy(cordon_xwayland_get_wlr(server->host_xwayland));
	}
	if (server->host_xwayland_seat) {
		wlr_seat_destroy(server->host_xwayland_seat);
		server->host_xwayland_seat = NULL;
	}
}
