/* The seat's clipboard, primary selection and drags, mediated across sandbox boundaries. */
#ifndef CORDON_COMPOSITOR_SELECTION_H
#define CORDON_COMPOSITOR_SELECTION_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

#include "compositor/selection_policy.h"
#include "compositor/transfer_log.h"

struct cordon_input_router;
struct cordon_server;
struct wlr_seat;
struct wlr_surface;
struct wlr_seat_request_set_selection_event;
struct wlr_seat_request_set_primary_selection_event;
struct wlr_seat_request_start_drag_event;

struct cordon_selection;

/* Hears the user's presses, delivered input and focus changes from ROUTER. */
struct cordon_selection *cordon_selection_create(struct cordon_server *server,
	struct wlr_seat *wlr_seat, struct cordon_input_router *router);
void cordon_selection_destroy(struct cordon_selection *selection);

const struct cordon_transfer_log *cordon_selection_get_log(
	const struct cordon_selection *selection);

/*
 * Who the next selection request or read is from when it does not come as a Wayland
 * request (which names its client itself): an X window manager acting for its X server
 * while it handles that server's X events (xwayland.c).
 */
void cordon_selection_set_requester(struct cordon_selection *selection, struct wl_client *client);

/* The seat's request signals, decided by the policy. */
void cordon_selection_request_set(
	struct cordon_selection *selection, struct wlr_seat_request_set_selection_event *event);
void cordon_selection_request_set_primary(struct cordon_selection *selection,
	struct wlr_seat_request_set_primary_selection_event *event);
/* Starts the drag when the policy allows it; otherwise refuses it. */
void cordon_selection_request_start_drag(
	struct cordon_selection *selection, struct wlr_seat_request_start_drag_event *event);

/*
 * The paste-across shortcut: offers the clipboard to the focused app, even one in
 * explicit mode (after the type filter, through the proxy), until its focus
 * ends; shows a notice naming the app.
 */
void cordon_selection_paste_across(struct cordon_selection *selection);
/*
 * The pointer is about to enter this surface: during a drag, its offer is
 * made now, from the types the policy allows it.
 */
void cordon_selection_drag_will_enter(
	struct cordon_selection *selection, struct wlr_surface *surface);

#endif
