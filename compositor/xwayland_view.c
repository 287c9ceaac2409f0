/*
 * X11 windows. Work in progress: windows are not managed yet (the next commit makes them
 * views), so an X window maps but is not shown.
 */
#include "compositor/xwayland_view.h"

#include <wlr/util/log.h>
#include <wlr/xwayland/xwayland.h>

void cordon_xwayland_view_handle_new_surface(struct cordon_server *server,
	struct cordon_xwayland *xwayland, struct wlr_xwayland_surface *xsurface) {
	wlr_log(WLR_DEBUG, "X window 0x%x (not managed yet)", xsurface->window_id);
}
