/* X11 windows as cordon views: managed windows, and override-redirect menus and tooltips. */
#ifndef CORDON_COMPOSITOR_XWAYLAND_VIEW_H
#define CORDON_COMPOSITOR_XWAYLAND_VIEW_H

#include <stdbool.h>

struct cordon_server;
struct cordon_view;
struct cordon_xwayland;
struct wlr_xwayland_surface;

/* A new X window of XWAYLAND's server: a view if managed, an unmanaged surface if not. */
void cordon_xwayland_view_handle_new_surface(struct cordon_server *server,
	struct cordon_xwayland *xwayland, struct wlr_xwayland_surface *xsurface);

/* Whether the view is an X11 window, and of which X server (NULL for an xdg toplevel). */
bool cordon_view_is_x11(const struct cordon_view *view);
struct cordon_xwayland *cordon_view_get_xwayland(struct cordon_view *view);

#endif
