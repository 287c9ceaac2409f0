/* The in-process X11 tests' shared fixture (x11_fixture.h). */
#include "x11_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/xwayland/xwayland.h>

#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xwayland.h"

#define WAIT_TURNS 1000 /* of up to 10 ms each */

struct cordon_server *x11_fixture_server(int width, int height) {
	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{width, height}},
	};
	struct cordon_server *server = cordon_server_create(&options);
	if (server && !cordon_server_start(server)) {
		cordon_server_destroy(server);
		return NULL;
	}
	return server;
}

void x11_fixture_dispatch(struct cordon_server *server) {
	wl_event_loop_dispatch(server->event_loop, 10);
	wl_display_flush_clients(server->display);
}

xcb_connection_t *x11_fixture_connect(
	struct cordon_server *server, struct cordon_xwayland *xwayland) {
	/* A first connection only starts it: xcb_connect would wait for an answer cordon's
	 * loop, not running meanwhile, has to make possible. */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	snprintf(address.sun_path, sizeof(address.sun_path), "%s",
		cordon_xwayland_socket_path(xwayland));
	if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	struct wlr_xwayland *wlr = cordon_xwayland_get_wlr(xwayland);
	for (int i = 0; i < WAIT_TURNS && !wlr->xwm; i++) {
		x11_fixture_dispatch(server);
	}
	close(fd);
	if (!wlr->xwm) {
		return NULL;
	}
	xcb_connection_t *connection = xcb_connect(cordon_xwayland_display_name(xwayland), NULL);
	if (xcb_connection_has_error(connection)) {
		xcb_disconnect(connection);
		return NULL;
	}
	return connection;
}

struct cordon_tag x11_fixture_sandbox_tag(const char *app_id, const char *instance) {
	struct cordon_tag tag = {.engine = CORDON_SANDBOX_CORDON, .sandboxed = true};
	snprintf(tag.app_id, sizeof(tag.app_id), "%s", app_id);
	snprintf(tag.instance, sizeof(tag.instance), "%s", instance);
	return tag;
}

xcb_atom_t x11_fixture_atom(xcb_connection_t *x, const char *name) {
	xcb_intern_atom_reply_t *reply =
		xcb_intern_atom_reply(x, xcb_intern_atom(x, 0, strlen(name), name), NULL);
	xcb_atom_t atom = reply ? reply->atom : XCB_ATOM_NONE;
	free(reply);
	return atom;
}

xcb_window_t x11_fixture_map_window(xcb_connection_t *x, const char *title, bool override_redirect,
	int x_pos, int y_pos, int width, int height) {
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(x)).data;
	xcb_window_t window = xcb_generate_id(x);
	uint32_t values[] = {screen->white_pixel, override_redirect};
	xcb_create_window(x, XCB_COPY_FROM_PARENT, window, screen->root, (int16_t)x_pos,
		(int16_t)y_pos, (uint16_t)width, (uint16_t)height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
		screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
	xcb_change_property(x, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
		(uint32_t)strlen(title), title);
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

struct cordon_view *x11_fixture_wait_for_view(struct cordon_server *server, const char *title) {
	struct cordon_view *view = NULL;
	for (int i = 0; i < WAIT_TURNS && !(view = view_titled(server, title)); i++) {
		x11_fixture_dispatch(server);
	}
	return view;
}
