/*
 * Views: xdg toplevels as the user sees them. A view's scene tree sits at the
 * window geometry's origin; its borders (when decorated by the server) and the
 * client's surfaces hang below it. The server's view list is the stacking
 * order, topmost first.
 */
#include "compositor/view.h"

#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/edges.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/decoration.h"
#include "compositor/foreign_toplevel.h"
#include "compositor/label.h"
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/xdg_dialog.h"
#include "compositor/xwayland_view.h"

#define BORDER_WIDTH 3
/* What cordon does on request; it has no window menu. */
#define WM_CAPABILITIES                                                                            \
	(WLR_XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE | WLR_XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN | \
		WLR_XDG_TOPLEVEL_WM_CAPABILITIES_MINIMIZE)

static const float border_focused[4] = {0.25f, 0.45f, 0.75f, 1.0f};
static const float border_unfocused[4] = {0.3f, 0.3f, 0.3f, 1.0f};

void cordon_view_get_box(struct cordon_view *view, struct wlr_box *box) {
	struct wlr_box geometry;
	view->impl->get_geometry(view, &geometry);
	box->x = view->x;
	box->y = view->y;
	box->width = geometry.width;
	box->height = geometry.height;
}

const char *cordon_view_get_app_id(struct cordon_view *view) {
	const char *app_id = view->impl->get_app_id(view);
	return app_id ? app_id : "";
}

const char *cordon_view_get_title(struct cordon_view *view) {
	const char *title = view->impl->get_title(view);
	return title ? title : "";
}

pid_t cordon_view_get_pid(struct cordon_view *view) {
	/*
	 * An X window has no pid the kernel vouches for: its X server's connection is a
	 * socketpair of cordon's (whose pid that would be), and _NET_WM_PID is the app's say.
	 */
	if (cordon_view_get_xwayland(view)) {
		return 0;
	}
	pid_t pid = 0;
	wl_client_get_credentials(view->client, &pid, NULL, NULL);
	return pid;
}

struct cordon_view *cordon_view_get_parent(struct cordon_view *view) {
	return view->impl->get_parent(view);
}

static void update_borders(struct cordon_view *view) {
	/*
	 * The surface tree needs no offset: wlr_scene_xdg_surface_create keeps its origin at
	 * the window geometry's, with client-side shadows outside it.
	 */
	bool visible = view->ssd && !view->fullscreen;
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	const float *color =
		view->server->seat->focused_view == view ? border_focused : border_unfocused;
	int b = BORDER_WIDTH;
	/* top, bottom, left, right; the corners belong to top and bottom */
	const struct wlr_box edges[4] = {
		{-b, -b, box.width + 2 * b, b},
		{-b, box.height, box.width + 2 * b, b},
		{-b, 0, b, box.height},
		{box.width, 0, b, box.height},
	};
	for (int i = 0; i < 4; i++) {
		wlr_scene_node_set_enabled(&view->border[i]->node, visible);
		wlr_scene_node_set_position(&view->border[i]->node, edges[i].x, edges[i].y);
		wlr_scene_rect_set_size(view->border[i], edges[i].width, edges[i].height);
		wlr_scene_rect_set_color(view->border[i], color);
	}
	if (view->label) {
		cordon_label_update(view->label);
	}
}

void cordon_view_set_ssd(struct cordon_view *view, bool ssd) {
	view->ssd = ssd;
	update_borders(view);
}

void cordon_view_move_to(struct cordon_view *view, int x, int y) {
	view->x = x;
	view->y = y;
	wlr_scene_node_set_position(&view->tree->node, x, y);
	if (view->impl->moved) {
		view->impl->moved(view);
	}
	if (view->label) {
		cordon_label_update(view->label); /* its text follows the outputs it crosses */
	}
}

bool cordon_view_is_visible(struct cordon_view *view) {
	return view->mapped && !view->minimized;
}

void cordon_view_update_enabled(struct cordon_view *view) {
	/* Occlusion is only ever set for visible views, but a view that stops being
	 * visible must not come back as occluded before occlusion is computed again. */
	if (!cordon_view_is_visible(view)) {
		view->occluded = false;
	}
	wlr_scene_node_set_enabled(&view->tree->node, cordon_view_is_visible(view));
}

static bool view_is_sandboxed(struct cordon_view *view) {
	return cordon_client_is_sandboxed(cordon_client_from_wl(view->client));
}

static void mark_shown(struct cordon_view *view) {
	clock_gettime(CLOCK_MONOTONIC, &view->shown_since);
}

struct cordon_view *cordon_view_focused(struct cordon_server *server) {
	return server->seat->focused_view;
}

static void set_activated(struct cordon_view *view, bool activated) {
	view->impl->set_activated(view, activated);
	if (view->foreign_toplevel) {
		wlr_foreign_toplevel_handle_v1_set_activated(view->foreign_toplevel, activated);
	}
}

#define MAX_MODAL_DEPTH 16

static void raise_view(struct cordon_view *view) {
	wlr_scene_node_raise_to_top(&view->tree->node);
	wl_list_remove(&view->link);
	wl_list_insert(&view->server->views, &view->link);
}

void cordon_view_focus(struct cordon_view *view) {
	struct cordon_seat *seat = view->server->seat;
	if (!view->mapped) {
		return;
	}
	/* A modal dialog takes the focus meant for its parent, which comes up just beneath it
	 * (xdg_dialog.c). wlroots refuses parent loops; the bound is for dialogs of dialogs. */
	for (int depth = 0; depth < MAX_MODAL_DEPTH; depth++) {
		struct cordon_view *modal = cordon_view_modal_child(view);
		if (!modal) {
			break;
		}
		raise_view(view);
		view = modal;
	}
	/* Before anything is sent to it (a frozen app must be running again). */
	wl_signal_emit_mutable(&view->server->events.view_activating, view);
	if (view->minimized) {
		cordon_view_set_minimized(view, false);
		return; /* restoring focuses */
	}
	struct cordon_view *previous = seat->focused_view;
	raise_view(view);
	view->focus_granted = true;
	if (previous == view) {
		return;
	}
	seat->focused_view = view;
	if (previous) {
		set_activated(previous, false);
		update_borders(previous);
	}
	set_activated(view, true);
	update_borders(view);
	/* The window is the focused one; the keyboard follows when the layer surface lets go. */
	if (!cordon_layer_shell_holds_keyboard(view->server)) {
		cordon_seat_focus_surface(seat, view->surface);
	}
	wl_signal_emit_mutable(&view->server->events.visibility_changed, NULL);
}

void cordon_view_focus_top(struct cordon_server *server) {
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		/* A sandboxed window the user never gave the keyboard does not inherit it. */
		if (view->mapped && !view->minimized &&
			(view->focus_granted || !view_is_sandboxed(view))) {
			cordon_view_focus(view);
			return;
		}
	}
	struct cordon_view *previous = server->seat->focused_view;
	server->seat->focused_view = NULL;
	if (previous) {
		set_activated(previous, false);
		update_borders(previous);
	}
	cordon_seat_focus_surface(server->seat, NULL);
	wl_signal_emit_mutable(&server->events.visibility_changed, NULL);
}

void cordon_view_cycle_focus(struct cordon_server *server, bool forward) {
	struct cordon_view *top = NULL, *bottom = NULL, *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped) {
			continue;
		}
		if (!top) {
			top = view;
		}
		bottom = view;
	}
	if (!top || top == bottom) {
		if (top) {
			cordon_view_focus(top);
		}
		return;
	}
	if (forward) {
		/* Raising the bottom view walks through every view in turn. */
		cordon_view_focus(bottom);
		return;
	}
	/* The inverse: send the top view to the bottom, focus the new top. A modal dialog
	 * goes down with the windows it is modal over, still above them: else focusing its
	 * parent would bring it straight back. */
	struct cordon_view *lowered = top;
	for (int depth = 0; lowered && depth <= MAX_MODAL_DEPTH; depth++) {
		wlr_scene_node_lower_to_bottom(&lowered->tree->node);
		wl_list_remove(&lowered->link);
		wl_list_insert(server->views.prev, &lowered->link);
		lowered = cordon_view_modal_parent(lowered);
	}
	struct cordon_view *next = wl_container_of(server->views.next, next, link);
	wl_list_for_each(next, &server->views, link) {
		if (next->mapped) {
			break;
		}
	}
	cordon_view_focus(next);
}

void cordon_view_close(struct cordon_view *view) {
	view->impl->close(view);
}

void cordon_view_set_minimized(struct cordon_view *view, bool minimized) {
	if (view->minimized == minimized) {
		return;
	}
	view->minimized = minimized;
	cordon_view_update_enabled(view);
	if (view->foreign_toplevel) {
		wlr_foreign_toplevel_handle_v1_set_minimized(view->foreign_toplevel, minimized);
	}
	struct cordon_server *server = view->server;
	if (minimized) {
		cordon_seat_end_grab(server->seat, view);
		if (server->seat->focused_view == view) {
			cordon_view_focus_top(server);
		}
	} else {
		mark_shown(view);
		cordon_view_focus(view);
	}
	cordon_seat_update_pointer_focus(server->seat, 0);
	wl_signal_emit_mutable(&server->events.visibility_changed, NULL);
}

static struct cordon_output *view_output(struct cordon_view *view) {
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	return cordon_output_at(view->server, box.x + box.width / 2.0, box.y + box.height / 2.0);
}

/* What cordon draws outside the window: the label, else server-side borders. */
static void frame_insets(struct cordon_view *view, int *top, int *side) {
	cordon_label_insets(view, top, side);
	int b = view->ssd ? BORDER_WIDTH : 0;
	*top = *top > b ? *top : b;
	*side = *side > b ? *side : b;
}

/* Fills the output's usable area, inside the borders and label cordon draws. */
static void fit_to_area(struct cordon_view *view, const struct wlr_box *area) {
	int top, side;
	frame_insets(view, &top, &side);
	cordon_view_move_to(view, area->x + side, area->y + top);
	view->impl->configure(view, area->width - 2 * side, area->height - top - side);
}

static void answer_request(struct cordon_view *view) {
	if (view->impl->answer_request) {
		view->impl->answer_request(view);
	}
}

void cordon_view_set_maximized(struct cordon_view *view, bool maximized) {
	struct cordon_output *output = view_output(view);
	if (view->fullscreen || view->maximized == maximized || !output) {
		/* An xdg_toplevel request still wants a configure in reply. */
		answer_request(view);
		return;
	}
	cordon_seat_end_grab(view->server->seat, view);
	view->maximized = maximized;
	if (maximized) {
		cordon_view_get_box(view, &view->saved);
		fit_to_area(view, &output->usable_area);
	} else {
		cordon_view_move_to(view, view->saved.x, view->saved.y);
		view->impl->configure(view, view->saved.width, view->saved.height);
	}
	view->impl->set_maximized(view, maximized);
	if (view->foreign_toplevel) {
		wlr_foreign_toplevel_handle_v1_set_maximized(view->foreign_toplevel, maximized);
	}
}

void cordon_view_output_area_changed(struct cordon_server *server, struct cordon_output *output) {
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && view->maximized && !view->fullscreen &&
			view_output(view) == output) {
			fit_to_area(view, &output->usable_area);
		}
	}
}

void cordon_view_set_fullscreen(struct cordon_view *view, bool fullscreen) {
	struct cordon_output *output = view_output(view);
	if (view->fullscreen == fullscreen || !output) {
		answer_request(view);
		return;
	}
	cordon_seat_end_grab(view->server->seat, view);
	view->fullscreen = fullscreen;
	if (fullscreen) {
		if (!view->maximized) {
			cordon_view_get_box(view, &view->saved);
		}
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		cordon_view_move_to(view, box.x, box.y);
		view->impl->configure(view, box.width, box.height);
		/* Fullscreen covers the panels: lift the view above the top layer. */
		wlr_scene_node_reparent(&view->tree->node, view->server->layers[CORDON_LAYER_TOP]);
		/* The label gives way to the app, after saying whose it is (as browsers do). */
		if (view->label) {
			cordon_label_reveal(view->label);
		}
	} else {
		wlr_scene_node_reparent(
			&view->tree->node, view->server->layers[CORDON_LAYER_VIEWS]);
		if (view->maximized) {
			/* Back to maximized; the saved box still holds the normal geometry. */
			struct cordon_output *restore = view_output(view);
			if (restore) {
				fit_to_area(view, &restore->usable_area);
			}
		} else {
			cordon_view_move_to(view, view->saved.x, view->saved.y);
			view->impl->configure(view, view->saved.width, view->saved.height);
		}
	}
	view->impl->set_fullscreen(view, fullscreen);
	if (view->foreign_toplevel) {
		wlr_foreign_toplevel_handle_v1_set_fullscreen(view->foreign_toplevel, fullscreen);
	}
	update_borders(view);
}

struct cordon_view *cordon_view_at(struct cordon_server *server, double lx, double ly,
	struct wlr_surface **surface, double *sx, double *sy) {
	*surface = NULL;
	struct wlr_scene_node *node = wlr_scene_node_at(&server->scene->tree.node, lx, ly, sx, sy);
	if (!node || node->type != WLR_SCENE_NODE_BUFFER) {
		return NULL;
	}
	struct wlr_scene_surface *scene_surface =
		wlr_scene_surface_try_from_buffer(wlr_scene_buffer_from_node(node));
	if (!scene_surface) {
		return NULL;
	}
	*surface = scene_surface->surface;
	/* Views tag their tree's node; layer surfaces and drag icons do not. */
	for (struct wlr_scene_tree *tree = node->parent; tree; tree = tree->node.parent) {
		if (tree->node.data) {
			return tree->node.data;
		}
	}
	return NULL;
}

struct cordon_view *cordon_view_from_surface(
	struct cordon_server *server, struct wlr_surface *surface) {
	if (!surface) {
		return NULL;
	}
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->surface == surface) {
			return view;
		}
	}
	return NULL;
}

struct cordon_view *cordon_view_by_id(struct cordon_server *server, uint32_t id) {
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->id == id && view->mapped) {
			return view;
		}
	}
	return NULL;
}

/* Where a box of the view's goes centred on centre, kept within the output's area. */
static void centre_box(struct cordon_view *view, struct wlr_box *box, const struct wlr_box *area,
	const struct wlr_box *centre) {
	box->x = centre->x + (centre->width - box->width) / 2;
	box->y = centre->y + (centre->height - box->height) / 2;
	/* Keep the top-left corner, where the client's controls (and the label) are, visible. */
	int top, side;
	frame_insets(view, &top, &side);
	if (box->x + box->width + side > area->x + area->width) {
		box->x = area->x + area->width - box->width - side;
	}
	if (box->y + box->height + side > area->y + area->height) {
		box->y = area->y + area->height - box->height - side;
	}
	if (box->x < area->x + side) {
		box->x = area->x + side;
	}
	if (box->y < area->y + top) {
		box->y = area->y + top;
	}
}

static void place_new_view(struct cordon_view *view) {
	struct cordon_server *server = view->server;
	struct cordon_seat *seat = server->seat;
	struct cordon_output *output = cordon_output_at(server, seat->cursor->x, seat->cursor->y);
	if (!output) {
		return;
	}
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	/* Centre on the output, or on the parent for dialogs. */
	struct wlr_box centre = output->usable_area;
	struct cordon_view *parent_view = cordon_view_get_parent(view);
	if (parent_view && parent_view->mapped) {
		cordon_view_get_box(parent_view, &centre);
	}
	centre_box(view, &box, &output->usable_area, &centre);
	cordon_view_move_to(view, box.x, box.y);
}

/* Whether any of the box is on an output of the layout (an unplugged one has left it). */
static bool box_on_an_output(struct cordon_server *server, const struct wlr_box *box) {
	return wlr_output_layout_intersects(server->output_layout, NULL, box);
}

/* A window whose output went comes onto this one, in the state it was in. */
static void move_onto_output(struct cordon_view *view, struct cordon_output *output) {
	struct wlr_box full, box;
	cordon_output_get_box(output, &full);
	if (view->fullscreen) {
		cordon_view_move_to(view, full.x, full.y);
		view->impl->configure(view, full.width, full.height);
	} else if (view->maximized) {
		fit_to_area(view, &output->usable_area);
	} else {
		cordon_view_get_box(view, &box);
		centre_box(view, &box, &output->usable_area, &output->usable_area);
		cordon_view_move_to(view, box.x, box.y);
	}
	/* Leaving fullscreen or maximized goes back to a place on this output too. */
	if ((view->fullscreen || view->maximized) &&
		!box_on_an_output(view->server, &view->saved)) {
		centre_box(view, &view->saved, &output->usable_area, &output->usable_area);
	}
}

void cordon_view_outputs_changed(struct cordon_server *server) {
	struct cordon_seat *seat = server->seat;
	struct cordon_output *output = cordon_output_at(server, seat->cursor->x, seat->cursor->y);
	if (!output) {
		return; /* no output to be on (a closed lid): they wait for one */
	}
	struct wlr_box full;
	cordon_output_get_box(output, &full);
	if (wlr_box_empty(&full)) {
		return; /* the first output, turned off: nowhere to be seen either */
	}
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		struct wlr_box box;
		cordon_view_get_box(view, &box);
		/* Minimized ones too: restored, they would come back where nothing is shown. */
		if (view->mapped && !wlr_box_empty(&box) && !box_on_an_output(server, &box)) {
			move_onto_output(view, output);
		}
	}
}

/*
 * A sandboxed window that maps is not given the keyboard: an app could map one just
 * before the user types into another and take the keystrokes (docs/security.md). It is
 * shown on top, so the user sees it, and gets the keyboard when the user clicks it,
 * picks it with a binding, or an activation token from their last press names it.
 */
/*
 * A new window of the app that has the keyboard (its dialog, say) takes no focus from
 * another app: it may have it, as the app's own windows share what the user typed.
 */
bool cordon_view_client_has_focus(struct cordon_view *view) {
	struct cordon_view *focused = view->server->seat->focused_view;
	return focused && focused != view && focused->client == view->client;
}

static void place_unfocused(struct cordon_view *view) {
	wlr_log(WLR_INFO, "View %u of a sandboxed app mapped without the focus", view->id);
}

void cordon_view_mapped(struct cordon_view *view, bool fullscreen, bool maximized, bool minimized) {
	view->mapped = true;
	place_new_view(view);
	cordon_foreign_toplevel_create(view);
	if (fullscreen) {
		cordon_view_set_fullscreen(view, true);
	} else if (maximized) {
		cordon_view_set_maximized(view, true);
	}
	update_borders(view);
	wlr_log(WLR_DEBUG, "View %u (%s) mapped", view->id,
		cordon_log_text(cordon_view_get_app_id(view)));
	if (minimized) {
		/* Visible in the list, but hidden until restored. */
		view->minimized = true;
		cordon_view_update_enabled(view);
		wl_signal_emit_mutable(&view->server->events.visibility_changed, NULL);
		return;
	}
	cordon_view_update_enabled(view);
	mark_shown(view);
	if (view->focus_on_map || !view_is_sandboxed(view) || cordon_view_client_has_focus(view)) {
		cordon_view_focus(view);
	} else {
		place_unfocused(view);
	}
	cordon_seat_update_pointer_focus(view->server->seat, 0);
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, map);
	struct wlr_xdg_toplevel_requested *requested = &view->xdg_toplevel->requested;
	cordon_view_mapped(view, requested->fullscreen, requested->maximized, requested->minimized);
}

void cordon_view_unmapped(struct cordon_view *view) {
	struct cordon_server *server = view->server;
	view->mapped = false;
	cordon_view_update_enabled(view);
	cordon_seat_end_grab(server->seat, view);
	cordon_foreign_toplevel_destroy(view);
	if (server->seat->focused_view == view) {
		server->seat->focused_view = NULL;
		cordon_view_focus_top(server);
	}
	cordon_seat_update_pointer_focus(server->seat, 0);
	wl_signal_emit_mutable(&server->events.visibility_changed, NULL);
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, unmap);
	cordon_view_unmapped(view);
}

static void configure_unmapped_state(struct cordon_view *view);

static void handle_commit(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, commit);
	if (view->xdg_surface->initial_commit) {
		/* xdg-shell: the first commit (without a buffer) is answered by a configure. */
		wlr_xdg_toplevel_set_wm_capabilities(view->xdg_toplevel, WM_CAPABILITIES);
		cordon_decoration_view_initial_commit(view);
		configure_unmapped_state(view);
		return;
	}
	cordon_view_committed(view);
}

void cordon_view_committed(struct cordon_view *view) {
	struct cordon_seat *seat = view->server->seat;
	if (!view->mapped) {
		return;
	}
	/* Resizing from the top or left edge keeps the opposite edge still. */
	if (seat->cursor_mode == CORDON_CURSOR_RESIZE && seat->grabbed_view == view) {
		struct wlr_box box;
		cordon_view_get_box(view, &box);
		int x = view->x, y = view->y;
		if (seat->resize_edges & WLR_EDGE_LEFT) {
			x = seat->grab_box.x + seat->grab_box.width - box.width;
		}
		if (seat->resize_edges & WLR_EDGE_TOP) {
			y = seat->grab_box.y + seat->grab_box.height - box.height;
		}
		cordon_view_move_to(view, x, y);
	}
	update_borders(view);
}

void cordon_view_finish(struct cordon_view *view) {
	struct cordon_server *server = view->server;
	if (view->mapped) {
		cordon_view_unmapped(view);
	}
	if (server->seat->focused_view == view) {
		server->seat->focused_view = NULL;
	}
	wl_list_remove(&view->link);
	cordon_label_destroy(view->label);
	wlr_scene_node_destroy(&view->tree->node);
	free(view);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, destroy);
	if (view->mapped) {
		cordon_view_unmapped(view);
	}
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->commit.link);
	wl_list_remove(&view->request_move.link);
	wl_list_remove(&view->request_resize.link);
	wl_list_remove(&view->request_maximize.link);
	wl_list_remove(&view->request_fullscreen.link);
	wl_list_remove(&view->request_minimize.link);
	wl_list_remove(&view->set_title.link);
	wl_list_remove(&view->set_app_id.link);
	cordon_decoration_view_destroyed(view);
	/* The xdg_surface may live on without its role object: it parents nothing of ours. */
	view->xdg_surface->data = NULL;
	cordon_view_finish(view);
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, request_move);
	struct wlr_xdg_toplevel_move_event *event = data;
	struct cordon_seat *seat = view->server->seat;
	/* Only a button that is still held may start a move: the serial proves it. */
	if (!wlr_seat_validate_pointer_grab_serial(seat->wlr_seat, view->surface, event->serial)) {
		wlr_log(WLR_DEBUG, "Refusing move of view %u: stale serial", view->id);
		return;
	}
	cordon_seat_begin_move(seat, view);
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, request_resize);
	struct wlr_xdg_toplevel_resize_event *event = data;
	struct cordon_seat *seat = view->server->seat;
	/* An edge outside the enum never gets here: wlroots refuses it with a protocol error. */
	if (!wlr_seat_validate_pointer_grab_serial(seat->wlr_seat, view->surface, event->serial)) {
		wlr_log(WLR_DEBUG, "Refusing resize of view %u: stale serial", view->id);
		return;
	}
	cordon_seat_begin_resize(seat, view, event->edges);
}

/*
 * A state asked for before the first map goes into the configure that answers
 * it, with the size that comes with it: the client draws its first buffer
 * maximized or fullscreen (xdg-shell), and map applies the state for real.
 */
static void configure_unmapped_state(struct cordon_view *view) {
	struct wlr_xdg_toplevel *toplevel = view->xdg_toplevel;
	if (!view->xdg_surface->initialized) {
		return; /* the initial commit is answered with the state requested until then */
	}
	struct cordon_seat *seat = view->server->seat;
	/* Where place_new_view will put it. */
	struct cordon_output *output =
		cordon_output_at(view->server, seat->cursor->x, seat->cursor->y);
	bool fullscreen = output && toplevel->requested.fullscreen;
	bool maximized = output && !fullscreen && toplevel->requested.maximized;
	if (fullscreen) {
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		wlr_xdg_toplevel_set_size(view->xdg_toplevel, box.width, box.height);
	} else if (maximized) {
		int top, side;
		frame_insets(view, &top, &side);
		wlr_xdg_toplevel_set_size(view->xdg_toplevel, output->usable_area.width - 2 * side,
			output->usable_area.height - top - side);
	} else {
		wlr_xdg_toplevel_set_size(view->xdg_toplevel, 0, 0);
	}
	wlr_xdg_toplevel_set_fullscreen(view->xdg_toplevel, fullscreen);
	wlr_xdg_toplevel_set_maximized(view->xdg_toplevel, maximized);
	/* The setters schedule nothing when nothing changed; the request wants a reply. */
	wlr_xdg_surface_schedule_configure(view->xdg_surface);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, request_maximize);
	if (!view->mapped) {
		configure_unmapped_state(view);
		return;
	}
	cordon_view_set_maximized(view, view->xdg_toplevel->requested.maximized);
}

static void handle_request_fullscreen(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, request_fullscreen);
	if (!view->mapped) {
		configure_unmapped_state(view);
		return;
	}
	cordon_view_set_fullscreen(view, view->xdg_toplevel->requested.fullscreen);
}

static void handle_request_minimize(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, request_minimize);
	if (view->mapped) {
		cordon_view_set_minimized(view, true);
	}
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, set_title);
	cordon_foreign_toplevel_update_names(view);
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, set_app_id);
	cordon_foreign_toplevel_update_names(view);
}

bool cordon_view_init_tree(struct cordon_view *view, struct cordon_server *server,
	const struct cordon_view_impl *impl, struct wl_client *client) {
	view->server = server;
	view->impl = impl;
	view->client = client;
	wl_list_init(&view->link);
	view->tree = wlr_scene_tree_create(server->layers[CORDON_LAYER_VIEWS]);
	if (!view->tree) {
		return false;
	}
	view->tree->node.data = view;
	wlr_scene_node_set_enabled(&view->tree->node, false);
	for (int i = 0; i < 4; i++) {
		view->border[i] = wlr_scene_rect_create(view->tree, 0, 0, border_unfocused);
		if (!view->border[i]) {
			wlr_scene_node_destroy(&view->tree->node);
			return false;
		}
		wlr_scene_node_set_enabled(&view->border[i]->node, false);
	}
	return true;
}

bool cordon_view_init_finish(struct cordon_view *view) {
	/* After the surfaces, so that it is drawn above them and their popups. */
	if (!view->surface_tree || !cordon_label_create(view, &view->label)) {
		wlr_scene_node_destroy(&view->tree->node);
		return false;
	}
	view->id = view->server->next_view_id++;
	wl_list_insert(&view->server->views, &view->link);
	return true;
}

/* The xdg-shell side of a view. */

static void xdg_get_geometry(struct cordon_view *view, struct wlr_box *box) {
	*box = view->xdg_surface->geometry;
}

static const char *xdg_get_app_id(struct cordon_view *view) {
	return view->xdg_toplevel->app_id;
}

static const char *xdg_get_title(struct cordon_view *view) {
	return view->xdg_toplevel->title;
}

static struct cordon_view *xdg_get_parent(struct cordon_view *view) {
	struct wlr_xdg_toplevel *parent = view->xdg_toplevel->parent;
	return parent ? cordon_view_from_surface(view->server, parent->base->surface) : NULL;
}

static void xdg_set_activated(struct cordon_view *view, bool activated) {
	wlr_xdg_toplevel_set_activated(view->xdg_toplevel, activated);
}

static void xdg_configure(struct cordon_view *view, int width, int height) {
	wlr_xdg_toplevel_set_size(view->xdg_toplevel, width, height);
}

static void xdg_set_maximized(struct cordon_view *view, bool maximized) {
	wlr_xdg_toplevel_set_maximized(view->xdg_toplevel, maximized);
}

static void xdg_set_fullscreen(struct cordon_view *view, bool fullscreen) {
	wlr_xdg_toplevel_set_fullscreen(view->xdg_toplevel, fullscreen);
}

static void xdg_set_resizing(struct cordon_view *view, bool resizing) {
	wlr_xdg_toplevel_set_resizing(view->xdg_toplevel, resizing);
}

static void xdg_get_size_limits(struct cordon_view *view, int *min_width, int *min_height,
	int *max_width, int *max_height) {
	struct wlr_xdg_toplevel_state *current = &view->xdg_toplevel->current;
	*min_width = current->min_width;
	*min_height = current->min_height;
	*max_width = current->max_width;
	*max_height = current->max_height;
}

static void xdg_answer_request(struct cordon_view *view) {
	wlr_xdg_surface_schedule_configure(view->xdg_surface);
}

static void xdg_close(struct cordon_view *view) {
	wlr_xdg_toplevel_send_close(view->xdg_toplevel);
}

static const struct cordon_view_impl xdg_view_impl = {
	.shell = CORDON_VIEW_XDG,
	.get_geometry = xdg_get_geometry,
	.get_app_id = xdg_get_app_id,
	.get_title = xdg_get_title,
	.get_parent = xdg_get_parent,
	.set_activated = xdg_set_activated,
	.configure = xdg_configure,
	.set_maximized = xdg_set_maximized,
	.set_fullscreen = xdg_set_fullscreen,
	.set_resizing = xdg_set_resizing,
	.get_size_limits = xdg_get_size_limits,
	.answer_request = xdg_answer_request,
	.close = xdg_close,
};

struct cordon_view *cordon_view_create(
	struct cordon_server *server, struct wlr_xdg_toplevel *toplevel) {
	struct cordon_view *view = calloc(1, sizeof(*view));
	if (!view) {
		return NULL;
	}
	struct wlr_xdg_surface *xdg_surface = toplevel->base;
	view->xdg_toplevel = toplevel;
	view->xdg_surface = xdg_surface;
	view->surface = xdg_surface->surface;
	if (!cordon_view_init_tree(
		    view, server, &xdg_view_impl, wl_resource_get_client(xdg_surface->resource))) {
		free(view);
		return NULL;
	}
	view->surface_tree = wlr_scene_xdg_surface_create(view->tree, xdg_surface);
	if (!cordon_view_init_finish(view)) {
		free(view);
		return NULL;
	}
	/* Popups find their parent's scene tree here. */
	xdg_surface->data = view->surface_tree;

	struct wlr_surface *surface = xdg_surface->surface;
	view->map.notify = handle_map;
	wl_signal_add(&surface->events.map, &view->map);
	view->unmap.notify = handle_unmap;
	wl_signal_add(&surface->events.unmap, &view->unmap);
	view->commit.notify = handle_commit;
	wl_signal_add(&surface->events.commit, &view->commit);
	view->destroy.notify = handle_destroy;
	wl_signal_add(&toplevel->events.destroy, &view->destroy);
	view->request_move.notify = handle_request_move;
	wl_signal_add(&toplevel->events.request_move, &view->request_move);
	view->request_resize.notify = handle_request_resize;
	wl_signal_add(&toplevel->events.request_resize, &view->request_resize);
	view->request_maximize.notify = handle_request_maximize;
	wl_signal_add(&toplevel->events.request_maximize, &view->request_maximize);
	view->request_fullscreen.notify = handle_request_fullscreen;
	wl_signal_add(&toplevel->events.request_fullscreen, &view->request_fullscreen);
	view->request_minimize.notify = handle_request_minimize;
	wl_signal_add(&toplevel->events.request_minimize, &view->request_minimize);
	view->set_title.notify = handle_set_title;
	wl_signal_add(&toplevel->events.set_title, &view->set_title);
	view->set_app_id.notify = handle_set_app_id;
	wl_signal_add(&toplevel->events.set_app_id, &view->set_app_id);
	return view;
}
