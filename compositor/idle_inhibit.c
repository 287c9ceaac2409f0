/*
 * idle-inhibit: a video player or presentation holds an inhibitor on its
 * surface, and idle notifications are switched off for the seat while that
 * surface is shown. The protocol ties an inhibitor to its surface's visibility,
 * and a client may make one on any surface: a surface with no role, never
 * mapped, a minimized window or one that other windows cover entirely. Counting
 * those would let any app (a sandboxed one too) keep screen lockers and blanking
 * from ever firing, and keep itself from being frozen (freeze.c asks here).
 *
 * So an inhibitor counts only while the scene shows some of its surface on an
 * enabled output: the surface's buffer has a primary output, which wlroots' scene
 * gives only to a buffer with a visible part (every node up to the root enabled,
 * so not minimized or unmapped, not covered entirely by opaque content above)
 * that lies on an enabled output. That is decided again after each output frame,
 * when the output layout changes and when an inhibitor comes or goes.
 */
#include "compositor/idle_inhibit.h"

#include <stdlib.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_idle_notify_v1.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "compositor/globals.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"

/* Marks the inhibitors of a surface the scene shows on an output. */
static void mark_shown(struct wlr_scene_buffer *buffer, int sx, int sy, void *data) {
	struct cordon_idle_inhibit *idle_inhibit = data;
	struct wlr_scene_surface *scene_surface = wlr_scene_surface_try_from_buffer(buffer);
	if (!scene_surface || !buffer->primary_output) {
		return;
	}
	struct cordon_idle_inhibitor *inhibitor;
	wl_list_for_each(inhibitor, &idle_inhibit->inhibitors, link) {
		if (inhibitor->wlr_inhibitor->surface == scene_surface->surface) {
			inhibitor->visible = true;
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
	if (!wl_list_empty(&idle_inhibit->inhibitors)) {
		/* Disabled subtrees are skipped, and their buffers have no primary output. */
		wlr_scene_node_for_each_buffer(&server->scene->tree.node, mark_shown, idle_inhibit);
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
		/* ext-idle-notify: an inhibited notifier reports the seat as resumed. */
		wlr_idle_notifier_v1_set_inhibited(server->globals->idle_notifier, inhibited);
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
