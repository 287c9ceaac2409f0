/*
 * A sandbox's X window takes the keyboard no more than its Wayland window could. A
 * headless cordon runs in-process with the host's X server and one for a sandbox instance;
 * real X clients (xcb) map windows on each. The sandbox's window maps without the focus
 * while a host window has it, and its _NET_ACTIVE_WINDOW request (what xdotool
 * windowactivate sends) is refused. Controls: once the user gave the sandbox's app the
 * keyboard, its second window's request is granted; a host window's request always is.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/xwayland/xwayland.h>
#include <xcb/xcb.h>

#include "../unit/check.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xwayland.h"
#include "compositor/xwayland_view.h"

static void dispatch(struct cordon_server *server) {
	wl_event_loop_dispatch(server->event_loop, 10);
	wl_display_flush_clients(server->display);
}

/* The X server starts at the first connection and answers once its window manager runs. */
static xcb_connection_t *connect_x(struct cordon_server *server, struct cordon_xwayland *xwayland) {
	/* A first connection only starts it: xcb_connect would wait for an answer. */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	snprintf(address.sun_path, sizeof(address.sun_path), "%s",
		cordon_xwayland_socket_path(xwayland));
	CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof(address)) == 0);
	struct wlr_xwayland *wlr = cordon_xwayland_get_wlr(xwayland);
	for (int i = 0; i < 1000 && !wlr->xwm; i++) {
		dispatch(server);
	}
	CHECK(wlr->xwm != NULL);
	close(fd);
	xcb_connection_t *connection = xcb_connect(cordon_xwayland_display_name(xwayland), NULL);
	CHECK(connection && !xcb_connection_has_error(connection));
	return connection;
}

static xcb_atom_t atom(xcb_connection_t *x, const char *name) {
	xcb_intern_atom_reply_t *reply =
		xcb_intern_atom_reply(x, xcb_intern_atom(x, 0, strlen(name), name), NULL);
	xcb_atom_t result = reply ? reply->atom : XCB_ATOM_NONE;
	free(reply);
	return result;
}

static xcb_window_t map_window(xcb_connection_t *x, const char *title) {
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(x)).data;
	xcb_window_t window = xcb_generate_id(x);
	uint32_t values[] = {screen->white_pixel};
	xcb_create_window(x, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 200, 120, 0,
		XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL, values);
	xcb_change_property(x, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
		strlen(title), title);
	xcb_map_window(x, window);
	xcb_flush(x);
	return window;
}

static struct cordon_view *view_titled(struct cordon_server *server, const char *title) {
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && strcmp(cordon_view_get_title(view), title) == 0) {
			return view;
		}
	}
	return NULL;
}

static struct cordon_view *wait_for_view(struct cordon_server *server, const char *title) {
	struct cordon_view *view = NULL;
	for (int i = 0; i < 1000 && !(view = view_titled(server, title)); i++) {
		dispatch(server);
	}
	if (!view) {
		fprintf(stderr, "no view titled %s\n", title);
		failures++;
	}
	return view;
}

/* What `xdotool windowactivate` sends: _NET_ACTIVE_WINDOW to the root, from an app. */
static void request_activation(xcb_connection_t *x, xcb_window_t window) {
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(x)).data;
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = window,
		.type = atom(x, "_NET_ACTIVE_WINDOW"),
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
		dispatch(server);
	}
}

static void check_activation(struct cordon_server *server, struct cordon_xwayland *sandbox) {
	xcb_connection_t *host_x = connect_x(server, server->host_xwayland);
	xcb_connection_t *sandbox_x = connect_x(server, sandbox);
	if (xcb_connection_has_error(host_x) || xcb_connection_has_error(sandbox_x)) {
		return;
	}
	xcb_window_t host_window = map_window(host_x, "host-window");
	struct cordon_view *host_view = wait_for_view(server, "host-window");
	CHECK(host_view && server->seat->focused_view == host_view);
	CHECK(host_view && cordon_view_is_x11(host_view));

	/* A sandbox's window maps without the keyboard. */
	xcb_window_t first = map_window(sandbox_x, "sandbox-first");
	struct cordon_view *first_view = wait_for_view(server, "sandbox-first");
	CHECK(first_view && cordon_view_get_xwayland(first_view) == sandbox);
	CHECK(server->seat->focused_view == host_view);

	/* The attack: it asks for the keyboard while the user uses the host window. */
	request_activation(sandbox_x, first);
	settle(server);
	CHECK(server->seat->focused_view == host_view);
	CHECK(server->seat->wlr_seat->keyboard_state.focused_surface == host_view->surface);

	/* Control: the user gives the app the keyboard; its second window may take it. */
	if (!first_view) {
		return;
	}
	cordon_view_focus(first_view);
	CHECK(server->seat->focused_view == first_view);
	xcb_window_t second = map_window(sandbox_x, "sandbox-second");
	struct cordon_view *second_view = wait_for_view(server, "sandbox-second");
	cordon_view_focus(first_view); /* whatever the map did, the first one has it */
	request_activation(sandbox_x, second);
	for (int i = 0; i < 500 && server->seat->focused_view != second_view; i++) {
		dispatch(server);
	}
	CHECK(second_view && server->seat->focused_view == second_view);

	/* Control: the host's window asks, and gets it back. */
	request_activation(host_x, host_window);
	for (int i = 0; i < 500 && server->seat->focused_view != host_view; i++) {
		dispatch(server);
	}
	CHECK(server->seat->focused_view == host_view);
	xcb_disconnect(sandbox_x);
	xcb_disconnect(host_x);
	settle(server);
}

int main(void) {
	signal(SIGPIPE, SIG_IGN);
	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{1024, 768}},
	};
	struct cordon_server *server = cordon_server_create(&options);
	CHECK(server != NULL);
	if (!server) {
		return check_result();
	}
	CHECK(cordon_server_start(server));
	CHECK(server->host_xwayland != NULL);
	/* The sandbox's seat and instance before any X server runs (no seat seen, then hidden). */
	struct wlr_seat *seat = wlr_seat_create(server->display, "test-x11-selections");
	const struct cordon_tag tag = {
		.engine = CORDON_SANDBOX_CORDON,
		.app_id = "org.example.X11App",
		.instance = "1",
		.sandboxed = true,
	};
	struct cordon_xwayland *sandbox = seat ? cordon_xwayland_create(server, &tag, seat) : NULL;
	CHECK(sandbox != NULL);
	if (sandbox && server->host_xwayland) {
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
