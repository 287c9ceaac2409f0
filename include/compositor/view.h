/* Views: the toplevel windows the user manages (focus, stacking, move, resize, states). */
#ifndef CORDON_COMPOSITOR_VIEW_H
#define CORDON_COMPOSITOR_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct cordon_output;
struct cordon_server;
struct cordon_view;
struct cordon_xwayland_view;
struct wl_client;
struct wlr_surface;
struct wlr_xdg_surface;
struct wlr_xdg_toplevel;

/* Where a view comes from. */
enum cordon_view_shell {
	CORDON_VIEW_XDG, /* an xdg_toplevel (view.c) */
	CORDON_VIEW_X11, /* a managed X11 window of one of cordon's X servers (xwayland_view.c) */
};

/* What differs between the shells: everything else about a view is shared (view.c). */
struct cordon_view_impl {
	enum cordon_view_shell shell;
	/* The window geometry in its main surface's coordinates. */
	void (*get_geometry)(struct cordon_view *view, struct wlr_box *box);
	const char *(*get_app_id)(struct cordon_view *view);
	const char *(*get_title)(struct cordon_view *view);
	/* A dialog's parent window, or NULL. */
	struct cordon_view *(*get_parent)(struct cordon_view *view);
	void (*set_activated)(struct cordon_view *view, bool activated);
	/* Asks the client for this size, 0 for its own choice; layout position in view->x, y. */
	void (*configure)(struct cordon_view *view, int width, int height);
	void (*set_maximized)(struct cordon_view *view, bool maximized);
	void (*set_fullscreen)(struct cordon_view *view, bool fullscreen);
	void (*set_resizing)(struct cordon_view *view, bool resizing);
	/* The client's size limits, 0 for none. */
	void (*get_size_limits)(struct cordon_view *view, int *min_width, int *min_height,
		int *max_width, int *max_height);
	/* A state request that changes nothing still wants a reply (xdg-shell); may be NULL. */
	void (*answer_request)(struct cordon_view *view);
	/* The view was moved: an X11 window is told where it now is; may be NULL. */
	void (*moved)(struct cordon_view *view);
	void (*close)(struct cordon_view *view);
};

struct cordon_view {
	struct cordon_server *server;
	const struct cordon_view_impl *impl;
	struct wl_list link; /* cordon_server.views */
	uint32_t id; /* stable number shown by cordonctl */
	/* The client that draws it: an app, or for an X11 window the X server (tagged as the
	 * app it serves). */
	struct wl_client *client;
	/* Its main surface; NULL while an X11 window has none (between dissociate and
	 * associate), never NULL while mapped. */
	struct wlr_surface *surface;
	/* With CORDON_VIEW_XDG; NULL otherwise. */
	struct wlr_xdg_toplevel *xdg_toplevel;
	struct wlr_xdg_surface *xdg_surface; /* xdg_toplevel->base */
	/* With CORDON_VIEW_X11; NULL otherwise. */
	struct cordon_xwayland_view *x11;
	struct wlr_scene_tree *tree; /* at the window geometry's origin */
	struct wlr_scene_tree *surface_tree; /* the client's surfaces and popups */
	struct cordon_decoration *decoration; /* NULL until the client asks */
	struct wlr_scene_rect *border[4]; /* server-side borders, hidden unless SSD */
	struct cordon_label *label; /* a sandboxed app's label (label.c); NULL for the host */
	struct wlr_foreign_toplevel_handle_v1 *foreign_toplevel;
	struct wlr_ext_foreign_toplevel_handle_v1 *ext_toplevel; /* while mapped */
	/* What host clients capture of it (image_capture.c): made on first use, gone with it. */
	struct wlr_ext_image_capture_source_v1 *capture_source;

	int x, y; /* layout position of the window geometry's origin */
	bool mapped, minimized, maximized, fullscreen;
	bool ssd; /* server-side decorations drawn */
	bool occluded; /* shown, yet nothing of it is visible on any output (occlusion.c) */
	/* Since when it is shown (mapped, not minimized): presses count only after a while. */
	struct timespec shown_since;
	/* It had the keyboard once: only such a sandboxed view gets it back unasked. */
	bool focus_granted;
	/* A valid activation token named it before it was mapped: focus it at map. */
	bool focus_on_map;
	struct wlr_box saved; /* geometry before maximize or fullscreen */

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener commit;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener request_minimize;
	struct wl_listener set_title;
	struct wl_listener set_app_id;
	struct wl_listener foreign_request_activate;
	struct wl_listener foreign_request_close;
	struct wl_listener foreign_request_minimize;
	struct wl_listener foreign_request_maximize;
	struct wl_listener foreign_request_fullscreen;
	struct wl_listener foreign_destroy;
	struct wl_listener capture_source_destroy;
};

struct cordon_view *cordon_view_create(
	struct cordon_server *server, struct wlr_xdg_toplevel *xdg_toplevel);

/*
 * For the shells: the parts every view has. Init makes the scene tree (at the top of the
 * views, disabled), the borders and the label, with SURFACE_TREE (under view->tree, holding
 * the client's surfaces) made by the shell in between; false when memory ran out (nothing
 * is left). The rest are called on the shell's events.
 */
bool cordon_view_init_tree(struct cordon_view *view, struct cordon_server *server,
	const struct cordon_view_impl *impl, struct wl_client *client);
bool cordon_view_init_finish(struct cordon_view *view);
void cordon_view_mapped(struct cordon_view *view, bool fullscreen, bool maximized, bool minimized);
void cordon_view_unmapped(struct cordon_view *view);
/* The client committed a new size or state. */
void cordon_view_committed(struct cordon_view *view);
/* Frees what cordon_view_init_* made, and the view (already unmapped). */
void cordon_view_finish(struct cordon_view *view);
/* Whether the app's client already has the keyboard in another of its windows. */
bool cordon_view_client_has_focus(struct cordon_view *view);

/* Window geometry in layout coordinates. */
void cordon_view_get_box(struct cordon_view *view, struct wlr_box *box);
const char *cordon_view_get_app_id(struct cordon_view *view);
const char *cordon_view_get_title(struct cordon_view *view);
/* The pid of the client (for an X11 window, its X server's). */
pid_t cordon_view_get_pid(struct cordon_view *view);
struct cordon_view *cordon_view_get_parent(struct cordon_view *view);

/*
 * Whether the view is shown, were nothing covering it: mapped and not minimized.
 * Every reason to hide a view goes here, so that occlusion skips it too.
 */
bool cordon_view_is_visible(struct cordon_view *view);
/* Enables the view's scene node exactly when it is visible. */
void cordon_view_update_enabled(struct cordon_view *view);

/* Raises, restores if minimized, and gives keyboard focus. */
void cordon_view_focus(struct cordon_view *view);
void cordon_view_close(struct cordon_view *view);
void cordon_view_set_minimized(struct cordon_view *view, bool minimized);
void cordon_view_set_maximized(struct cordon_view *view, bool maximized);
void cordon_view_set_fullscreen(struct cordon_view *view, bool fullscreen);
void cordon_view_move_to(struct cordon_view *view, int x, int y);
void cordon_view_set_ssd(struct cordon_view *view, bool ssd);

/* Refits maximized views after the output's usable area changed (panels). */
void cordon_view_output_area_changed(struct cordon_server *server, struct cordon_output *output);

/*
 * The outputs' layout changed (one was plugged in, unplugged, moved or turned off): windows
 * on none of them come onto the pointer's output (else the first), fullscreen and maximized
 * ones filling it, the others centred, so that an unplugged monitor takes no window out of
 * the user's sight and reach. With no output at all they stay until one comes.
 */
void cordon_view_outputs_changed(struct cordon_server *server);

/* The view that has keyboard focus, NULL when none. */
struct cordon_view *cordon_view_focused(struct cordon_server *server);
/* Focuses the next (or previous) mapped view, restoring minimized ones. */
void cordon_view_cycle_focus(struct cordon_server *server, bool forward);
/* Focus the topmost mapped, non-minimized view, or clear focus. */
void cordon_view_focus_top(struct cordon_server *server);

/* The view and surface under a layout point, or NULL. */
struct cordon_view *cordon_view_at(struct cordon_server *server, double lx, double ly,
	struct wlr_surface **surface, double *sx, double *sy);
struct cordon_view *cordon_view_from_surface(
	struct cordon_server *server, struct wlr_surface *surface);
struct cordon_view *cordon_view_by_id(struct cordon_server *server, uint32_t id);

#endif
