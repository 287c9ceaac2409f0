/*
 * Occlusion: which views are shown yet not visible at all. wlroots' scene works out
 * what each buffer shows (its visible region: the part that no opaque buffer or
 * solid rectangle above covers), draws only that, and sends frame callbacks only
 * to buffers with some of it on an output (a primary output). So a window that an
 * opaque window covers entirely costs nothing to draw and gets no frame callbacks
 * until it is uncovered, as in weston.
 *
 * cordon keeps the verdict per view (view->occluded) for what it decides itself: a
 * press on a view that the user cannot see is no consent (input_router.c). A view
 * counts as occluded while it is shown (mapped, not minimized) and none of the
 * buffers in its tree has a primary output. wlroots gives a buffer one only where more
 * than a tenth of its visible part lies on that output, so a window pushed almost
 * entirely off every output counts as occluded too.
 */
#include "compositor/occlusion.h"

#include <wlr/types/wlr_scene.h>

#include "compositor/server.h"
#include "compositor/view.h"

static void find_visible(struct wlr_scene_buffer *buffer, int sx, int sy, void *data) {
	bool *visible = data;
	if (buffer->primary_output) {
		*visible = true;
	}
}

void cordon_occlusion_update(struct cordon_server *server) {
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		bool visible = false;
		if (cordon_view_is_visible(view)) {
			wlr_scene_node_for_each_buffer(&view->tree->node, find_visible, &visible);
		}
		view->occluded = cordon_view_is_visible(view) && !visible;
	}
}
