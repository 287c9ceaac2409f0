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
struct wlr_surface;
struct wlr_xdg_surface;
struct wlr_xdg_toplevel;

struct cordon_view {
	struct cordon_server *server;
	struct wl_list link; /* cordon_server.views */
	uint32_t id; /* stable number shown by cordonctl */
	struct wlr_xdg_toplevel *xdg_toplevel;
	struct wlr_xdg_surface *xdg_surface; /* xdg_toplevel->base */
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

/* Window geometry in layout coordinates. */
void cordon_view_get_box(struct cordon_view *view, struct wlr_box *box);
const char *cordon_view_get_app_id(struct cordon_view *view);
const char *cordon_view_get_title(struct cordon_view *view);
pid_t cordon_view_get_pid(struct cordon_view *view);

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
