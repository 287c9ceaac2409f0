/*
 * Occlusion culling. wlroots 0.15's scene renders every enabled node that meets the
 * damage, even one that opaque windows above hide completely: fifty windows stacked
 * on one spot cost fifty composites per frame. Before each render we walk the scene
 * from the top down, gathering the area that opaque content covers, and disable the
 * scene node of every view inside it; uncovering a view enables it again (and, being
 * an enable, damages it, so it is redrawn in that same frame).
 *
 * Only surface areas that are both opaque (the client's opaque region, or the whole
 * surface for a buffer format without alpha, which wlr_surface folds into its
 * opaque_region) and accepting input count as covering, plus solid rectangles (the
 * server's borders). So wherever an occluded view would have been hit by the pointer,
 * something above it is hit first: hiding it changes no input routing. As in weston,
 * an occluded view gets no frame callbacks (wlr_scene sends them to enabled surfaces
 * only) until it is uncovered.
 */
#include "compositor/occlusion.h"

#include <pixman.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>

#include "compositor/server.h"
#include "compositor/view.h"

static void node_size(struct wlr_scene_node *node, int *width, int *height) {
	*width = 0;
	*height = 0;
	switch (node->type) {
	case WLR_SCENE_NODE_SURFACE:;
		struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
		*width = surface->current.width;
		*height = surface->current.height;
		break;
	case WLR_SCENE_NODE_RECT:;
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)node;
		*width = rect->width;
		*height = rect->height;
		break;
	case WLR_SCENE_NODE_BUFFER:;
		/* Only for the extent; a buffer node never counts as covering. */
		struct wlr_scene_buffer *buffer = (struct wlr_scene_buffer *)node;
		if (buffer->dst_width > 0 && buffer->dst_height > 0) {
			*width = buffer->dst_width;
			*height = buffer->dst_height;
		} else if (buffer->buffer) {
			int w = buffer->buffer->width, h = buffer->buffer->height;
			bool rotated = buffer->transform & WL_OUTPUT_TRANSFORM_90;
			*width = rotated ? h : w;
			*height = rotated ? w : h;
		}
		break;
	case WLR_SCENE_NODE_ROOT:
	case WLR_SCENE_NODE_TREE:
		break;
	}
}

/* Adds what node and its enabled descendants draw (at lx, ly) to extent. */
static void add_extent(struct wlr_scene_node *node, int lx, int ly, pixman_region32_t *extent) {
	int width, height;
	node_size(node, &width, &height);
	if (width > 0 && height > 0) {
		pixman_region32_union_rect(
			extent, extent, lx, ly, (unsigned)width, (unsigned)height);
	}
	struct wlr_scene_node *child;
	wl_list_for_each(child, &node->state.children, state.link) {
		if (child->state.enabled) {
			add_extent(child, lx + child->state.x, ly + child->state.y, extent);
		}
	}
}

/* Adds the part of node itself (not its children) that hides what is below. */
static void add_own_cover(struct wlr_scene_node *node, int lx, int ly, pixman_region32_t *covered) {
	if (node->type == WLR_SCENE_NODE_SURFACE) {
		struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
		if (!wlr_surface_get_texture(surface)) {
			return; /* not drawn at all */
		}
		pixman_region32_t cover;
		pixman_region32_init(&cover);
		pixman_region32_intersect(&cover, &surface->opaque_region, &surface->input_region);
		pixman_region32_translate(&cover, lx, ly);
		pixman_region32_union(covered, covered, &cover);
		pixman_region32_fini(&cover);
	} else if (node->type == WLR_SCENE_NODE_RECT) {
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)node;
		if (rect->color[3] >= 1.0f && rect->width > 0 && rect->height > 0) {
			pixman_region32_union_rect(covered, covered, lx, ly, (unsigned)rect->width,
				(unsigned)rect->height);
		}
	}
}

static void add_cover(struct wlr_scene_node *node, int lx, int ly, pixman_region32_t *covered) {
	add_own_cover(node, lx, ly, covered);
	struct wlr_scene_node *child;
	wl_list_for_each(child, &node->state.children, state.link) {
		if (child->state.enabled) {
			add_cover(child, lx + child->state.x, ly + child->state.y, covered);
		}
	}
}

/*
 * A view's tree node is enabled or not by cordon_view_update_enabled, so the view's
 * own reasons (cordon_view_is_visible) decide whether it takes part, not the node.
 */
static void visit_view(struct cordon_view *view, int lx, int ly, pixman_region32_t *covered) {
	bool occluded = false;
	if (cordon_view_is_visible(view)) {
		pixman_region32_t extent;
		pixman_region32_init(&extent);
		add_extent(&view->tree->node, lx, ly, &extent);
		if (pixman_region32_not_empty(&extent)) {
			pixman_region32_subtract(&extent, &extent, covered);
			occluded = !pixman_region32_not_empty(&extent);
		}
		pixman_region32_fini(&extent);
		if (!occluded) {
			add_cover(&view->tree->node, lx, ly, covered);
		}
	}
	if (view->occluded != occluded) {
		view->occluded = occluded;
		cordon_view_update_enabled(view);
	}
}

/* Top to bottom: a node's children are drawn after (above) it, the last child on top. */
static void walk(struct wlr_scene_node *node, int lx, int ly, pixman_region32_t *covered) {
	/* Views tag their tree's node with themselves (as cordon_view_at relies on). */
	if (node->type == WLR_SCENE_NODE_TREE && node->data) {
		visit_view(node->data, lx, ly, covered);
		return;
	}
	if (!node->state.enabled) {
		return;
	}
	struct wlr_scene_node *child;
	wl_list_for_each_reverse(child, &node->state.children, state.link) {
		walk(child, lx + child->state.x, ly + child->state.y, covered);
	}
	add_own_cover(node, lx, ly, covered);
}

void cordon_occlusion_update(struct cordon_server *server) {
	pixman_region32_t covered;
	pixman_region32_init(&covered);
	struct wlr_scene_node *root = &server->scene->node;
	walk(root, root->state.x, root->state.y, &covered);
	pixman_region32_fini(&covered);
}
