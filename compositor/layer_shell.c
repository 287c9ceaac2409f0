/*
 * wlr-layer-shell: each layer surface is placed on its output by its anchors,
 * margins and desired size; exclusive zones shrink the area that maximized
 * and new views use.
 */
#include "compositor/layer_shell.h"

#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/edges.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xdg_shell.h"

/* Version 5: the client may pick the edge of its exclusive zone (set_exclusive_edge). */
#define LAYER_SHELL_VERSION 5

#define ANCHOR_TOP ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP
#define ANCHOR_BOTTOM ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM
#define ANCHOR_LEFT ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT
#define ANCHOR_RIGHT ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT

static const enum cordon_scene_layer scene_layers[] = {
	[ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND] = CORDON_LAYER_BACKGROUND,
	[ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM] = CORDON_LAYER_BOTTOM,
	[ZWLR_LAYER_SHELL_V1_LAYER_TOP] = CORDON_LAYER_TOP,
	[ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY] = CORDON_LAYER_OVERLAY,
};

static struct wlr_scene_tree *scene_layer_for(
	struct cordon_server *server, enum zwlr_layer_shell_v1_layer layer) {
	return server->layers[scene_layers[layer]];
}

/* One axis of placement: start, size and margins within [bounds_start, +bounds_size). */
static bool place_axis(bool anchor_start, bool anchor_end, uint32_t desired, int margin_start,
	int margin_end, int bounds_start, int bounds_size, int *pos, int *size) {
	*size = (int)desired;
	if (desired == 0) {
		if (!anchor_start || !anchor_end) {
			return false; /* the protocol requires both anchors for size 0 */
		}
		*size = bounds_size - margin_start - margin_end;
	}
	if (anchor_start && !anchor_end) {
		*pos = bounds_start + margin_start;
	} else if (anchor_end && !anchor_start) {
		*pos = bounds_start + bounds_size - *size - margin_end;
	} else if (anchor_start && anchor_end) {
		*pos = bounds_start + margin_start +
			(bounds_size - margin_start - margin_end - *size) / 2;
	} else {
		/* Margins of edges the surface is not anchored to have no effect. */
		*pos = bounds_start + (bounds_size - *size) / 2;
	}
	return *size > 0;
}

static void apply_exclusive_zone(struct wlr_layer_surface_v1 *layer, struct wlr_box *usable) {
	const struct wlr_layer_surface_v1_state *state = &layer->current;
	int zone = state->exclusive_zone;
	/*
	 * A zone belongs to one edge: anchored to it alone, spanning along it, or (layer-shell
	 * v5) the edge the client chose among its anchors. wlroots says which, or none.
	 */
	switch (wlr_layer_surface_v1_get_exclusive_edge(layer)) {
	case WLR_EDGE_TOP:
		zone += (int)state->margin.top;
		usable->y += zone;
		usable->height -= zone;
		break;
	case WLR_EDGE_BOTTOM:
		usable->height -= zone + (int)state->margin.bottom;
		break;
	case WLR_EDGE_LEFT:
		zone += (int)state->margin.left;
		usable->x += zone;
		usable->width -= zone;
		break;
	case WLR_EDGE_RIGHT:
		usable->width -= zone + (int)state->margin.right;
		break;
	default:
		break;
	}
}

static void arrange_surface(
	struct cordon_layer_surface *surface, const struct wlr_box *full, struct wlr_box *usable) {
	struct wlr_layer_surface_v1 *layer = surface->wlr_layer_surface;
	const struct wlr_layer_surface_v1_state *state = &layer->current;
	/* Surfaces that take space are placed against the full output. */
	const struct wlr_box *bounds = state->exclusive_zone == -1 ? full : usable;
	struct wlr_box box;
	if (!place_axis(state->anchor & ANCHOR_LEFT, state->anchor & ANCHOR_RIGHT,
		    state->desired_width, (int)state->margin.left, (int)state->margin.right,
		    bounds->x, bounds->width, &box.x, &box.width) ||
		!place_axis(state->anchor & ANCHOR_TOP, state->anchor & ANCHOR_BOTTOM,
			state->desired_height, (int)state->margin.top, (int)state->margin.bottom,
			bounds->y, bounds->height, &box.y, &box.height)) {
		wlr_log(WLR_DEBUG, "Closing layer surface '%s': it does not fit",
			cordon_log_text(layer->namespace));
		wlr_layer_surface_v1_destroy(layer);
		return;
	}
	wlr_scene_node_set_position(&surface->tree->node, box.x, box.y);
	wlr_layer_surface_v1_configure(layer, (uint32_t)box.width, (uint32_t)box.height);
	apply_exclusive_zone(layer, usable);
}

void cordon_layer_shell_arrange(struct cordon_server *server, struct cordon_output *output) {
	struct wlr_box full;
	cordon_output_get_box(output, &full);
	struct wlr_box usable = full;
	struct cordon_layer_surface *surface, *tmp;
	/* Exclusive surfaces first, so the others are placed in what is left. */
	for (int pass = 0; pass < 2; pass++) {
		wl_list_for_each_safe(surface, tmp, &output->layer_surfaces, link) {
			bool exclusive = surface->wlr_layer_surface->current.exclusive_zone > 0;
			if (exclusive == (pass == 0) && surface->wlr_layer_surface->initialized) {
				arrange_surface(surface, &full, &usable);
			}
		}
	}
	bool changed = memcmp(&output->usable_area, &usable, sizeof(usable)) != 0;
	output->usable_area = usable;
	if (changed) {
		cordon_view_output_area_changed(server, output);
	}
}

/*
 * A surface above the windows that wants the keyboard gets it when it appears or
 * starts to want it: an exclusive one (a lock screen, a launcher) keeps it, an
 * on-demand one (a panel's search field) has it until the user clicks elsewhere.
 */
static bool wants_keyboard(struct wlr_layer_surface_v1 *layer) {
	return layer->current.keyboard_interactive !=
		ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE &&
		layer->current.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP;
}

static void focus_on_map(struct cordon_layer_surface *surface) {
	struct wlr_layer_surface_v1 *layer = surface->wlr_layer_surface;
	if (wants_keyboard(layer)) {
		cordon_seat_focus_surface(surface->server->seat, layer->surface);
	}
}

bool cordon_layer_shell_holds_keyboard(struct cordon_server *server) {
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct cordon_layer_surface *surface;
		wl_list_for_each(surface, &output->layer_surfaces, link) {
			struct wlr_layer_surface_v1 *layer = surface->wlr_layer_surface;
			if (layer->surface->mapped &&
				layer->current.keyboard_interactive ==
					ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE &&
				layer->current.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP) {
				return true;
			}
		}
	}
	return false;
}

/* Gives the keyboard back to the windows if this surface has it. */
static void release_keyboard(struct cordon_layer_surface *surface) {
	struct cordon_seat *seat = surface->server->seat;
	if (seat->wlr_seat->keyboard_state.focused_surface != surface->wlr_layer_surface->surface) {
		return;
	}
	cordon_view_focus_top(surface->server);
	struct cordon_view *focused = seat->focused_view;
	if (focused) {
		cordon_seat_focus_surface(seat, focused->surface);
	}
}

/* The client changed its keyboard interactivity or layer while shown. */
static void update_keyboard(struct cordon_layer_surface *surface) {
	if (wants_keyboard(surface->wlr_layer_surface)) {
		focus_on_map(surface);
	} else {
		release_keyboard(surface);
	}
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct cordon_layer_surface *surface = wl_container_of(listener, surface, map);
	wlr_scene_node_set_enabled(&surface->tree->node, true);
	focus_on_map(surface);
	cordon_seat_update_pointer_focus(surface->server->seat, 0);
	/* An app drawing to an output is not hidden (docs/freeze.md). */
	wl_signal_emit_mutable(&surface->server->events.visibility_changed, NULL);
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct cordon_layer_surface *surface = wl_container_of(listener, surface, unmap);
	struct cordon_seat *seat = surface->server->seat;
	wlr_scene_node_set_enabled(&surface->tree->node, false);
	release_keyboard(surface);
	cordon_seat_update_pointer_focus(seat, 0);
	wl_signal_emit_mutable(&surface->server->events.visibility_changed, NULL);
}

/*
 * A size of 0 asks cordon to choose it, which the protocol allows only between two
 * opposite anchors; anything else is the client's error. wlroots 0.20.2 lets such a
 * commit through (tests/wlcs: LayerSurfaceErrorsTest), so cordon says so before
 * arranging, which would close the surface without telling the client why.
 */
static bool size_is_valid(struct wlr_layer_surface_v1 *layer) {
	const struct wlr_layer_surface_v1_state *state = &layer->current;
	const uint32_t horizontal = ANCHOR_LEFT | ANCHOR_RIGHT;
	const uint32_t vertical = ANCHOR_TOP | ANCHOR_BOTTOM;
	if (state->desired_width == 0 && (state->anchor & horizontal) != horizontal) {
		wl_resource_post_error(layer->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
			"width 0 requested without setting left and right anchors");
		return false;
	}
	if (state->desired_height == 0 && (state->anchor & vertical) != vertical) {
		wl_resource_post_error(layer->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
			"height 0 requested without setting top and bottom anchors");
		return false;
	}
	return true;
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct cordon_layer_surface *surface = wl_container_of(listener, surface, commit);
	struct wlr_layer_surface_v1 *layer = surface->wlr_layer_surface;
	if (!surface->output || !layer->initialized || !size_is_valid(layer)) {
		return;
	}
	uint32_t committed = layer->current.committed;
	if (committed & WLR_LAYER_SURFACE_V1_STATE_LAYER) {
		wlr_scene_node_reparent(&surface->tree->node,
			scene_layer_for(surface->server, layer->current.layer));
	}
	/* The initial commit waits for a configure with the size arranged. */
	if (committed || layer->initial_commit) {
		cordon_layer_shell_arrange(surface->server, surface->output);
	}
	if (layer->surface->mapped &&
		(committed &
			(WLR_LAYER_SURFACE_V1_STATE_KEYBOARD_INTERACTIVITY |
				WLR_LAYER_SURFACE_V1_STATE_LAYER))) {
		update_keyboard(surface);
	}
}

static void handle_new_popup(struct wl_listener *listener, void *data) {
	struct cordon_layer_surface *surface = wl_container_of(listener, surface, new_popup);
	cordon_xdg_shell_attach_popup(surface->server, data);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_layer_surface *surface = wl_container_of(listener, surface, destroy);
	wl_list_remove(&surface->map.link);
	wl_list_remove(&surface->unmap.link);
	wl_list_remove(&surface->commit.link);
	wl_list_remove(&surface->destroy.link);
	wl_list_remove(&surface->new_popup.link);
	wl_list_remove(&surface->link);
	wlr_scene_node_destroy(&surface->tree->node);
	struct cordon_output *output = surface->output;
	struct cordon_server *server = surface->server;
	free(surface);
	if (output) {
		cordon_layer_shell_arrange(server, output);
	}
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct cordon_layer_shell *shell = wl_container_of(listener, shell, new_surface);
	struct cordon_server *server = shell->server;
	struct wlr_layer_surface_v1 *layer = data;

	struct cordon_output *output = NULL;
	if (layer->output) {
		output = layer->output->data;
	} else {
		struct cordon_seat *seat = server->seat;
		output = cordon_output_at(server, seat->cursor->x, seat->cursor->y);
	}
	if (!output) {
		wlr_log(WLR_DEBUG, "Closing layer surface '%s': no output",
			cordon_log_text(layer->namespace));
		wlr_layer_surface_v1_destroy(layer);
		return;
	}
	layer->output = output->wlr_output;

	struct cordon_layer_surface *surface = calloc(1, sizeof(*surface));
	if (!surface) {
		wl_resource_post_no_memory(layer->resource);
		return;
	}
	surface->server = server;
	surface->wlr_layer_surface = layer;
	surface->output = output;
	surface->tree = wlr_scene_tree_create(scene_layer_for(server, layer->pending.layer));
	struct wlr_scene_tree *surface_tree = surface->tree
		? wlr_scene_subsurface_tree_create(surface->tree, layer->surface)
		: NULL;
	if (!surface_tree) {
		if (surface->tree) {
			wlr_scene_node_destroy(&surface->tree->node);
		}
		free(surface);
		wl_resource_post_no_memory(layer->resource);
		return;
	}
	wlr_scene_node_set_enabled(&surface->tree->node, false);
	/* Popups hang below the tree (see xdg_shell.c). */
	layer->data = surface->tree;

	surface->map.notify = handle_map;
	wl_signal_add(&layer->surface->events.map, &surface->map);
	surface->unmap.notify = handle_unmap;
	wl_signal_add(&layer->surface->events.unmap, &surface->unmap);
	surface->destroy.notify = handle_destroy;
	wl_signal_add(&layer->events.destroy, &surface->destroy);
	surface->commit.notify = handle_commit;
	wl_signal_add(&layer->surface->events.commit, &surface->commit);
	surface->new_popup.notify = handle_new_popup;
	wl_signal_add(&layer->events.new_popup, &surface->new_popup);
	wl_list_insert(output->layer_surfaces.prev, &surface->link);
}

void cordon_layer_shell_output_destroyed(
	struct cordon_server *server, struct cordon_output *output) {
	struct cordon_layer_surface *surface, *tmp;
	wl_list_for_each_safe(surface, tmp, &output->layer_surfaces, link) {
		/* Its output is gone: the client is told with closed. */
		surface->output = NULL;
		wl_list_remove(&surface->link);
		wl_list_init(&surface->link);
		surface->wlr_layer_surface->output = NULL;
		wlr_layer_surface_v1_destroy(surface->wlr_layer_surface);
	}
}

struct cordon_layer_shell *cordon_layer_shell_create(struct cordon_server *server) {
	struct cordon_layer_shell *shell = calloc(1, sizeof(*shell));
	if (!shell) {
		return NULL;
	}
	shell->server = server;
	shell->wlr_layer_shell = wlr_layer_shell_v1_create(server->display, LAYER_SHELL_VERSION);
	if (!shell->wlr_layer_shell) {
		free(shell);
		return NULL;
	}
	shell->new_surface.notify = handle_new_surface;
	wl_signal_add(&shell->wlr_layer_shell->events.new_surface, &shell->new_surface);
	return shell;
}

void cordon_layer_shell_destroy(struct cordon_layer_shell *shell) {
	if (!shell) {
		return;
	}
	wl_list_remove(&shell->new_surface.link);
	free(shell);
}
