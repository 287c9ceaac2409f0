/* idle-inhibit: while a client holds an inhibitor, idle clients see no idleness. */
#ifndef CORDON_COMPOSITOR_IDLE_INHIBIT_H
#define CORDON_COMPOSITOR_IDLE_INHIBIT_H

#include <wayland-server-core.h>

struct cordon_server;

struct cordon_idle_inhibit {
	struct cordon_server *server;
	struct wlr_idle_inhibit_manager_v1 *manager;
	struct wl_list inhibitors; /* cordon_idle_inhibitor.link */
	struct wl_listener new_inhibitor;
};

struct cordon_idle_inhibitor {
	struct cordon_idle_inhibit *idle_inhibit;
	struct wl_list link;
	struct wl_listener destroy;
};

struct cordon_idle_inhibit *cordon_idle_inhibit_create(struct cordon_server *server);
void cordon_idle_inhibit_destroy(struct cordon_idle_inhibit *idle_inhibit);

#endif
