/*
 * wlr-foreign-toplevel-management: a handle per mapped view, kept in step
 * with its title, app_id and states, and whose requests act on the view.
 * ext-foreign-toplevel-list: a handle per mapped view too, with its title and
 * app_id; it only names the view (image_capture.c captures one by it).
 */
#include "compositor/foreign_toplevel.h"

#include <wlr/types/wlr_ext_foreign_toplevel_list_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor/globals.h"
#include "compositor/server.h"
#include "compositor/view.h"

static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_request_activate);
	cordon_view_focus(view);
}

static void handle_request_close(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_request_close);
	cordon_view_close(view);
}

static void handle_request_minimize(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_request_minimize);
	struct wlr_foreign_toplevel_handle_v1_minimized_event *event = data;
	cordon_view_set_minimized(view, event->minimized);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_request_maximize);
	struct wlr_foreign_toplevel_handle_v1_maximized_event *event = data;
	cordon_view_set_maximized(view, event->maximized);
}

static void handle_request_fullscreen(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_request_fullscreen);
	struct wlr_foreign_toplevel_handle_v1_fullscreen_event *event = data;
	cordon_view_set_fullscreen(view, event->fullscreen);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, foreign_destroy);
	wl_list_remove(&view->foreign_request_activate.link);
	wl_list_remove(&view->foreign_request_close.link);
	wl_list_remove(&view->foreign_request_minimize.link);
	wl_list_remove(&view->foreign_request_maximize.link);
	wl_list_remove(&view->foreign_request_fullscreen.link);
	wl_list_remove(&view->foreign_destroy.link);
	view->foreign_toplevel = NULL;
}

static struct wlr_ext_foreign_toplevel_handle_v1_state ext_state(struct cordon_view *view) {
	return (struct wlr_ext_foreign_toplevel_handle_v1_state){
		.title = cordon_view_get_title(view),
		.app_id = cordon_view_get_app_id(view),
	};
}

void cordon_foreign_toplevel_create(struct cordon_view *view) {
	struct wlr_ext_foreign_toplevel_handle_v1_state state = ext_state(view);
	view->ext_toplevel = wlr_ext_foreign_toplevel_handle_v1_create(
		view->server->globals->ext_toplevel_list, &state);
	if (view->ext_toplevel) {
		view->ext_toplevel->data = view;
	}
	struct wlr_foreign_toplevel_handle_v1 *handle = wlr_foreign_toplevel_handle_v1_create(
		view->server->globals->foreign_toplevel_manager);
	if (!handle) {
		return;
	}
	view->foreign_toplevel = handle;
	wlr_foreign_toplevel_handle_v1_set_title(handle, cordon_view_get_title(view));
	wlr_foreign_toplevel_handle_v1_set_app_id(handle, cordon_view_get_app_id(view));
	wlr_foreign_toplevel_handle_v1_set_minimized(handle, view->minimized);
	wlr_foreign_toplevel_handle_v1_set_maximized(handle, view->maximized);
	wlr_foreign_toplevel_handle_v1_set_fullscreen(handle, view->fullscreen);

	view->foreign_request_activate.notify = handle_request_activate;
	wl_signal_add(&handle->events.request_activate, &view->foreign_request_activate);
	view->foreign_request_close.notify = handle_request_close;
	wl_signal_add(&handle->events.request_close, &view->foreign_request_close);
	view->foreign_request_minimize.notify = handle_request_minimize;
	wl_signal_add(&handle->events.request_minimize, &view->foreign_request_minimize);
	view->foreign_request_maximize.notify = handle_request_maximize;
	wl_signal_add(&handle->events.request_maximize, &view->foreign_request_maximize);
	view->foreign_request_fullscreen.notify = handle_request_fullscreen;
	wl_signal_add(&handle->events.request_fullscreen, &view->foreign_request_fullscreen);
	view->foreign_destroy.notify = handle_destroy;
	wl_signal_add(&handle->events.destroy, &view->foreign_destroy);
}

void cordon_foreign_toplevel_update_names(struct cordon_view *view) {
	if (view->foreign_toplevel) {
		wlr_foreign_toplevel_handle_v1_set_title(
			view->foreign_toplevel, cordon_view_get_title(view));
		wlr_foreign_toplevel_handle_v1_set_app_id(
			view->foreign_toplevel, cordon_view_get_app_id(view));
	}
	if (view->ext_toplevel) {
		struct wlr_ext_foreign_toplevel_handle_v1_state state = ext_state(view);
		wlr_ext_foreign_toplevel_handle_v1_update_state(view->ext_toplevel, &state);
	}
}

void cordon_foreign_toplevel_destroy(struct cordon_view *view) {
	if (view->ext_toplevel) {
		wlr_ext_foreign_toplevel_handle_v1_destroy(view->ext_toplevel);
		view->ext_toplevel = NULL;
	}
	if (view->foreign_toplevel) {
		/* Its destroy signal runs handle_destroy, which forgets it. */
		wlr_foreign_toplevel_handle_v1_destroy(view->foreign_toplevel);
	}
}
