/* cordon_x11_manager_v1: per-sandbox X displays that a launcher asks for (docs/x11.md). */
#ifndef CORDON_COMPOSITOR_X11_DISPLAY_H
#define CORDON_COMPOSITOR_X11_DISPLAY_H

#include <stdbool.h>

struct cordon_server;
struct cordon_xwayland;
struct wl_global;
struct wlr_seat;

/*
 * The caps on displays: each holds an X server process once used, its listening sockets,
 * a private seat and the launcher's close fd. An app runs one per instance; a few dozen
 * instances of X11 apps at once is far beyond a desktop's use. With the host's, 33 X servers:
 * as many display numbers as wlroots tries (:0 to :32).
 */
#define CORDON_X11_DISPLAYS_PER_APP 8
#define CORDON_X11_DISPLAYS_MAX 32

struct cordon_x11_displays;

/* Creates the manager global. NULL on failure (logged). */
struct cordon_x11_displays *cordon_x11_displays_create(struct cordon_server *server);
/* Ends every display (their X servers and sockets go) and the global. Accepts NULL. */
void cordon_x11_displays_destroy(struct cordon_x11_displays *displays);

/*
 * Whether this global is one of the displays' private seats (or the wl_seat global being
 * created for one right now): a seat only their X window managers use, which no client at
 * all may see or bind.
 */
bool cordon_x11_displays_global_is_private(
	const struct cordon_x11_displays *displays, const struct wl_global *global);

/* How many displays exist, for tests and `cordonctl` (0 for NULL). */
int cordon_x11_displays_count(const struct cordon_x11_displays *displays);

#endif
