/*
 * xdg-shell surfaces: a toplevel becomes a view; a popup gets a scene tree
 * below its parent (a toplevel, another popup or a layer surface) and is
 * unconstrained so that it stays on the output its root is on. A sandboxed
 * app's popup is framed in its label colour (compositor/label.c), above its
 * own surfaces.
 */
#include "compositor/xdg_shell.h"

#include <stdlib.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/label.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* A popup's scene tree goes with its surface; this only answers its initial commit. */
struct cordon_popup {
	struct cordon_server *server;
	struct wlr_xdg_popup *wlr_popup;
	/* A sandboxed app's: in the popup's scene tree, which destroys them with it. */
	struct wlr_scene_rect *frame[4];
	bool framed;
	struct wl_listener commit;
	struct wl_listener reposition;
	struct wl_listener destroy;
};

/*
 * The scene tree of a surface that can parent popups: xdg surfaces keep it in
 * their data (set by the view or by the parent popup), layer surfaces too.
 */
static struct wlr_scene_tree *popup_parent_tree(struct wlr_surface *parent) {
	struct wlr_xdg_surface *xdg = wlr_xdg_surface_try_from_wlr_surface(parent);
	if (xdg) {
		return xdg->data;
	}
	struct wlr_layer_surface_v1 *layer = wlr_layer_surface_v1_try_from_wlr_surface(parent);
	return layer ? layer->data : NULL;
}

/* The toplevel or layer surface at the root of a popup chain. */
static struct wlr_surface *popup_root(struct wlr_xdg_popup *popup) {
	struct wlr_surface *surface = popup->parent;
	struct wlr_xdg_popup *parent_popup;
	while (surface && (parent_popup = wlr_xdg_popup_try_from_wlr_surface(surface))) {
		surface = parent_popup->parent;
	}
	return surface;
}

static void unconstrain_popup(struct cordon_server *server, struct wlr_xdg_popup *popup) {
	struct wlr_surface *root = popup_root(popup);
	struct wlr_scene_tree *root_tree = root ? popup_parent_tree(root) : NULL;
	int root_lx, root_ly;
	if (!root_tree || !wlr_scene_node_coords(&root_tree->node, &root_lx, &root_ly)) {
		return;
	}
	/* The output where the popup would appear, else the root's. */
	int popup_lx, popup_ly;
	wlr_xdg_popup_get_toplevel_coords(popup, popup->scheduled.geometry.x,
		popup->scheduled.geometry.y, &popup_lx, &popup_ly);
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
	struct wlr_scene_tree *parent = popup->parent ? popup_parent_tree(popup->parent) : NULL;
	if (!parent || xdg_surface->data) {
		/*
		 * Layer-shell popups are created without a parent and attached by
		 * get_popup; any other popup without a known parent stays unshown.
		 */
		return;
	}
	struct wlr_scene_tree *tree = wlr_scene_xdg_surface_create(parent, xdg_surface);
	if (!tree) {
		wl_resource_post_no_memory(xdg_surface->resource);
		return;
	}
	/* Nested popups find their parent here; the tree goes with the surface. */
	xdg_surface->data = tree;
}

/* The frame goes around the popup's geometry, at its tree's origin. */
static void update_popup_frame(struct cordon_popup *popup) {
	struct wlr_xdg_surface *base = popup->wlr_popup->base;
	struct wlr_scene_tree *tree = base->data;
	uint32_t color;
	if (!tree) {
		return;
	}
	if (!popup->framed) {
		popup->framed = true;
		if (!cordon_label_client_color(
			    popup->server, wl_resource_get_client(base->resource), &color)) {
			return;
		}
		float rgba[4] = {(float)(color >> 16 & 0xff) / 255.0f,
			(float)(color >> 8 & 0xff) / 255.0f, (float)(color & 0xff) / 255.0f, 1.0f};
		for (int i = 0; i < 4; i++) {
			popup->frame[i] = wlr_scene_rect_create(tree, 0, 0, rgba);
			if (!popup->frame[i]) {
				/* A sandboxed app's popup is not shown without its colour. */
				wl_resource_post_no_memory(base->resource);
				return;
			}
		}
	}
	cordon_label_place_popup_frame(popup->frame, base->geometry.width, base->geometry.height);
}

static void handle_popup_commit(struct wl_listener *listener, void *data) {
	struct cordon_popup *popup = wl_container_of(listener, popup, commit);
	if (popup->wlr_popup->base->surface->mapped) {
		update_popup_frame(popup);
	}
	if (popup->wlr_popup->base->initial_commit) {
		/* Placed where it fits, which is the configure the initial commit waits for. */
		unconstrain_popup(popup->server, popup->wlr_popup);
		wlr_xdg_surface_schedule_configure(popup->wlr_popup->base);
	}
}

static void handle_popup_reposition(struct wl_listener *listener, void *data) {
	struct cordon_popup *popup = wl_container_of(listener, popup, reposition);
	unconstrain_popup(popup->server, popup->wlr_popup);
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct cordon_popup *popup = wl_container_of(listener, popup, destroy);
	wl_list_remove(&popup->commit.link);
	wl_list_remove(&popup->reposition.link);
	wl_list_remove(&popup->destroy.link);
	free(popup);
}

void cordon_xdg_shell_handle_new_popup(
	struct cordon_server *server, struct wlr_xdg_popup *wlr_popup) {
	struct cordon_popup *popup = calloc(1, sizeof(*popup));
	if (!popup) {
		wl_resource_post_no_memory(wlr_popup->resource);
		return;
	}
	popup->server = server;
	popup->wlr_popup = wlr_popup;
	popup->commit.notify = handle_popup_commit;
	wl_signal_add(&wlr_popup->base->surface->events.commit, &popup->commit);
	popup->reposition.notify = handle_popup_reposition;
	wl_signal_add(&wlr_popup->events.reposition, &popup->reposition);
	popup->destroy.notify = handle_popup_destroy;
	wl_signal_add(&wlr_popup->events.destroy, &popup->destroy);
	cordon_xdg_shell_attach_popup(server, wlr_popup);
}

void cordon_xdg_shell_handle_new_toplevel(
	struct cordon_server *server, struct wlr_xdg_toplevel *toplevel) {
	if (!cordon_view_create(server, toplevel)) {
		wl_resource_post_no_memory(toplevel->resource);
	}
}
