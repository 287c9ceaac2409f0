/*
 * idle-inhibit: a video player or presentation holds an inhibitor on its
 * surface, and idle notifications are switched off for the seat while that
 * surface is shown. The protocol ties an inhibitor to its surface's visibility,
 * and a client may make one on any surface: a surface with no role, never
 * mapped, a minimized window or one that other windows cover entirely. Counting
 * those would let any app (a sandboxed one too) keep screen lockers and blanking
 * from ever firing, and keep itself from being frozen (freeze.c asks here).
 *
 * So an inhibitor counts only while its surface is in the scene with every node
 * up to the root enabled (view.c disables minimized and unmapped views,
 * occlusion.c views that opaque content covers entirely), has a buffer, and
 * meets an enabled output. That is decided again after each output frame (the
 * scene as just drawn, occlusion included), when the output layout changes and
 * when an inhibitor comes or goes.
 */
#include "compositor/idle_inhibit.h"

#include <stdlib.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>

#include "compositor/globals.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"

/* Whether the surface, drawn at lx, ly, meets an enabled output of the layout. */
static bool on_enabled_output(
	struct cordon_server *server, struct wlr_surface *surface, int lx, int ly) {
	struct wlr_box box = {lx, ly, surface->current.width, surface->current.height};
	if (box.width <= 0 || box.height <= 0 || !wlr_surface_has_buffer(surface)) {
		return false;
	}
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		if (!output->wlr_output->enabled) {
			continue;
		}
		struct wlr_box *output_box =
			wlr_output_layout_get_box(server->output_layout, output->wlr_output);
		struct wlr_box meet;
		if (output_box && wlr_box_intersection(&meet, &box, output_box)) {
			return true;
		}
	}
	return false;
}

/* Marks the inhibitors of every shown surface under node (itself enabled, at lx, ly). */
static void mark_shown(
	struct cordon_idle_inhibit *idle_inhibit, struct wlr_scene_node *node, int lx, int ly) {
	if (node->type == WLR_SCENE_NODE_SURFACE) {
		struct wlr_surface *surface = wlr_scene_surface_from_node(node)->surface;
		struct cordon_idle_inhibitor *inhibitor;
		wl_list_for_each(inhibitor, &idle_inhibit->inhibitors, link) {
			if (!inhibitor->visible && inhibitor->wlr_inhibitor->surface == surface &&
				on_enabled_output(idle_inhibit->server, surface, lx, ly)) {
				inhibitor->visible = true;
			}
		}
	}
	struct wlr_scene_node *child;
	wl_list_for_each(child, &node->state.children, state.link) {
		/* A disabled node hides everything below it. */
		if (child->state.enabled) {
			mark_shown(idle_inhibit, child, lx + child->state.x, ly + child->state.y);
		}
	}
}

void cordon_idle_inhibit_update(struct cordon_idle_inhibit *idle_inhibit) {
	if (!idle_inhibit) {
		return;
	}
	struct cordon_server *server = idle_inhibit->server;
	size_t before = 0, after = 0;
	struct cordon_idle_inhibitor *inhibitor;
	wl_list_for_each(inhibitor, &idle_inhibit->inhibitors, link) {
		before += inhibitor->visible;
		inhibitor->was_visible = inhibitor->visible;
		inhibitor->visible = false;
	}
	struct wlr_scene_node *root = &server->scene->node;
	if (!wl_list_empty(&idle_inhibit->inhibitors) && root->state.enabled) {
		mark_shown(idle_inhibit, root, root->state.x, root->state.y);
	}
	bool changed = false;
	wl_list_for_each(inhibitor, &idle_inhibit->inhibitors, link) {
		after += inhibitor->visible;
		changed = changed || inhibitor->visible != inhibitor->was_visible;
	}
	bool inhibited = after > 0;
	if (inhibited != idle_inhibit->inhibited) {
		idle_inhibit->inhibited = inhibited;
		wlr_log(WLR_INFO, "Idle %s: %zu of %d inhibitors on shown surfaces",
			inhibited ? "inhibited" : "allowed", after,
			wl_list_length(&idle_inhibit->inhibitors));
		/*
		 * wlroots 0.15 keeps a timer's idle state while it is disabled and ignores
		 * activity then: a seat already idle when an inhibitor appears would stay idle
		 * (no resumed event) and never be reported idle again once it goes. So a shown
		 * inhibitor counts as activity first, as a video that starts playing would.
		 */
		if (inhibited) {
			wlr_idle_notify_activity(server->globals->idle, server->seat->wlr_seat);
		}
		wlr_idle_set_enabled(server->globals->idle, server->seat->wlr_seat, !inhibited);
	}
	if (changed || before != after) {
		wl_signal_emit(&idle_inhibit->events.change, idle_inhibit);
	}
}

static void handle_inhibitor_destroy(struct wl_listener *listener, void *data) {
	struct cordon_idle_inhibitor *inhibitor = wl_container_of(listener, inhibitor, destroy);
	struct cordon_idle_inhibit *idle_inhibit = inhibitor->idle_inhibit;
	wl_list_remove(&inhibitor->destroy.link);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
	cordon_idle_inhibit_update(idle_inhibit);
}

static void handle_new_inhibitor(struct wl_listener *listener, void *data) {
	struct cordon_idle_inhibit *idle_inhibit =
		wl_container_of(listener, idle_inhibit, new_inhibitor);
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor = data;
	struct cordon_idle_inhibitor *inhibitor = calloc(1, sizeof(*inhibitor));
	if (!inhibitor) {
		wl_resource_post_no_memory(wlr_inhibitor->resource);
		return;
	}
	inhibitor->idle_inhibit = idle_inhibit;
	inhibitor->wlr_inhibitor = wlr_inhibitor;
	inhibitor->destroy.notify = handle_inhibitor_destroy;
	wl_signal_add(&wlr_inhibitor->events.destroy, &inhibitor->destroy);
	wl_list_insert(&idle_inhibit->inhibitors, &inhibitor->link);
	cordon_idle_inhibit_update(idle_inhibit);
}

/* An output came, went, moved or was switched off: what is on an enabled one changed. */
static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct cordon_idle_inhibit *idle_inhibit =
		wl_container_of(listener, idle_inhibit, layout_change);
	cordon_idle_inhibit_update(idle_inhibit);
}

struct cordon_idle_inhibit *cordon_idle_inhibit_create(struct cordon_server *server) {
	struct cordon_idle_inhibit *idle_inhibit = calloc(1, sizeof(*idle_inhibit));
	if (!idle_inhibit) {
		return NULL;
	}
	idle_inhibit->server = server;
	wl_list_init(&idle_inhibit->inhibitors);
	wl_signal_init(&idle_inhibit->events.change);
	idle_inhibit->manager = wlr_idle_inhibit_v1_create(server->display);
	if (!idle_inhibit->manager) {
		free(idle_inhibit);
		return NULL;
	}
	idle_inhibit->new_inhibitor.notify = handle_new_inhibitor;
	wl_signal_add(&idle_inhibit->manager->events.new_inhibitor, &idle_inhibit->new_inhibitor);
	idle_inhibit->layout_change.notify = handle_layout_change;
	wl_signal_add(&server->output_layout->events.change, &idle_inhibit->layout_change);
	return idle_inhibit;
}

void cordon_idle_inhibit_destroy(struct cordon_idle_inhibit *idle_inhibit) {
	if (!idle_inhibit) {
		return;
	}
	wl_list_remove(&idle_inhibit->new_inhibitor.link);
	wl_list_remove(&idle_inhibit->layout_change.link);
	/* The inhibitors go with their clients; forget ours. */
	struct cordon_idle_inhibitor *inhibitor, *tmp;
	wl_list_for_each_safe(inhibitor, tmp, &idle_inhibit->inhibitors, link) {
		wl_list_remove(&inhibitor->destroy.link);
		wl_list_remove(&inhibitor->link);
		free(inhibitor);
	}
	free(idle_inhibit);
}
