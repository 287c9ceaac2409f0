/* xdg-shell: toplevels become views, popups hang below their parent. */
#ifndef CORDON_COMPOSITOR_XDG_SHELL_H
#define CORDON_COMPOSITOR_XDG_SHELL_H

struct cordon_server;
struct wlr_xdg_popup;
struct wlr_xdg_toplevel;

void cordon_xdg_shell_handle_new_toplevel(
	struct cordon_server *server, struct wlr_xdg_toplevel *toplevel);
void cordon_xdg_shell_handle_new_popup(struct cordon_server *server, struct wlr_xdg_popup *popup);

/* Gives a popup whose parent is now known its scene tree (layer-shell get_popup). */
void cordon_xdg_shell_attach_popup(struct cordon_server *server, struct wlr_xdg_popup *popup);

#endif
