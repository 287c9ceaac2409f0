/* wlr-layer-shell: panels, backgrounds and overlays anchored to an output. */
#ifndef CORDON_COMPOSITOR_LAYER_SHELL_H
#define CORDON_COMPOSITOR_LAYER_SHELL_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_server;
struct cordon_output;

struct cordon_layer_shell {
	struct cordon_server *server;
	struct wlr_layer_shell_v1 *wlr_layer_shell;
	struct wl_listener new_surface;
};

struct cordon_layer_surface {
	struct cordon_server *server;
	struct wlr_layer_surface_v1 *wlr_layer_surface;
	struct cordon_output *output; /* NULL once its output is gone */
	struct wlr_scene_tree *tree;
	struct wl_list link; /* cordon_output.layer_surfaces */

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener commit;
	struct wl_listener destroy;
	struct wl_listener new_popup;
};

struct cordon_layer_shell *cordon_layer_shell_create(struct cordon_server *server);
void cordon_layer_shell_destroy(struct cordon_layer_shell *shell);

/* Positions every layer surface of the output and recomputes its usable area. */
void cordon_layer_shell_arrange(struct cordon_server *server, struct cordon_output *output);
/*
 * Whether a shown surface above the windows takes the keyboard exclusively (a lock
 * screen, a launcher): layer-shell lets no window have it meanwhile.
 */
bool cordon_layer_shell_holds_keyboard(struct cordon_server *server);
/* Closes the layer surfaces of an output that is going away. */
void cordon_layer_shell_output_destroyed(
	struct cordon_server *server, struct cordon_output *output);

#endif
