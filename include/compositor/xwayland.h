/*
 * Rootless X servers (Xwayland). One for the host's X11 apps, started at the first X
 * connection, and one for each sandbox instance that asks for X11 (x11_display.c), so no
 * X client ever shares an X server with another sandbox or the host. Each server's Wayland
 * connection is tagged before it can send a request: the host instance as the host, a
 * sandbox's with that sandbox's tag, so the global filter and the mediation treat it as
 * the app. Their windows become views (xwayland_view.c).
 */
#ifndef CORDON_COMPOSITOR_XWAYLAND_H
#define CORDON_COMPOSITOR_XWAYLAND_H

#include <stdbool.h>
#include <wayland-server-core.h>

#include "sandbox/cgroup_tag.h"

struct cordon_server;
struct wl_client;
struct wl_global;
struct wlr_seat;
struct wlr_xwayland;

struct cordon_xwayland;

/*
 * Creates an X server whose Wayland client will be tagged with `tag`. Its listening sockets
 * exist on return (cordon_xwayland_socket_path); the server process starts at the first
 * connection. `selection_seat` is the seat its window manager mirrors selections and drags
 * with: a private one (its global is shown to no client), which the mediation bridges with
 * the real seat (xwayland_selection.c). Not the real seat: there the window manager takes
 * the X selection over whenever the seat shows one of the mediation's views, which every
 * source there is, and X apps lose their copies (compositor/xwayland.c,
 * cordon_xwayland_host_start; tests/x11/host-clipboard.sh). Returns NULL after logging why.
 */
struct cordon_xwayland *cordon_xwayland_create(struct cordon_server *server,
	const struct cordon_tag *tag, struct wlr_seat *selection_seat);
/*
 * Ends the X server (its X clients lose their connection, its windows go) and removes its
 * sockets. A sandbox instance belongs to whoever created it, which destroys it before the
 * server is torn down; the host instance is the server's (cordon_xwayland_host_finish).
 */
void cordon_xwayland_destroy(struct cordon_xwayland *xwayland);

/* ":N" and the host path of its unix socket (/tmp/.X11-unix/XN). */
const char *cordon_xwayland_display_name(const struct cordon_xwayland *xwayland);
const char *cordon_xwayland_socket_path(const struct cordon_xwayland *xwayland);
int cordon_xwayland_display_number(const struct cordon_xwayland *xwayland);
const struct cordon_tag *cordon_xwayland_tag(const struct cordon_xwayland *xwayland);
/* The wlroots window manager, for the selection bridge (xwayland_selection.c). */
struct wlr_xwayland *cordon_xwayland_get_wlr(const struct cordon_xwayland *xwayland);
/* The X server's Wayland connection while it runs, else NULL. */
struct wl_client *cordon_xwayland_wl_client(const struct cordon_xwayland *xwayland);
/* Whether its Xwayland process runs (it starts at the first X connection). */
bool cordon_xwayland_is_running(const struct cordon_xwayland *xwayland);

/*
 * Has the window manager take the X events that wait in its connection's queue: call after
 * wlroots waited for an X reply outside its X event handler (a window's properties, read
 * when the window is tied to its surface during a Wayland request of the X server).
 */
void cordon_xwayland_take_queued_events(struct cordon_xwayland *xwayland);

/* The X server this Wayland client is, or NULL when it is none of cordon's. */
struct cordon_xwayland *cordon_xwayland_from_client(
	struct cordon_server *server, const struct wl_client *client);
/*
 * For an instance whose selection seat no bridge serves: the seat takes what the window
 * manager sets for its X clients, who then share their selections among themselves only.
 */
void cordon_xwayland_keep_selections(struct cordon_xwayland *xwayland);
/* Calls FN for every X server, newest first (cordonctl x11-servers). */
void cordon_xwayland_for_each(struct cordon_server *server,
	void (*fn)(struct cordon_xwayland *xwayland, void *data), void *data);
/*
 * For client.c, while a client is being created: the tag of the X server this new
 * connection is (wlroots makes it in wl_client_create, before the process runs), else NULL.
 */
const struct cordon_tag *cordon_xwayland_connecting_tag(
	struct cordon_server *server, struct wl_client *client);
/*
 * For the global filter: whether `global` is one only an X server may bind (an instance's
 * xwayland_shell_v1 or private seat), and if so whether `client` may see it.
 */
bool cordon_xwayland_global_is_private(struct cordon_server *server, const struct wl_global *global,
	const struct wl_client *client, bool *visible);

/*
 * The host's X server, from [general] xwayland (server->host_xwayland, NULL when off or
 * when Xwayland cannot run). DISPLAY is set for what cordon starts while it exists.
 */
void cordon_xwayland_host_start(struct cordon_server *server);
void cordon_xwayland_host_finish(struct cordon_server *server);

#endif
