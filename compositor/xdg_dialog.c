/*
 * xdg-dialog-v1. The modal state itself is kept by wlroots on the toplevel; view.c asks
 * cordon_view_modal_child whenever a window would be focused or raised, so a parent with
 * a modal dialog up gives the focus to the dialog and is never raised above it. Here only
 * what happens when a dialog becomes modal while its parent has the focus: the dialog
 * takes it.
 */
#include "compositor/xdg_dialog.h"

#include <stdlib.h>
#include <wlr/types/wlr_xdg_dialog_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

#define XDG_DIALOG_VERSION 1

struct cordon_xdg_dialogs {
	struct cordon_server *server;
	struct wlr_xdg_wm_dialog_v1 *manager;
	struct wl_listener new_dialog;
};

/* One dialog object of a client, for as long as wlroots keeps it. */
struct dialog {
	struct cordon_server *server;
	struct wlr_xdg_dialog_v1 *wlr_dialog;
	struct wl_listener set_modal;
	struct wl_listener destroy;
};

struct cordon_view *cordon_view_modal_child(struct cordon_view *view) {
	struct cordon_view *child;
	wl_list_for_each(child, &view->server->views, link) {
		/* xdg-dialog is an xdg-shell protocol: an X11 window is never one. */
		if (!child->mapped || !child->xdg_toplevel || !view->xdg_toplevel ||
			child->xdg_toplevel->parent != view->xdg_toplevel) {
			continue;
		}
		struct wlr_xdg_dialog_v1 *dialog =
			wlr_xdg_dialog_v1_try_from_wlr_xdg_toplevel(child->xdg_toplevel);
		if (dialog && dialog->modal) {
			return child;
		}
	}
	return NULL;
}

struct cordon_view *cordon_view_modal_parent(struct cordon_view *view) {
	if (!view->xdg_toplevel) {
		return NULL;
	}
	struct wlr_xdg_toplevel *parent = view->xdg_toplevel->parent;
	struct wlr_xdg_dialog_v1 *dialog =
		wlr_xdg_dialog_v1_try_from_wlr_xdg_toplevel(view->xdg_toplevel);
	if (!parent || !dialog || !dialog->modal) {
		return NULL;
	}
	return cordon_view_from_surface(view->server, parent->base->surface);
}

static void handle_set_modal(struct wl_listener *listener, void *data) {
	struct dialog *dialog = wl_container_of(listener, dialog, set_modal);
	struct wlr_xdg_toplevel *parent = dialog->wlr_dialog->xdg_toplevel->parent;
	struct cordon_view *focused = dialog->server->seat->focused_view;
	if (dialog->wlr_dialog->modal && parent && focused && focused->xdg_toplevel == parent) {
		/* Focusing the parent now goes to its modal dialog. */
		cordon_view_focus(focused);
	}
}

static void handle_dialog_destroy(struct wl_listener *listener, void *data) {
	struct dialog *dialog = wl_container_of(listener, dialog, destroy);
	wl_list_remove(&dialog->set_modal.link);
	wl_list_remove(&dialog->destroy.link);
	free(dialog);
}

static void handle_new_dialog(struct wl_listener *listener, void *data) {
	struct cordon_xdg_dialogs *dialogs = wl_container_of(listener, dialogs, new_dialog);
	struct wlr_xdg_dialog_v1 *wlr_dialog = data;
	struct dialog *dialog = calloc(1, sizeof(*dialog));
	if (!dialog) {
		wl_resource_post_no_memory(wlr_dialog->resource);
		return;
	}
	dialog->server = dialogs->server;
	dialog->wlr_dialog = wlr_dialog;
	dialog->set_modal.notify = handle_set_modal;
	wl_signal_add(&wlr_dialog->events.set_modal, &dialog->set_modal);
	dialog->destroy.notify = handle_dialog_destroy;
	wl_signal_add(&wlr_dialog->events.destroy, &dialog->destroy);
}

struct cordon_xdg_dialogs *cordon_xdg_dialogs_create(struct cordon_server *server) {
	struct cordon_xdg_dialogs *dialogs = calloc(1, sizeof(*dialogs));
	if (!dialogs) {
		return NULL;
	}
	dialogs->server = server;
	dialogs->manager = wlr_xdg_wm_dialog_v1_create(server->display, XDG_DIALOG_VERSION);
	if (!dialogs->manager) {
		free(dialogs);
		return NULL;
	}
	dialogs->new_dialog.notify = handle_new_dialog;
	wl_signal_add(&dialogs->manager->events.new_dialog, &dialogs->new_dialog);
	return dialogs;
}

void cordon_xdg_dialogs_destroy(struct cordon_xdg_dialogs *dialogs) {
	if (!dialogs) {
		return;
	}
	wl_list_remove(&dialogs->new_dialog.link);
	free(dialogs);
}
