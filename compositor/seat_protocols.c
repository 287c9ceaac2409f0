/*
 * The protocols that extend the seat's pointer, each a wlroots implementation wired to
 * the seat under its rules: a cursor shape is the pointer-focused client's choice of
 * image, shown under the same rules as a cursor surface (seat.c); relative motion goes
 * where the pointer's focus is, which a frozen client never has.
 */
#include "compositor/seat_protocols.h"

#include <stdlib.h>
#include <wlr/types/wlr_cursor_shape_v1.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

#include "compositor/seat.h"
#include "compositor/server.h"

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
	if (!protocols->relative_pointer || !protocols->cursor_shape) {
		/* The globals go with the display. */
		free(protocols);
		return NULL;
	}
	protocols->request_set_shape.notify = handle_request_set_shape;
	wl_signal_add(
		&protocols->cursor_shape->events.request_set_shape, &protocols->request_set_shape);
	return protocols;
}

void cordon_seat_protocols_destroy(struct cordon_seat_protocols *protocols) {
	if (!protocols) {
		return;
	}
	wl_list_remove(&protocols->request_set_shape.link);
	free(protocols);
}
