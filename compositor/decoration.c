/*
 * Decorations: cordon draws server-side borders unless the client asks to
 * decorate itself, and answers every request so clients never wait.
 */
#include "compositor/decoration.h"

#include <stdlib.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/globals.h"
#include "compositor/server.h"
#include "compositor/view.h"

static void apply_mode(struct cordon_decoration *decoration) {
	struct wlr_xdg_toplevel_decoration_v1 *wlr_decoration = decoration->wlr_decoration;
	bool client_side =
		wlr_decoration->requested_mode == WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE;
	if (decoration->view) {
		cordon_view_set_ssd(decoration->view, !client_side);
	}
	/* The mode goes out with a configure: not before the initial commit asked for one. */
	if (!wlr_decoration->toplevel->base->initialized) {
		return;
	}
	wlr_xdg_toplevel_decoration_v1_set_mode(wlr_decoration,
		client_side ? WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE
			    : WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

static void handle_request_mode(struct wl_listener *listener, void *data) {
	struct cordon_decoration *decoration = wl_container_of(listener, decoration, request_mode);
	apply_mode(decoration);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_decoration *decoration = wl_container_of(listener, decoration, destroy);
	if (decoration->view) {
		decoration->view->decoration = NULL;
		cordon_view_set_ssd(decoration->view, false);
	}
	wl_list_remove(&decoration->request_mode.link);
	wl_list_remove(&decoration->destroy.link);
	wl_list_remove(&decoration->link);
	free(decoration);
}

static void handle_new_toplevel_decoration(struct wl_listener *listener, void *data) {
	struct cordon_decorations *decorations =
		wl_container_of(listener, decorations, new_toplevel_decoration);
	struct wlr_xdg_toplevel_decoration_v1 *wlr_decoration = data;
	struct cordon_decoration *decoration = calloc(1, sizeof(*decoration));
	if (!decoration) {
		wl_resource_post_no_memory(wlr_decoration->resource);
		return;
	}
	decoration->wlr_decoration = wlr_decoration;
	decoration->view = cordon_view_from_surface(
		decorations->server, wlr_decoration->toplevel->base->surface);
	if (decoration->view) {
		decoration->view->decoration = decoration;
	}
	wl_list_insert(&decorations->decorations, &decoration->link);
	decoration->request_mode.notify = handle_request_mode;
	wl_signal_add(&wlr_decoration->events.request_mode, &decoration->request_mode);
	decoration->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_decoration->events.destroy, &decoration->destroy);
	apply_mode(decoration);
}

void cordon_decoration_view_initial_commit(struct cordon_view *view) {
	if (view->decoration) {
		apply_mode(view->decoration);
	}
}

void cordon_decoration_view_destroyed(struct cordon_view *view) {
	if (view->decoration) {
		view->decoration->view = NULL;
		view->decoration = NULL;
	}
}

struct cordon_decorations *cordon_decorations_create(struct cordon_server *server) {
	struct cordon_decorations *decorations = calloc(1, sizeof(*decorations));
	if (!decorations) {
		return NULL;
	}
	decorations->server = server;
	wl_list_init(&decorations->decorations);
	decorations->xdg_manager = wlr_xdg_decoration_manager_v1_create(server->display);
	/* KDE's older protocol: clients that speak only it decorate themselves. */
	decorations->kde_manager = wlr_server_decoration_manager_create(server->display);
	if (!decorations->xdg_manager || !decorations->kde_manager) {
		free(decorations);
		return NULL;
	}
	wlr_server_decoration_manager_set_default_mode(
		decorations->kde_manager, WLR_SERVER_DECORATION_MANAGER_MODE_CLIENT);
	decorations->new_toplevel_decoration.notify = handle_new_toplevel_decoration;
	wl_signal_add(&decorations->xdg_manager->events.new_toplevel_decoration,
		&decorations->new_toplevel_decoration);
	return decorations;
}

void cordon_decorations_destroy(struct cordon_decorations *decorations) {
	if (!decorations) {
		return;
	}
	wl_list_remove(&decorations->new_toplevel_decoration.link);
	/* The wlr decorations go with their clients; forget ours. */
	struct cordon_decoration *decoration, *tmp;
	wl_list_for_each_safe(decoration, tmp, &decorations->decorations, link) {
		handle_destroy(&decoration->destroy, NULL);
	}
	free(decorations);
}
