/* The selections of a sandbox's X server, bridged through cordon's mediation (docs/x11.md). */
#ifndef CORDON_COMPOSITOR_XWAYLAND_SELECTION_H
#define CORDON_COMPOSITOR_XWAYLAND_SELECTION_H

struct cordon_server;
struct cordon_xwayland;
struct wlr_seat;

struct cordon_x11_selection;

/*
 * Bridges `seat`, the private seat that the X server's window manager mirrors selections
 * with, to the real seat's mediation (selection.c). NULL when out of memory.
 */
struct cordon_x11_selection *cordon_x11_selection_create(
	struct cordon_server *server, struct cordon_xwayland *xwayland, struct wlr_seat *seat);
/* Withdraws everything the bridge put on the private seat. Accepts NULL. */
void cordon_x11_selection_destroy(struct cordon_x11_selection *bridge);

#endif
