/*
 * A sandbox's X window takes the keyboard no more than its Wayland window could. A
 * headless cordon runs in-process with the host's X server and one for a sandbox instance;
 * real X clients (xcb) map windows on each. The sandbox's window maps without the focus
 * while a host window has it, and its _NET_ACTIVE_WINDOW request (what xdotool
 * windowactivate sends) is refused. Controls: once the user gave the sandbox's app the
 * keyboard, its second window's request is granted; a host window's request always is.
 * The sandbox's windows carry its label, the host's none.
 */
#include <signal.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>

#include "../unit/check.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xwayland.h"
#include "compositor/xwayland_view.h"
#include "x11_fixture.h"

/* What `xdotool windowactivate` sends: _NET_ACTIVE_WINDOW to the root, from an app. */
static void request_activation(xcb_connection_t *x, xcb_window_t window) {
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(x)).data;
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = window,
		.type = x11_fixture_atom(x, "_NET_ACTIVE_WINDOW"),
		.data.data32 = {1, XCB_CURRENT_TIME, 0},
	};
	xcb_send_event(x, 0, screen->root,
		XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT,
		(const char *)&event);
	xcb_flush(x);
}

/* Runs cordon a while: long enough for a request to be handled, whatever it decides. */
static void settle(struct cordon_server *server) {
	for (int i = 0; i < 50; i++) {
		x11_fixture_dispatch(server);
	}
}

static void wait_for_focus(struct cordon_server *server, struct cordon_view *view) {
	for (int i = 0; i < 500 && server->seat->focused_view != view; i++) {
		x11_fixture_dispatch(server);
	}
}

static void check_activation(struct cordon_server *server, struct cordon_xwayland *sandbox) {
	xcb_connection_t *host_x = x11_fixture_connect(server, server->host_xwayland);
	xcb_connection_t *sandbox_x = x11_fixture_connect(server, sandbox);
	CHECK(host_x && sandbox_x);
	if (!host_x || !sandbox_x) {
		return;
	}
	xcb_window_t host_window =
		x11_fixture_map_window(host_x, "host-window", false, 0, 0, 200, 120);
	struct cordon_view *host_view = x11_fixture_wait_for_view(server, "host-window");
	CHECK(host_view && server->seat->focused_view == host_view);
	CHECK(host_view && cordon_view_is_x11(host_view) && !host_view->label);

	/* A sandbox's window maps without the keyboard, in its label. */
	xcb_window_t first =
		x11_fixture_map_window(sandbox_x, "sandbox-first", false, 0, 0, 200, 120);
	struct cordon_view *first_view = x11_fixture_wait_for_view(server, "sandbox-first");
	CHECK(first_view && cordon_view_get_xwayland(first_view) == sandbox);
	CHECK(first_view && first_view->label);
	CHECK(host_view && server->seat->focused_view == host_view);
	if (!host_view || !first_view) {
		return;
	}

	/* The attack: it asks for the keyboard while the user uses the host window. */
	request_activation(sandbox_x, first);
	settle(server);
	CHECK(server->seat->focused_view == host_view);
	CHECK(server->seat->wlr_seat->keyboard_state.focused_surface == host_view->surface);

	/* Control: the user gives the app the keyboard; its second window may take it. */
	cordon_view_focus(first_view);
	CHECK(server->seat->focused_view == first_view);
	xcb_window_t second =
		x11_fixture_map_window(sandbox_x, "sandbox-second", false, 0, 0, 200, 120);
	struct cordon_view *second_view = x11_fixture_wait_for_view(server, "sandbox-second");
	cordon_view_focus(first_view); /* whatever the map did, the first one has it */
	request_activation(sandbox_x, second);
	wait_for_focus(server, second_view);
	CHECK(second_view && server->seat->focused_view == second_view);

	/* Control: the host's window asks, and gets it back. */
	request_activation(host_x, host_window);
	wait_for_focus(server, host_view);
	CHECK(server->seat->focused_view == host_view);
	xcb_disconnect(sandbox_x);
	xcb_disconnect(host_x);
	settle(server);
}

int main(void) {
	signal(SIGPIPE, SIG_IGN);
	struct cordon_server *server = x11_fixture_server(1024, 768);
	CHECK(server && server->host_xwayland);
	if (!server || !server->host_xwayland) {
		cordon_server_destroy(server);
		return check_result();
	}
	/* The sandbox's seat and instance before any X server runs (no seat seen, then hidden). */
	struct wlr_seat *seat = wlr_seat_create(server->display, "test-x11-selections");
	struct cordon_tag tag = x11_fixture_sandbox_tag("org.example.X11App", "1");
	struct cordon_xwayland *sandbox = seat ? cordon_xwayland_create(server, &tag, seat) : NULL;
	CHECK(sandbox != NULL);
	if (sandbox) {
		cordon_xwayland_keep_selections(sandbox);
		check_activation(server, sandbox);
		cordon_xwayland_destroy(sandbox);
	}
	if (seat) {
		wlr_seat_destroy(seat);
	}
	cordon_server_destroy(server);
	return check_result();
}
