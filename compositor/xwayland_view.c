/*
 * X11 windows. A managed window is a cordon view like an xdg toplevel (view.c does the
 * rest: placing, focus, stacking, labels, foreign-toplevel, cordonctl); its X server is
 * told every position and size cordon gives it, so X coordinates are layout coordinates and
 * its pixels land where cordonctl says. An override-redirect window (a menu, a tooltip)
 * places itself: it is drawn at its X position above the views, framed in the label colour
 * of a sandbox's X server like a Wayland popup, and never becomes a view.
 *
 * An X window's wl_surface comes and goes (associate, dissociate) apart from the window;
 * what is drawn hangs on the surface's map and unmap.
 */
#include "compositor/xwayland_view.h"

#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>
#include <wlr/xwayland/xwayland.h>
#include <xcb/xcb_icccm.h>

#include "compositor/client.h"
#include "compositor/foreign_toplevel.h"
#include "compositor/label.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "compositor/xwayland.h"

/* A managed X window: the view, and what it listens to on the X side. */
struct cordon_xwayland_view {
	struct cordon_view view;
	struct cordon_xwayland *xwayland;
	struct wlr_xwayland_surface *xsurface;
	struct wlr_scene_tree *content; /* the surface's scene tree while mapped */

	struct wl_listener associate;
	struct wl_listener dissociate;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener commit;
	struct wl_listener destroy;
	struct wl_listener request_configure;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener request_minimize;
	struct wl_listener request_activate;
	struct wl_listener set_title;
	struct wl_listener set_class;
	struct wl_listener set_override_redirect;
};

/* An override-redirect window: drawn where X put it, above the views. */
struct cordon_xwayland_unmanaged {
	struct cordon_server *server;
	struct cordon_xwayland *xwayland;
	struct wlr_xwayland_surface *xsurface;
	struct wlr_scene_tree *tree; /* while mapped */
	struct wlr_scene_rect *frame[4]; /* a sandbox's: its label colour */
	struct wl_listener associate;
	struct wl_listener dissociate;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener request_configure;
	struct wl_listener set_geometry;
	struct wl_listener set_override_redirect;
	/* A sandbox's, while mapped: shown only while its X server has the keyboard. */
	bool sandboxed; /* of the X server's tag, taken at creation */
	struct wl_listener keyboard_focus_change;
};

static void unmanaged_create(struct cordon_server *server, struct cordon_xwayland *xwayland,
	struct wlr_xwayland_surface *xsurface);
static void managed_create(struct cordon_server *server, struct cordon_xwayland *xwayland,
	struct wlr_xwayland_surface *xsurface);

static struct cordon_xwayland_view *x11_of(struct cordon_view *view) {
	return view->x11;
}

/* The view side (struct cordon_view_impl) */

static void x11_get_geometry(struct cordon_view *view, struct wlr_box *box) {
	struct wlr_xwayland_surface *xsurface = x11_of(view)->xsurface;
	*box = (struct wlr_box){0, 0, xsurface->width, xsurface->height};
}

static const char *x11_get_app_id(struct cordon_view *view) {
	/* WM_CLASS's class is what X11 has for an app id (the X client chose it). */
	return x11_of(view)->xsurface->class;
}

static const char *x11_get_title(struct cordon_view *view) {
	return x11_of(view)->xsurface->title;
}

static struct cordon_view *x11_get_parent(struct cordon_view *view) {
	struct wlr_xwayland_surface *parent = x11_of(view)->xsurface->parent;
	if (!parent || !parent->surface) {
		return NULL;
	}
	return cordon_view_from_surface(view->server, parent->surface);
}

static void x11_set_activated(struct cordon_view *view, bool activated) {
	struct wlr_xwayland_surface *xsurface = x11_of(view)->xsurface;
	wlr_xwayland_surface_activate(xsurface, activated);
	if (activated) {
		/* X's own stacking follows cordon's: what X thinks is on top is. */
		wlr_xwayland_surface_restack(xsurface, NULL, XCB_STACK_MODE_ABOVE);
	}
}

static void x11_configure(struct cordon_view *view, int width, int height) {
	struct wlr_xwayland_surface *xsurface = x11_of(view)->xsurface;
	/* X has no "your own choice": keep the size it has. */
	if (width <= 0 || height <= 0) {
		width = xsurface->width;
		height = xsurface->height;
	}
	wlr_xwayland_surface_configure(xsurface, (int16_t)view->x, (int16_t)view->y,
		(uint16_t)(width > 0 ? width : 1), (uint16_t)(height > 0 ? height : 1));
}

static void x11_moved(struct cordon_view *view) {
	struct wlr_xwayland_surface *xsurface = x11_of(view)->xsurface;
	if (xsurface->x != view->x || xsurface->y != view->y) {
		wlr_xwayland_surface_configure(xsurface, (int16_t)view->x, (int16_t)view->y,
			xsurface->width, xsurface->height);
	}
}

static void x11_set_maximized(struct cordon_view *view, bool maximized) {
	wlr_xwayland_surface_set_maximized(x11_of(view)->xsurface, maximized, maximized);
}

static void x11_set_fullscreen(struct cordon_view *view, bool fullscreen) {
	wlr_xwayland_surface_set_fullscreen(x11_of(view)->xsurface, fullscreen);
}

static void x11_set_resizing(struct cordon_view *view, bool resizing) {
	/* X11 has no resizing state. */
}

static void x11_get_size_limits(struct cordon_view *view, int *min_width, int *min_height,
	int *max_width, int *max_height) {
	xcb_size_hints_t *hints = x11_of(view)->xsurface->size_hints;
	*min_width = *min_height = *max_width = *max_height = 0;
	if (!hints) {
		return;
	}
	if (hints->flags & XCB_ICCCM_SIZE_HINT_P_MIN_SIZE) {
		*min_width = hints->min_width;
		*min_height = hints->min_height;
	}
	if (hints->flags & XCB_ICCCM_SIZE_HINT_P_MAX_SIZE) {
		*max_width = hints->max_width;
		*max_height = hints->max_height;
	}
}

static void x11_close(struct cordon_view *view) {
	wlr_xwayland_surface_close(x11_of(view)->xsurface);
}

static const struct cordon_view_impl x11_view_impl = {
	.shell = CORDON_VIEW_X11,
	.get_geometry = x11_get_geometry,
	.get_app_id = x11_get_app_id,
	.get_title = x11_get_title,
	.get_parent = x11_get_parent,
	.set_activated = x11_set_activated,
	.configure = x11_configure,
	.set_maximized = x11_set_maximized,
	.set_fullscreen = x11_set_fullscreen,
	.set_resizing = x11_set_resizing,
	.get_size_limits = x11_get_size_limits,
	.moved = x11_moved,
	.close = x11_close,
};

bool cordon_view_is_x11(const struct cordon_view *view) {
	return view->impl->shell == CORDON_VIEW_X11;
}

struct cordon_xwayland *cordon_view_get_xwayland(struct cordon_view *view) {
	return cordon_view_is_x11(view) ? x11_of(view)->xwayland : NULL;
}

/*
 * wlroots maps an X window's surface at its first commit with a buffer after the window
 * manager tied the surface to the window (associate). Xwayland tells the two apart on two
 * connections: when the X message naming the surface is read after the Wayland commit of
 * the window's first buffer, that commit has passed, and a window that draws only once (a
 * menu, a still GTK window) would never be shown. What that commit would have done is done
 * now; the map signal then reaches the handlers below.
 */
static void map_if_drawn(struct wlr_surface *surface) {
	if (wlr_surface_has_buffer(surface)) {
		wlr_surface_map(surface);
	}
}

/* Managed windows */

static void handle_map(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, map);
	struct cordon_view *view = &x11->view;
	struct wlr_xwayland_surface *xsurface = x11->xsurface;
	x11->content = wlr_scene_subsurface_tree_create(view->surface_tree, view->surface);
	if (!x11->content) {
		wlr_log(WLR_ERROR, "Out of memory: X window 0x%x is not shown",
			xsurface->window_id);
		return;
	}
	wl_signal_add(&view->surface->events.commit, &x11->commit);
	/* Where X put it, until cordon places it (view.c tells X the position it chose). */
	view->x = xsurface->x;
	view->y = xsurface->y;
	/* X11 apps draw no frame unless they say so (Motif hints): cordon draws its border. */
	view->ssd = xsurface->decorations == WLR_XWAYLAND_SURFACE_DECORATIONS_ALL;
	cordon_view_mapped(view, xsurface->fullscreen,
		xsurface->maximized_horz && xsurface->maximized_vert, xsurface->minimized);
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, unmap);
	if (!x11->view.mapped) {
		return;
	}
	cordon_view_unmapped(&x11->view);
	wl_list_remove(&x11->commit.link);
	wl_list_init(&x11->commit.link);
	wlr_scene_node_destroy(&x11->content->node);
	x11->content = NULL;
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, commit);
	cordon_view_committed(&x11->view);
}

static void handle_associate(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, associate);
	struct wlr_surface *surface = x11->xsurface->surface;
	x11->view.surface = surface;
	wl_signal_add(&surface->events.map, &x11->map);
	wl_signal_add(&surface->events.unmap, &x11->unmap);
	cordon_xwayland_take_queued_events(x11->xwayland);
	if (surface->mapped) {
		handle_map(&x11->map, NULL);
	} else {
		map_if_drawn(surface);
	}
}

static void handle_dissociate(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, dissociate);
	if (x11->view.mapped) {
		handle_unmap(&x11->unmap, NULL);
	}
	wl_list_remove(&x11->map.link);
	wl_list_remove(&x11->unmap.link);
	wl_list_init(&x11->map.link);
	wl_list_init(&x11->unmap.link);
	x11->view.surface = NULL;
}

static void managed_destroy(struct cordon_xwayland_view *x11) {
	if (x11->view.surface) {
		handle_dissociate(&x11->dissociate, NULL);
	}
	struct wl_listener *listeners[] = {&x11->associate, &x11->dissociate, &x11->map,
		&x11->unmap, &x11->commit, &x11->destroy, &x11->request_configure,
		&x11->request_move, &x11->request_resize, &x11->request_maximize,
		&x11->request_fullscreen, &x11->request_minimize, &x11->request_activate,
		&x11->set_title, &x11->set_class, &x11->set_override_redirect};
	for (size_t i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		wl_list_remove(&listeners[i]->link);
	}
	x11->xsurface->data = NULL;
	cordon_view_finish(&x11->view); /* frees x11 */
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, destroy);
	managed_destroy(x11);
}

static void handle_request_configure(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	struct cordon_view *view = &x11->view;
	if (!view->mapped) {
		/* Not shown yet: it may have what it asks; placing it comes at map. */
		wlr_xwayland_surface_configure(
			x11->xsurface, event->x, event->y, event->width, event->height);
		return;
	}
	/*
	 * Shown: its size is its own, its place cordon's (a Wayland app cannot move itself
	 * either). A window cordon sized (maximized, fullscreen) keeps that size.
	 */
	if (view->maximized || view->fullscreen) {
		x11_configure(view, x11->xsurface->width, x11->xsurface->height);
		return;
	}
	x11_configure(view, event->width, event->height);
}

/*
 * X11 has no serials: a move or resize may start only while a button is held on this
 * window, which is what the serial of a Wayland request proves.
 */
static bool button_held_on(struct cordon_view *view) {
	struct wlr_seat *seat = view->server->seat->wlr_seat;
	return view->mapped && seat->pointer_state.button_count > 0 &&
		seat->pointer_state.focused_surface == view->surface;
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_move);
	if (!button_held_on(&x11->view)) {
		wlr_log(WLR_DEBUG, "Refusing move of view %u: no button held on it", x11->view.id);
		return;
	}
	cordon_seat_begin_move(x11->view.server->seat, &x11->view);
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_resize);
	struct wlr_xwayland_resize_event *event = data;
	if (!button_held_on(&x11->view)) {
		wlr_log(WLR_DEBUG, "Refusing resize of view %u: no button held on it",
			x11->view.id);
		return;
	}
	cordon_seat_begin_resize(x11->view.server->seat, &x11->view, event->edges);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_maximize);
	if (x11->view.mapped) {
		cordon_view_set_maximized(
			&x11->view, x11->xsurface->maximized_horz && x11->xsurface->maximized_vert);
	}
}

static void handle_request_fullscreen(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_fullscreen);
	if (x11->view.mapped) {
		cordon_view_set_fullscreen(&x11->view, x11->xsurface->fullscreen);
	}
}

static void handle_request_minimize(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_minimize);
	struct wlr_xwayland_minimize_event *event = data;
	if (x11->view.mapped) {
		cordon_view_set_minimized(&x11->view, event->minimize);
	}
}

/*
 * _NET_ACTIVE_WINDOW: an X client asks for the keyboard. X11 gives no proof of a user
 * action, so a sandbox's window gets it only while its app already has the keyboard (it
 * moves between its own windows); taking it from another app is refused, as an activation
 * without the user's press is for a Wayland app (docs/security.md). The host's X11 apps
 * are trusted as the host's Wayland apps are.
 */
static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, request_activate);
	struct cordon_view *view = &x11->view;
	if (!view->mapped) {
		return;
	}
	struct cordon_client *client = cordon_client_from_wl(view->client);
	if (cordon_client_is_sandboxed(client) && !cordon_view_client_has_focus(view) &&
		view->server->seat->focused_view != view) {
		const struct cordon_tag *tag = cordon_client_get_tag(client);
		wlr_log(WLR_INFO,
			"Refusing activation of X11 view %u (sandbox app '%s'): its app does not have the keyboard",
			view->id, tag->app_id);
		return;
	}
	cordon_view_focus(view);
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, set_title);
	if (x11->view.mapped) {
		cordon_foreign_toplevel_update_names(&x11->view);
	}
}

static void handle_set_class(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, set_class);
	if (x11->view.mapped) {
		cordon_foreign_toplevel_update_names(&x11->view);
	}
}

/* A window may become override-redirect before it maps: it is then unmanaged. */
static void handle_set_override_redirect(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_view *x11 = wl_container_of(listener, x11, set_override_redirect);
	struct wlr_xwayland_surface *xsurface = x11->xsurface;
	/* What it is now decides, not that the signal came. */
	if (!xsurface->override_redirect) {
		return;
	}
	struct cordon_server *server = x11->view.server;
	struct cordon_xwayland *xwayland = x11->xwayland;
	managed_destroy(x11);
	/* It takes over the surface, and draws it if it is mapped (its associate does). */
	unmanaged_create(server, xwayland, xsurface);
}

static void managed_create(struct cordon_server *server, struct cordon_xwayland *xwayland,
	struct wlr_xwayland_surface *xsurface) {
	/* The X server draws it: its connection carries the instance's tag (xwayland.c). */
	struct wl_client *client = cordon_xwayland_wl_client(xwayland);
	struct cordon_xwayland_view *x11 = client ? calloc(1, sizeof(*x11)) : NULL;
	if (!x11) {
		wlr_log(WLR_ERROR, "Cannot manage X window 0x%x", xsurface->window_id);
		return;
	}
	x11->xwayland = xwayland;
	x11->xsurface = xsurface;
	struct cordon_view *view = &x11->view;
	view->x11 = x11;
	if (!cordon_view_init_tree(view, server, &x11_view_impl, client)) {
		free(x11);
		return;
	}
	view->surface_tree = wlr_scene_tree_create(view->tree);
	if (!cordon_view_init_finish(view)) {
		wlr_log(WLR_ERROR, "Out of memory: X window 0x%x is not managed",
			xsurface->window_id);
		free(x11);
		return;
	}
	xsurface->data = x11;

	struct {
		struct wl_listener *listener;
		wl_notify_func_t notify;
		struct wl_signal *signal;
	} wiring[] = {
		{&x11->associate, handle_associate, &xsurface->events.associate},
		{&x11->dissociate, handle_dissociate, &xsurface->events.dissociate},
		{&x11->destroy, handle_destroy, &xsurface->events.destroy},
		{&x11->request_configure, handle_request_configure,
			&xsurface->events.request_configure},
		{&x11->request_move, handle_request_move, &xsurface->events.request_move},
		{&x11->request_resize, handle_request_resize, &xsurface->events.request_resize},
		{&x11->request_maximize, handle_request_maximize,
			&xsurface->events.request_maximize},
		{&x11->request_fullscreen, handle_request_fullscreen,
			&xsurface->events.request_fullscreen},
		{&x11->request_minimize, handle_request_minimize,
			&xsurface->events.request_minimize},
		{&x11->request_activate, handle_request_activate,
			&xsurface->events.request_activate},
		{&x11->set_title, handle_set_title, &xsurface->events.set_title},
		{&x11->set_class, handle_set_class, &xsurface->events.set_class},
		{&x11->set_override_redirect, handle_set_override_redirect,
			&xsurface->events.set_override_redirect},
	};
	for (size_t i = 0; i < sizeof(wiring) / sizeof(wiring[0]); i++) {
		wiring[i].listener->notify = wiring[i].notify;
		wl_signal_add(wiring[i].signal, wiring[i].listener);
	}
	x11->map.notify = handle_map;
	x11->unmap.notify = handle_unmap;
	x11->commit.notify = handle_commit;
	wl_list_init(&x11->map.link);
	wl_list_init(&x11->unmap.link);
	wl_list_init(&x11->commit.link);
	if (xsurface->surface) {
		handle_associate(&x11->associate, NULL);
	}
}

/* Override-redirect windows */

static void unmanaged_update_frame(struct cordon_xwayland_unmanaged *unmanaged) {
	cordon_label_place_popup_frame(
		unmanaged->frame, unmanaged->xsurface->width, unmanaged->xsurface->height);
}

static void unmanaged_place(struct cordon_xwayland_unmanaged *unmanaged) {
	if (unmanaged->tree) {
		wlr_scene_node_set_position(
			&unmanaged->tree->node, unmanaged->xsurface->x, unmanaged->xsurface->y);
		unmanaged_update_frame(unmanaged);
	}
}

/* A sandbox's menu shows whose it is, as its Wayland popups do (xdg_shell.c). */
static bool unmanaged_add_frame(struct cordon_xwayland_unmanaged *unmanaged) {
	uint32_t color;
	struct wl_client *client = cordon_xwayland_wl_client(unmanaged->xwayland);
	if (!client || !cordon_label_client_color(unmanaged->server, client, &color)) {
		return true;
	}
	float rgba[4] = {(float)(color >> 16 & 0xff) / 255.0f, (float)(color >> 8 & 0xff) / 255.0f,
		(float)(color & 0xff) / 255.0f, 1.0f};
	for (int i = 0; i < 4; i++) {
		unmanaged->frame[i] = wlr_scene_rect_create(unmanaged->tree, 0, 0, rgba);
		if (!unmanaged->frame[i]) {
			return false;
		}
	}
	return true;
}

/*
 * A sandbox's override-redirect window is shown only while a window of its own X server
 * has the keyboard: X lets it put one anywhere, of any size, above every window, and it is
 * the menu or tooltip of the window the user is working in. While the user works in
 * another app, it can cover none of that app's windows or labels (attack-x11-menu-cover).
 */
static void unmanaged_update_shown(struct cordon_xwayland_unmanaged *unmanaged) {
	if (!unmanaged->tree || !unmanaged->xsurface->surface) {
		return;
	}
	bool shown = true;
	if (unmanaged->sandboxed) {
		/* Only pointers compared: this runs while the X server goes, too. */
		struct cordon_server *server = unmanaged->server;
		struct cordon_view *focused = server->seat->focused_view;
		struct wlr_surface *keyboard =
			server->seat->wlr_seat->keyboard_state.focused_surface;
		struct wl_client *own =
			wl_resource_get_client(unmanaged->xsurface->surface->resource);
		shown = (focused && cordon_view_get_xwayland(focused) == unmanaged->xwayland) ||
			(keyboard && wl_resource_get_client(keyboard->resource) == own);
	}
	wlr_scene_node_set_enabled(&unmanaged->tree->node, shown);
}

static void handle_unmanaged_keyboard_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, keyboard_focus_change);
	unmanaged_update_shown(unmanaged);
}

static void handle_unmanaged_map(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, map);
	struct cordon_server *server = unmanaged->server;
	struct wlr_surface *surface = unmanaged->xsurface->surface;
	unmanaged->tree = wlr_scene_tree_create(server->layers[CORDON_LAYER_X11_UNMANAGED]);
	if (!unmanaged->tree || !wlr_scene_subsurface_tree_create(unmanaged->tree, surface) ||
		!unmanaged_add_frame(unmanaged)) {
		/* A sandbox's menu is not shown without its colour. */
		wlr_log(WLR_ERROR, "Out of memory: X menu 0x%x is not shown",
			unmanaged->xsurface->window_id);
		if (unmanaged->tree) {
			wlr_scene_node_destroy(&unmanaged->tree->node);
			unmanaged->tree = NULL;
		}
		memset(unmanaged->frame, 0, sizeof(unmanaged->frame));
		return;
	}
	unmanaged_place(unmanaged);
	wl_list_remove(&unmanaged->keyboard_focus_change.link);
	unmanaged->keyboard_focus_change.notify = handle_unmanaged_keyboard_focus_change;
	wl_signal_add(&server->seat->wlr_seat->keyboard_state.events.focus_change,
		&unmanaged->keyboard_focus_change);
	unmanaged_update_shown(unmanaged);
	wlr_log(WLR_DEBUG, "X override-redirect window 0x%x mapped at %d,%d, %dx%d%s",
		unmanaged->xsurface->window_id, unmanaged->xsurface->x, unmanaged->xsurface->y,
		unmanaged->xsurface->width, unmanaged->xsurface->height,
		unmanaged->tree->node.enabled ? ""
					      : ", hidden while its X server lacks the keyboard");
	/*
	 * A menu that takes the keyboard (a combo box's list) gets it only from a window of its
	 * own X server that has it: a sandbox's X server cannot take the keyboard from anyone.
	 */
	struct cordon_view *focused = server->seat->focused_view;
	if (focused && cordon_view_get_xwayland(focused) == unmanaged->xwayland &&
		wlr_xwayland_surface_override_redirect_wants_focus(unmanaged->xsurface)) {
		cordon_seat_focus_surface(server->seat, surface);
	}
	cordon_seat_update_pointer_focus(server->seat, 0);
}

static void handle_unmanaged_unmap(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, unmap);
	struct cordon_server *server = unmanaged->server;
	if (!unmanaged->tree) {
		return;
	}
	wlr_scene_node_destroy(&unmanaged->tree->node);
	unmanaged->tree = NULL;
	memset(unmanaged->frame, 0, sizeof(unmanaged->frame));
	wl_list_remove(&unmanaged->keyboard_focus_change.link);
	wl_list_init(&unmanaged->keyboard_focus_change.link);
	struct wlr_seat *seat = server->seat->wlr_seat;
	/* The keyboard goes back to the window it came from. */
	if (seat->keyboard_state.focused_surface == unmanaged->xsurface->surface) {
		struct cordon_view *focused = server->seat->focused_view;
		cordon_seat_focus_surface(server->seat, focused ? focused->surface : NULL);
	}
	cordon_seat_update_pointer_focus(server->seat, 0);
}

static void handle_unmanaged_associate(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, associate);
	struct wlr_surface *surface = unmanaged->xsurface->surface;
	wl_signal_add(&surface->events.map, &unmanaged->map);
	wl_signal_add(&surface->events.unmap, &unmanaged->unmap);
	cordon_xwayland_take_queued_events(unmanaged->xwayland);
	if (surface->mapped) {
		handle_unmanaged_map(&unmanaged->map, NULL);
	} else {
		map_if_drawn(surface);
	}
}

static void handle_unmanaged_dissociate(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, dissociate);
	handle_unmanaged_unmap(&unmanaged->unmap, NULL);
	wl_list_remove(&unmanaged->map.link);
	wl_list_remove(&unmanaged->unmap.link);
	wl_list_init(&unmanaged->map.link);
	wl_list_init(&unmanaged->unmap.link);
}

static void handle_unmanaged_request_configure(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	/* Override-redirect: X does not ask, but wlroots passes the request on. */
	wlr_xwayland_surface_configure(
		unmanaged->xsurface, event->x, event->y, event->width, event->height);
}

static void handle_unmanaged_set_geometry(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, set_geometry);
	unmanaged_place(unmanaged);
}

static void unmanaged_destroy(struct cordon_xwayland_unmanaged *unmanaged) {
	if (unmanaged->xsurface->surface) {
		handle_unmanaged_dissociate(&unmanaged->dissociate, NULL);
	}
	wl_list_remove(&unmanaged->associate.link);
	wl_list_remove(&unmanaged->dissociate.link);
	wl_list_remove(&unmanaged->map.link);
	wl_list_remove(&unmanaged->unmap.link);
	wl_list_remove(&unmanaged->destroy.link);
	wl_list_remove(&unmanaged->request_configure.link);
	wl_list_remove(&unmanaged->set_geometry.link);
	wl_list_remove(&unmanaged->set_override_redirect.link);
	wl_list_remove(&unmanaged->keyboard_focus_change.link);
	unmanaged->xsurface->data = NULL;
	free(unmanaged);
}

static void handle_unmanaged_destroy(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged = wl_container_of(listener, unmanaged, destroy);
	unmanaged_destroy(unmanaged);
}

/* An override-redirect window made an ordinary one: managed from now on. */
static void handle_unmanaged_set_override_redirect(struct wl_listener *listener, void *data) {
	struct cordon_xwayland_unmanaged *unmanaged =
		wl_container_of(listener, unmanaged, set_override_redirect);
	struct wlr_xwayland_surface *xsurface = unmanaged->xsurface;
	struct cordon_server *server = unmanaged->server;
	struct cordon_xwayland *xwayland = unmanaged->xwayland;
	if (xsurface->override_redirect) {
		return; /* as for a managed one */
	}
	unmanaged_destroy(unmanaged);
	/* It takes over the surface, and maps it if it is mapped (its associate does). */
	managed_create(server, xwayland, xsurface);
}

static void unmanaged_create(struct cordon_server *server, struct cordon_xwayland *xwayland,
	struct wlr_xwayland_surface *xsurface) {
	struct cordon_xwayland_unmanaged *unmanaged = calloc(1, sizeof(*unmanaged));
	if (!unmanaged) {
		wlr_log(WLR_ERROR, "Out of memory: X menu 0x%x is not shown", xsurface->window_id);
		return;
	}
	unmanaged->server = server;
	unmanaged->xwayland = xwayland;
	const struct cordon_tag *tag = cordon_xwayland_tag(xwayland);
	unmanaged->sandboxed = !tag || tag->sandboxed;
	unmanaged->xsurface = xsurface;
	xsurface->data = unmanaged;
	unmanaged->associate.notify = handle_unmanaged_associate;
	wl_signal_add(&xsurface->events.associate, &unmanaged->associate);
	unmanaged->dissociate.notify = handle_unmanaged_dissociate;
	wl_signal_add(&xsurface->events.dissociate, &unmanaged->dissociate);
	unmanaged->destroy.notify = handle_unmanaged_destroy;
	wl_signal_add(&xsurface->events.destroy, &unmanaged->destroy);
	unmanaged->request_configure.notify = handle_unmanaged_request_configure;
	wl_signal_add(&xsurface->events.request_configure, &unmanaged->request_configure);
	unmanaged->set_geometry.notify = handle_unmanaged_set_geometry;
	wl_signal_add(&xsurface->events.set_geometry, &unmanaged->set_geometry);
	unmanaged->set_override_redirect.notify = handle_unmanaged_set_override_redirect;
	wl_signal_add(&xsurface->events.set_override_redirect, &unmanaged->set_override_redirect);
	unmanaged->map.notify = handle_unmanaged_map;
	unmanaged->unmap.notify = handle_unmanaged_unmap;
	wl_list_init(&unmanaged->map.link);
	wl_list_init(&unmanaged->unmap.link);
	wl_list_init(&unmanaged->keyboard_focus_change.link);
	if (xsurface->surface) {
		handle_unmanaged_associate(&unmanaged->associate, NULL);
	}
}

void cordon_xwayland_view_handle_new_surface(struct cordon_server *server,
	struct cordon_xwayland *xwayland, struct wlr_xwayland_surface *xsurface) {
	if (xsurface->override_redirect) {
		unmanaged_create(server, xwayland, xsurface);
	} else {
		managed_create(server, xwayland, xsurface);
	}
}
