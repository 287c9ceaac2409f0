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
struct cordon_file_grants;

/* Hears the user's presses, delivered input and focus changes from ROUTER. */
struct cordon_selection *cordon_selection_create(struct cordon_server *server,
	struct wlr_seat *wlr_seat, struct cordon_input_router *router);
void cordon_selection_destroy(struct cordon_selection *selection);

const struct cordon_transfer_log *cordon_selection_get_log(
	const struct cordon_selection *selection);

/* What one selection holds now, and what its offer to the focused client is. */
struct cordon_selection_status {
	bool has_source; /* the rest is empty without one */
	char source[CORDON_TRANSFER_TAG_MAX]; /* the owner's tag: "host", "flatpak:org.x.App/1" */
	const struct wl_array *mime_types; /* the source's types (char *); until the loop runs */
	/* The client with keyboard focus (or the host's data-control readers, with none) the
	 * offer was last decided for, and the decision. */
	char decided_for[CORDON_TRANSFER_TAG_MAX];
	struct cordon_offer_decision decision;
};
void cordon_selection_get_status(struct cordon_selection *selection,
	enum cordon_selection_kind kind, struct cordon_selection_status *status);

/* The file grants of pastes and drops (file_grants.c); NULL before the loop's first turn. */
struct cordon_file_grants *cordon_selection_get_file_grants(
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

/*
 * A view (a wlr_data_source for the clipboard, a wlr_primary_selection_source for the
 * primary selection) was put on the seat for the focused client, destination.
 * from_destination: the selection is the destination's own (same side, fds passed through).
 * The view lives until the seat replaces it (its destroy signal).
 */
struct cordon_selection_view_event {
	enum cordon_selection_kind kind;
	void *view;
	struct wl_client *destination;
	bool from_destination;
};
void cordon_selection_add_view_listener(
	struct cordon_selection *selection, struct wl_listener *listener);
/*
 * Serves reader from a view as if it had asked through the seat: the view's decision for
 * its destination, another reader decided again. For readers that are no Wayland request
 * (an X server's window manager). Takes fd.
 */
void cordon_selection_view_send_to(struct cordon_selection *selection,
	enum cordon_selection_kind kind, void *view, struct wl_client *reader,
	const char *mime_type, int fd);
/*
 * An X server's window manager set a selection for one of its X clients: taken as the X
 * server's source under the rule for a set_selection across a boundary, with the X server's
 * latest input event as the serial (X has none cordon could check): for a sandbox's X
 * server, keyboard focus and a press within 10 s. x_server is the X server's Wayland client
 * (NULL if it is gone: then refused), x_tag its tag. A refused source is destroyed and the
 * refusal logged. Returns whether it was taken.
 */
bool cordon_selection_set_from_x11(struct cordon_selection *selection,
	enum cordon_selection_kind kind, void *source, struct wl_client *x_server,
	const struct cordon_tag *x_tag);

#endif
