/*
 * Decoration negotiation (xdg-decoration and KDE's server-decoration): cordon
 * prefers drawing borders itself but honours a client that insists on its own.
 */
#ifndef CORDON_COMPOSITOR_DECORATION_H
#define CORDON_COMPOSITOR_DECORATION_H

#include <wayland-server-core.h>

struct cordon_server;
struct cordon_view;

struct cordon_decorations {
	struct cordon_server *server;
	struct wlr_xdg_decoration_manager_v1 *xdg_manager;
	struct wlr_server_decoration_manager *kde_manager;
	struct wl_list decorations; /* cordon_decoration.link */
	struct wl_listener new_toplevel_decoration;
};

struct cordon_decoration {
	struct cordon_view *view; /* NULL once the view is gone */
	struct wlr_xdg_toplevel_decoration_v1 *wlr_decoration;
	struct wl_list link; /* cordon_decorations.decorations */
	struct wl_listener request_mode;
	struct wl_listener destroy;
};

struct cordon_decorations *cordon_decorations_create(struct cordon_server *server);
void cordon_decorations_destroy(struct cordon_decorations *decorations);
/*
 * Sends the decoration mode with the view's initial configure: before the toplevel's
 * initial commit, wlroots may not configure it.
 */
void cordon_decoration_view_initial_commit(struct cordon_view *view);
/* Detaches a view that is being destroyed from its decoration. */
void cordon_decoration_view_destroyed(struct cordon_view *view);

#endif
