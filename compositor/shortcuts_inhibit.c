/*
 * Keyboard shortcut inhibitors, honoured while their surface has the keyboard. The
 * inhibitor is activated at once, as a VM viewer expects; the attention key suspends it
 * (the user's way out of a window that keeps every binding), and a focus change brings
 * it back. What no inhibitor ever takes is decided in input_router.c: the attention key
 * and VT switching are matched before the bindings that inhibitors hold back.
 */
#include "compositor/shortcuts_inhibit.h"

#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/util/log.h>

#include "compositor/input_router.h"
#include "compositor/seat.h"
#include "compositor/server.h"

struct cordon_shortcuts_inhibitor {
	struct wlr_keyboard_shortcuts_inhibitor_v1 *wlr_inhibitor;
	struct wl_list link; /* cordon_shortcuts_inhibit.inhibitors */
	struct wl_listener destroy;
};

static void handle_inhibitor_destroy(struct wl_listener *listener, void *data) {
	struct cordon_shortcuts_inhibitor *inhibitor =
		wl_container_of(listener, inhibitor, destroy);
	wl_list_remove(&inhibitor->destroy.link);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
}

static void handle_new_inhibitor(struct wl_listener *listener, void *data) {
	struct cordon_shortcuts_inhibit *inhibit =
		wl_container_of(listener, inhibit, new_inhibitor);
	struct wlr_keyboard_shortcuts_inhibitor_v1 *wlr_inhibitor = data;
	struct cordon_shortcuts_inhibitor *inhibitor = calloc(1, sizeof(*inhibitor));
	if (!inhibitor) {
		wl_resource_post_no_memory(wlr_inhibitor->resource);
		return;
	}
	inhibitor->wlr_inhibitor = wlr_inhibitor;
	inhibitor->destroy.notify = handle_inhibitor_destroy;
	wl_signal_add(&wlr_inhibitor->events.destroy, &inhibitor->destroy);
	wl_list_insert(&inhibit->inhibitors, &inhibitor->link);
	wlr_keyboard_shortcuts_inhibitor_v1_activate(wlr_inhibitor);
}

static void handle_focus_will_change(struct wl_listener *listener, void *data);

struct cordon_shortcuts_inhibit *cordon_shortcuts_inhibit_create(struct cordon_server *server) {
	struct cordon_shortcuts_inhibit *inhibit = calloc(1, sizeof(*inhibit));
	if (!inhibit) {
		return NULL;
	}
	inhibit->server = server;
	wl_list_init(&inhibit->inhibitors);
	inhibit->manager = wlr_keyboard_shortcuts_inhibit_v1_create(server->display);
	if (!inhibit->manager) {
		free(inhibit);
		return NULL;
	}
	inhibit->new_inhibitor.notify = handle_new_inhibitor;
	wl_signal_add(&inhibit->manager->events.new_inhibitor, &inhibit->new_inhibitor);
	inhibit->focus_will_change.notify = handle_focus_will_change;
	wl_signal_add(&server->seat->router->events.focus_will_change, &inhibit->focus_will_change);
	return inhibit;
}

void cordon_shortcuts_inhibit_destroy(struct cordon_shortcuts_inhibit *inhibit) {
	if (!inhibit) {
		return;
	}
	wl_list_remove(&inhibit->new_inhibitor.link);
	wl_list_remove(&inhibit->focus_will_change.link);
	struct cordon_shortcuts_inhibitor *inhibitor, *tmp;
	wl_list_for_each_safe(inhibitor, tmp, &inhibit->inhibitors, link) {
		handle_inhibitor_destroy(&inhibitor->destroy, NULL);
	}
	free(inhibit);
}

bool cordon_shortcuts_inhibited(
	struct cordon_shortcuts_inhibit *inhibit, struct wlr_surface *surface) {
	if (!inhibit || !surface) {
		return false;
	}
	struct cordon_shortcuts_inhibitor *inhibitor;
	wl_list_for_each(inhibitor, &inhibit->inhibitors, link) {
		if (inhibitor->wlr_inhibitor->surface == surface &&
			inhibitor->wlr_inhibitor->active) {
			return true;
		}
	}
	return false;
}

static void set_active(
	struct cordon_shortcuts_inhibit *inhibit, struct wlr_surface *surface, bool active) {
	struct cordon_shortcuts_inhibitor *inhibitor;
	wl_list_for_each(inhibitor, &inhibit->inhibitors, link) {
		struct wlr_keyboard_shortcuts_inhibitor_v1 *wlr_inhibitor =
			inhibitor->wlr_inhibitor;
		if (wlr_inhibitor->surface != surface || wlr_inhibitor->active == active) {
			continue;
		}
		if (active) {
			wlr_keyboard_shortcuts_inhibitor_v1_activate(wlr_inhibitor);
		} else {
			wlr_keyboard_shortcuts_inhibitor_v1_deactivate(wlr_inhibitor);
		}
	}
}

void cordon_shortcuts_inhibit_suspend(
	struct cordon_shortcuts_inhibit *inhibit, struct wlr_surface *surface) {
	if (inhibit && surface) {
		set_active(inhibit, surface, false);
	}
}

/* The keyboard goes to SURFACE: its inhibitors, suspended by the attention key, hold again. */
static void handle_focus_will_change(struct wl_listener *listener, void *data) {
	struct cordon_shortcuts_inhibit *inhibit =
		wl_container_of(listener, inhibit, focus_will_change);
	struct wlr_surface *surface = data;
	if (surface) {
		set_active(inhibit, surface, true);
	}
}
