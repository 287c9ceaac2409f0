/* The protocols that extend the seat's pointer: cursor shapes and relative motion. */
#ifndef CORDON_COMPOSITOR_SEAT_PROTOCOLS_H
#define CORDON_COMPOSITOR_SEAT_PROTOCOLS_H

#include <wayland-server-core.h>

struct cordon_seat;
struct wlr_pointer_motion_event;

struct cordon_seat_protocols {
	struct cordon_seat *seat;
	struct wlr_relative_pointer_manager_v1 *relative_pointer;
	struct wlr_cursor_shape_manager_v1 *cursor_shape;

	struct wl_listener request_set_shape;
};

struct cordon_seat_protocols *cordon_seat_protocols_create(struct cordon_seat *seat);
void cordon_seat_protocols_destroy(struct cordon_seat_protocols *protocols);

/* A motion of a pointer device, before acceleration too, for the pointer-focused client. */
void cordon_seat_protocols_relative_motion(
	struct cordon_seat_protocols *protocols, const struct wlr_pointer_motion_event *event);

#endif
