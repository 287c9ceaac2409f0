/*
 * idle-inhibit: a video player or presentation holds an inhibitor, and as
 * long as any exists, idle notifications are switched off for the seat.
 */
#include "compositor/idle_inhibit.h"

#include <stdlib.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/util/log.h>

#include "compositor/globals.h"
#include "compositor/seat.h"
#include "compositor/server.h"

static void update_idle(struct cordon_idle_inhibit *idle_inhibit) {
	struct cordon_server *server = idle_inhibit->server;
	bool inhibited = !wl_list_empty(&idle_inhibit->inhibitors);
	wlr_idle_set_enabled(server->globals->idle, server->seat->wlr_seat, !inhibited);
}

static void handle_inhibitor_destroy(struct wl_listener *listener, void *data) {
	struct cordon_idle_inhibitor *inhibitor = wl_container_of(listener, inhibitor, destroy);
	struct cordon_idle_inhibit *idle_inhibit = inhibitor->idle_inhibit;
	wl_list_remove(&inhibitor->destroy.link);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
	update_idle(idle_inhibit);
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
	inhibitor->destroy.notify = handle_inhibitor_destroy;
	wl_signal_add(&wlr_inhibitor->events.destroy, &inhibitor->destroy);
	wl_list_insert(&idle_inhibit->inhibitors, &inhibitor->link);
	update_idle(idle_inhibit);
}

struct cordon_idle_inhibit *cordon_idle_inhibit_create(struct cordon_server *server) {
	struct cordon_idle_inhibit *idle_inhibit = calloc(1, sizeof(*idle_inhibit));
	if (!idle_inhibit) {
		return NULL;
	}
	idle_inhibit->server = server;
	wl_list_init(&idle_inhibit->inhibitors);
	idle_inhibit->manager = wlr_idle_inhibit_v1_create(server->display);
	if (!idle_inhibit->manager) {
		free(idle_inhibit);
		return NULL;
	}
	idle_inhibit->new_inhibitor.notify = handle_new_inhibitor;
	wl_signal_add(&idle_inhibit->manager->events.new_inhibitor, &idle_inhibit->new_inhibitor);
	return idle_inhibit;
}

void cordon_idle_inhibit_destroy(struct cordon_idle_inhibit *idle_inhibit) {
	if (!idle_inhibit) {
		return;
	}
	wl_list_remove(&idle_inhibit->new_inhibitor.link);
	/* The inhibitors go with their clients; forget ours. */
	struct cordon_idle_inhibitor *inhibitor, *tmp;
	wl_list_for_each_safe(inhibitor, tmp, &idle_inhibit->inhibitors, link) {
		wl_list_remove(&inhibitor->destroy.link);
		wl_list_remove(&inhibitor->link);
		free(inhibitor);
	}
	free(idle_inhibit);
}
