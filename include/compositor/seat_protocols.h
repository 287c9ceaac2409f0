/*
 * The protocols that extend the seat: cursor shapes, relative motion, pointer constraints,
 * keyboard shortcuts inhibition.
 */
#ifndef CORDON_COMPOSITOR_SEAT_PROTOCOLS_H
#define CORDON_COMPOSITOR_SEAT_PROTOCOLS_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_seat;
struct wlr_pointer_motion_event;

struct cordon_seat_protocols {
	struct cordon_seat *seat;
	struct wlr_relative_pointer_manager_v1 *relative_pointer;
	struct wlr_cursor_shape_manager_v1 *cursor_shape;
	struct wlr_pointer_constraints_v1 *pointer_constraints;
	struct wlr_pointer_constraint_v1 *active_constraint; /* NULL: the pointer is free */
	/* Host-only (global_filter.c): an app that takes every key, cordon's bindings too. */
	struct wlr_keyboard_shortcuts_inhibit_manager_v1 *shortcuts_inhibit;

	struct wl_listener request_set_shape;
	struct wl_listener new_constraint;
	struct wl_listener new_inhibitor;
	struct wl_listener active_constraint_destroy;
	struct wl_listener keyboard_focus_change;
	struct wl_listener pointer_focus_change;
};

struct cordon_seat_protocols *cordon_seat_protocols_create(struct cordon_seat *seat);
void cordon_seat_protocols_destroy(struct cordon_seat_protocols *protocols);

/* Whether the surface with the keyboard inhibits cordon's bindings (VT switches still work). */
bool cordon_seat_protocols_shortcuts_inhibited(struct cordon_seat_protocols *protocols);
/* Limits a relative motion by DX, DY to what the active lock or confinement allows. */
void cordon_seat_protocols_constrain_motion(
	struct cordon_seat_protocols *protocols, double *dx, double *dy);
/* A motion of a pointer device, before acceleration too, for the pointer-focused client. */
void cordon_seat_protocols_relative_motion(
	struct cordon_seat_protocols *protocols, const struct wlr_pointer_motion_event *event);

#endif
