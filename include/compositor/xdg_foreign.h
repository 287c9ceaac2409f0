/* xdg-foreign-v2: apps export their toplevels so a portal dialog can name its parent window. */
#ifndef CORDON_COMPOSITOR_XDG_FOREIGN_H
#define CORDON_COMPOSITOR_XDG_FOREIGN_H

#include <wayland-server-core.h>

struct cordon_xdg_foreign;

/* The exporter and importer globals and their registry; NULL after logging why. */
struct cordon_xdg_foreign *cordon_xdg_foreign_create(struct wl_display *display);
/* After the display: wlroots ends the globals and the registry with it. */
void cordon_xdg_foreign_destroy(struct cordon_xdg_foreign *foreign);

/* The xdg_toplevel resource exported as HANDLE, or NULL (unknown, gone, not a toplevel). */
struct wl_resource *cordon_xdg_foreign_lookup(
	struct cordon_xdg_foreign *foreign, const char *handle);

#endif
