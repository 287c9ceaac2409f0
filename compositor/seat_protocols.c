/*
 * The protocols that extend the seat, each a wlroots implementation wired to the seat
 * under its rules: a cursor shape is the pointer-focused client's choice of image, shown
 * under the same rules as a cursor surface (seat.c); relative motion goes where the
 * pointer's focus is, which a frozen client never has. A pointer constraint (lock or
 * confine) holds only on a window that has both the pointer and the keyboard the user
 * gave it, and never while a trusted dialog is up: an app cannot trap the pointer of a
 * user who merely passes over it, and the focus bindings always free it. Keyboard
 * shortcuts inhibition (a remote desktop or a virtual machine taking every key) is
 * host-only (the global filter hides it from sandboxes) and holds only while its surface
 * has the keyboard.
 */
#include "compositor/seat_protocols.h"

#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor_shape_v1.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_pointer_constraints_v1.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <wlr/util/region.h>

#include "compositor/seat.h"
#include "compositor/server.h"
#include "portals/dialog_input.h"

#define CURSOR_SHAPE_VERSION 1

/*
 * Only the client under the pointer chooses its image, as with wl_pointer.set_cursor.
 * Tablet tools have no cursor of their own here: cordon does not offer tablets.
 */
static void handle_request_set_shape(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, request_set_shape);
	struct wlr_cursor_shape_manager_v1_request_set_shape_event *event = data;
	struct cordon_seat *seat = protocols->seat;
	if (event->device_type != WLR_CURSOR_SHAPE_MANAGER_V1_DEVICE_TYPE_POINTER ||
		event->seat_client != seat->wlr_seat->pointer_state.focused_client) {
		return;
	}
	cordon_seat_set_client_cursor_shape(seat, wlr_cursor_shape_v1_name(event->shape));
}

/* Pointer constraints */

static void set_active_constraint(
	struct cordon_seat_protocols *protocols, struct wlr_pointer_constraint_v1 *constraint) {
	struct wlr_pointer_constraint_v1 *old = protocols->active_constraint;
	if (old == constraint) {
		return;
	}
	if (old) {
		wl_list_remove(&protocols->active_constraint_destroy.link);
		wl_list_init(&protocols->active_constraint_destroy.link);
		protocols->active_constraint = NULL;
		/* A one-shot constraint is destroyed by this: nothing of ours listens any more. */
		wlr_pointer_constraint_v1_send_deactivated(old);
	}
	if (constraint) {
		protocols->active_constraint = constraint;
		wl_signal_add(&constraint->events.destroy, &protocols->active_constraint_destroy);
		wlr_pointer_constraint_v1_send_activated(constraint);
	}
}

/*
 * The constraint of the surface under the pointer, if the window it belongs to has the
 * keyboard too (another window of the same app having it is not enough).
 */
static struct wlr_pointer_constraint_v1 *wanted_constraint(
	struct cordon_seat_protocols *protocols) {
	struct cordon_seat *seat = protocols->seat;
	struct wlr_seat *wlr_seat = seat->wlr_seat;
	struct wlr_surface *surface = wlr_seat->pointer_state.focused_surface;
	struct wlr_surface *keyboard = wlr_seat->keyboard_state.focused_surface;
	if (!surface || !keyboard || wlr_surface_get_root_surface(surface) != keyboard ||
		cordon_portals_withhold_modifiers(seat->server->portals)) {
		return NULL;
	}
	return wlr_pointer_constraints_v1_constraint_for_surface(
		protocols->pointer_constraints, surface, wlr_seat);
}

static void update_constraint(struct cordon_seat_protocols *protocols) {
	set_active_constraint(protocols, wanted_constraint(protocols));
}

static void handle_active_constraint_destroy(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, active_constraint_destroy);
	wl_list_remove(&protocols->active_constraint_destroy.link);
	wl_list_init(&protocols->active_constraint_destroy.link);
	protocols->active_constraint = NULL;
}

static void handle_new_constraint(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, new_constraint);
	update_constraint(protocols);
}

/* Keyboard shortcuts inhibitors: active exactly while their surface has the keyboard. */
static void update_shortcuts_inhibitors(struct cordon_seat_protocols *protocols) {
	struct wlr_seat *wlr_seat = protocols->seat->wlr_seat;
	struct wlr_surface *focused = wlr_seat->keyboard_state.focused_surface;
	struct wlr_keyboard_shortcuts_inhibitor_v1 *inhibitor;
	wl_list_for_each(inhibitor, &protocols->shortcuts_inhibit->inhibitors, link) {
		bool wanted = inhibitor->seat == wlr_seat && inhibitor->surface == focused;
		if (wanted && !inhibitor->active) {
			wlr_keyboard_shortcuts_inhibitor_v1_activate(inhibitor);
		} else if (!wanted && inhibitor->active) {
			wlr_keyboard_shortcuts_inhibitor_v1_deactivate(inhibitor);
		}
	}
}

bool cordon_seat_protocols_shortcuts_inhibited(struct cordon_seat_protocols *protocols) {
	if (!protocols) {
		return false;
	}
	struct wlr_seat *wlr_seat = protocols->seat->wlr_seat;
	struct wlr_surface *focused = wlr_seat->keyboard_state.focused_surface;
	struct wlr_keyboard_shortcuts_inhibitor_v1 *inhibitor;
	wl_list_for_each(inhibitor, &protocols->shortcuts_inhibit->inhibitors, link) {
		if (inhibitor->active && inhibitor->seat == wlr_seat && focused &&
			inhibitor->surface == focused) {
			return true;
		}
	}
	return false;
}

static void handle_new_inhibitor(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, new_inhibitor);
	update_shortcuts_inhibitors(protocols);
}

static void handle_keyboard_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, keyboard_focus_change);
	update_constraint(protocols);
	update_shortcuts_inhibitors(protocols);
}

static void handle_pointer_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_seat_protocols *protocols =
		wl_container_of(listener, protocols, pointer_focus_change);
	update_constraint(protocols);
}

void cordon_seat_protocols_constrain_motion(
	struct cordon_seat_protocols *protocols, double *dx, double *dy) {
	if (!protocols) {
		return;
	}
	/* A dialog may have come up since: the user must reach it. */
	update_constraint(protocols);
	struct wlr_pointer_constraint_v1 *constraint = protocols->active_constraint;
	if (!constraint) {
		return;
	}
	if (constraint->type == WLR_POINTER_CONSTRAINT_V1_LOCKED) {
		*dx = 0;
		*dy = 0;
		return;
	}
	/*
	 * Without a region the whole surface is the region, from the request on; wlroots
	 * fills constraint->region only at the surface's next commit. A pointer outside the
	 * region (it changed under it) is not held.
	 */
	const pixman_region32_t *region = pixman_region32_empty(&constraint->region)
		? &constraint->surface->input_region
		: &constraint->region;
	struct wlr_seat_pointer_state *state = &protocols->seat->wlr_seat->pointer_state;
	double x, y;
	if (wlr_region_confine(
		    region, state->sx, state->sy, state->sx + *dx, state->sy + *dy, &x, &y)) {
		*dx = x - state->sx;
		*dy = y - state->sy;
	}
}

/* Relative motion */

void cordon_seat_protocols_relative_motion(
	struct cordon_seat_protocols *protocols, const struct wlr_pointer_motion_event *event) {
	if (!protocols) {
		return;
	}
	wlr_relative_pointer_manager_v1_send_relative_motion(protocols->relative_pointer,
		protocols->seat->wlr_seat, (uint64_t)event->time_msec * 1000, event->delta_x,
		event->delta_y, event->unaccel_dx, event->unaccel_dy);
}

struct cordon_seat_protocols *cordon_seat_protocols_create(struct cordon_seat *seat) {
	struct cordon_seat_protocols *protocols = calloc(1, sizeof(*protocols));
	if (!protocols) {
		return NULL;
	}
	protocols->seat = seat;
	struct wl_display *display = seat->server->display;
	protocols->relative_pointer = wlr_relative_pointer_manager_v1_create(display);
	protocols->cursor_shape = wlr_cursor_shape_manager_v1_create(display, CURSOR_SHAPE_VERSION);
	protocols->pointer_constraints = wlr_pointer_constraints_v1_create(display);
	protocols->shortcuts_inhibit = wlr_keyboard_shortcuts_inhibit_v1_create(display);
	if (!protocols->relative_pointer || !protocols->cursor_shape ||
		!protocols->pointer_constraints || !protocols->shortcuts_inhibit) {
		/* The globals go with the display. */
		free(protocols);
		return NULL;
	}
	protocols->request_set_shape.notify = handle_request_set_shape;
	wl_signal_add(
		&protocols->cursor_shape->events.request_set_shape, &protocols->request_set_shape);
	protocols->active_constraint_destroy.notify = handle_active_constraint_destroy;
	wl_list_init(&protocols->active_constraint_destroy.link);
	protocols->new_constraint.notify = handle_new_constraint;
	wl_signal_add(
		&protocols->pointer_constraints->events.new_constraint, &protocols->new_constraint);
	protocols->new_inhibitor.notify = handle_new_inhibitor;
	wl_signal_add(
		&protocols->shortcuts_inhibit->events.new_inhibitor, &protocols->new_inhibitor);
	struct wlr_seat *wlr_seat = seat->wlr_seat;
	protocols->keyboard_focus_change.notify = handle_keyboard_focus_change;
	wl_signal_add(
		&wlr_seat->keyboard_state.events.focus_change, &protocols->keyboard_focus_change);
	protocols->pointer_focus_change.notify = handle_pointer_focus_change;
	wl_signal_add(
		&wlr_seat->pointer_state.events.focus_change, &protocols->pointer_focus_change);
	return protocols;
}

void cordon_seat_protocols_destroy(struct cordon_seat_protocols *protocols) {
	if (!protocols) {
		return;
	}
	wl_list_remove(&protocols->request_set_shape.link);
	wl_list_remove(&protocols->new_constraint.link);
	wl_list_remove(&protocols->new_inhibitor.link);
	wl_list_remove(&protocols->keyboard_focus_change.link);
	wl_list_remove(&protocols->pointer_focus_change.link);
	wl_list_remove(&protocols->active_constraint_destroy.link);
	free(protocols);
}
