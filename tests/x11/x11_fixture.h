/*
 * What the in-process X11 tests share: a headless cordon run from the test's own loop, X
 * servers started by a connection, real X clients (xcb) and their windows. Failures are
 * returned, for the test's own checks.
 */
#ifndef CORDON_TESTS_X11_FIXTURE_H
#define CORDON_TESTS_X11_FIXTURE_H

#include <stdbool.h>
#include <xcb/xcb.h>

#include "sandbox/cgroup_tag.h"

struct cordon_server;
struct cordon_view;
struct cordon_xwayland;

/* A started headless cordon with one output of WIDTH x HEIGHT; NULL on failure. */
struct cordon_server *x11_fixture_server(int width, int height);
/* One turn of cordon's loop, its events sent: Xwayland waits on them. */
void x11_fixture_dispatch(struct cordon_server *server);
/*
 * Starts the X server with a first connection, waits until its window manager runs, then
 * connects an X client that stays; NULL on failure.
 */
xcb_connection_t *x11_fixture_connect(
	struct cordon_server *server, struct cordon_xwayland *xwayland);
/* A tag as cordon-run's sandboxes carry: engine cordon, APP_ID, INSTANCE. */
struct cordon_tag x11_fixture_sandbox_tag(const char *app_id, const char *instance);
xcb_atom_t x11_fixture_atom(xcb_connection_t *x, const char *name);
/* Creates and maps a window of that title and size at X, Y; override-redirect if asked. */
xcb_window_t x11_fixture_map_window(xcb_connection_t *x, const char *title, bool override_redirect,
	int x_pos, int y_pos, int width, int height);
/* The mapped view of that title, waited for; NULL after a few seconds. */
struct cordon_view *x11_fixture_wait_for_view(struct cordon_server *server, const char *title);

#endif
