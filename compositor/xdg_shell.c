/*
 * xdg-shell surfaces: a toplevel becomes a view; a popup gets a scene node
 * below its parent (a toplevel, another popup or a layer surface) and is
 * unconstrained so that it stays on the output its root is on.
 */
#include "compositor/xdg_shell.h"

#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/view.h"

/*
 * The scene node of a surface that can parent popups: xdg surfaces keep it in
 * their data (set by the view or by the parent popup), layer surfaces too.
 */
static struct wlr_scene_node *popup_parent_node(struct wlr_surface *parent) {
	if (wlr_surface_is_xdg_surface(parent)) {
		return wlr_xdg_surface_from_wlr_surface(parent)->data;
	}
	if (wlr_surface_is_layer_surface(parent)) {
		return wlr_layer_surface_v1_from_wlr_surface(parent)->data;
	}
	return NULL;
}

/* The toplevel or layer surface at the root of a popup chain. */
static struct wlr_surface *popup_root(struct wlr_xdg_popup *popup) {
	struct wlr_surface *surface = popup->parent;
	while (surface && wlr_surface_is_xdg_surface(surface)) {
		struct wlr_xdg_surface *xdg = wlr_xdg_surface_from_wlr_surface(surface);
		if (xdg->role != WLR_XDG_SURFACE_ROLE_POPUP) {
			break;
		}
		surface = xdg->popup->parent;
	}
	return surface;
}

static void unconstrain_popup(struct cordon_server *server, struct wlr_xdg_popup *popup) {
	struct wlr_surface *root = popup_root(popup);
	struct wlr_scene_node *root_node = root ? popup_parent_node(root) : NULL;
	int root_lx, root_ly;
	if (!root_node || !wlr_scene_node_coords(root_node, &root_lx, &root_ly)) {
		return;
	}
	/* The output where the popup would appear, else the root's. */
	int popup_lx, popup_ly;
	wlr_xdg_popup_get_toplevel_coords(
		popup, popup->geometry.x, popup->geometry.y, &popup_lx, &popup_ly);
	struct cordon_output *output =
		cordon_output_at(server, root_lx + popup_lx, root_ly + popup_ly);
	if (!output) {
		return;
	}
	struct wlr_box box;
	cordon_output_get_box(output, &box);
	/* In the root surface's coordinates, as wlroots wants. */
	box.x -= root_lx;
	box.y -= root_ly;
	wlr_xdg_popup_unconstrain_from_box(popup, &box);
}

void cordon_xdg_shell_attach_popup(struct cordon_server *server, struct wlr_xdg_popup *popup) {
	struct wlr_xdg_surface *xdg_surface = popup->base;
	struct wlr_scene_node *parent = popup->parent ? popup_parent_node(popup->parent) : NULL;
	if (!parent || xdg_surface->data) {
		/*
		 * Layer-shell popups are created without a parent and attached by
		 * get_popup; any other popup without a known parent stays unshown.
		 */
		return;
	}
	struct wlr_scene_node *node = wlr_scene_xdg_surface_create(parent, xdg_surface);
	if (!node) {
		wl_resource_post_no_memory(xdg_surface->resource);
		return;
	}
	/* Nested popups find their parent here; the node goes with the surface. */
	xdg_surface->data = node;
	unconstrain_popup(server, popup);
}

void cordon_xdg_shell_handle_new_surface(
	struct cordon_server *server, struct wlr_xdg_surface *xdg_surface) {
	switch (xdg_surface->role) {
	case WLR_XDG_SURFACE_ROLE_TOPLEVEL:
		if (!cordon_view_create(server, xdg_surface)) {
			wl_resource_post_no_memory(xdg_surface->resource);
		}
		break;
	case WLR_XDG_SURFACE_ROLE_POPUP:
		cordon_xdg_shell_attach_popup(server, xdg_surface->popup);
		break;
	case WLR_XDG_SURFACE_ROLE_NONE:
		break;
	}
}
