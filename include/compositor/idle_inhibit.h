/* idle-inhibit: while an inhibitor's surface is shown, idle clients see no idleness. */
#ifndef CORDON_COMPOSITOR_IDLE_INHIBIT_H
#define CORDON_COMPOSITOR_IDLE_INHIBIT_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_server;

struct cordon_idle_inhibit {
	struct cordon_server *server;
	struct wlr_idle_inhibit_manager_v1 *manager;
	struct wl_list inhibitors; /* cordon_idle_inhibitor.link */
	bool inhibited; /* some inhibitor's surface is shown: idle is off for the seat */
	struct wl_listener new_inhibitor;
	struct wl_listener layout_change;

	struct {
		/* Which inhibitors are on shown surfaces changed (freeze.c re-runs its policy). */
		struct wl_signal change;
	} events;
};

struct cordon_idle_inhibitor {
	struct cordon_idle_inhibit *idle_inhibit;
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor;
	struct wl_list link;
	bool visible; /* its surface is shown on an enabled output (as of the last update) */
	bool was_visible; /* scratch for cordon_idle_inhibit_update */
	struct wl_listener destroy;
};

/* After the seat, the output layout and the scene. */
struct cordon_idle_inhibit *cordon_idle_inhibit_create(struct cordon_server *server);
void cordon_idle_inhibit_destroy(struct cordon_idle_inhibit *idle_inhibit);

/*
 * Decides again which inhibitors count: those whose surface is in the scene with every
 * node up to the root enabled (not minimized, unmapped or occluded), has a buffer and
 * meets an enabled output. output.c calls it after each frame is drawn.
 */
void cordon_idle_inhibit_update(struct cordon_idle_inhibit *idle_inhibit);

#endif
