/*
 * keyboard-shortcuts-inhibit: a focused window (a VM viewer, a remote desktop) may take
 * cordon's bindings for itself, but never the secure attention key or VT switching.
 */
#ifndef CORDON_COMPOSITOR_SHORTCUTS_INHIBIT_H
#define CORDON_COMPOSITOR_SHORTCUTS_INHIBIT_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_server;
struct wlr_surface;

struct cordon_shortcuts_inhibit {
	struct cordon_server *server;
	struct wlr_keyboard_shortcuts_inhibit_manager_v1 *manager;
	struct wl_list inhibitors; /* cordon_shortcuts_inhibitor.link */
	struct wl_listener new_inhibitor;
	struct wl_listener focus_will_change; /* the input router's */
};

struct cordon_shortcuts_inhibit *cordon_shortcuts_inhibit_create(struct cordon_server *server);
void cordon_shortcuts_inhibit_destroy(struct cordon_shortcuts_inhibit *inhibit);

/* Whether SURFACE (the keyboard focus) holds an active inhibitor: bindings go to it. */
bool cordon_shortcuts_inhibited(
	struct cordon_shortcuts_inhibit *inhibit, struct wlr_surface *surface);
/*
 * The user took the keyboard back (the attention key): SURFACE's inhibitors stop until
 * the surface gets the keyboard again.
 */
void cordon_shortcuts_inhibit_suspend(
	struct cordon_shortcuts_inhibit *inhibit, struct wlr_surface *surface);

#endif
