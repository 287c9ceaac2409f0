/* X11 windows as cordon views: managed windows, and override-redirect menus and tooltips. */
#ifndef CORDON_COMPOSITOR_XWAYLAND_VIEW_H
#define CORDON_COMPOSITOR_XWAYLAND_VIEW_H

struct cordon_server;
struct cordon_xwayland;
struct wlr_xwayland_surface;

/* A new X window of XWAYLAND's server: a view if managed, an unmanaged surface if not. */
void cordon_xwayland_view_handle_new_surface(struct cordon_server *server,
	struct cordon_xwayland *xwayland, struct wlr_xwayland_surface *xsurface);

#endif
