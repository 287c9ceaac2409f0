/* Outputs: a wlr_output with its scene output, frame scheduling and layout place. */
#ifndef CORDON_COMPOSITOR_OUTPUT_H
#define CORDON_COMPOSITOR_OUTPUT_H

#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct cordon_server;

struct cordon_output {
	struct cordon_server *server;
	struct wlr_output *wlr_output;
	struct wlr_scene_output *scene_output; /* NULL while out of the layout (disabled) */
	struct wl_list link; /* cordon_server.outputs */
	struct wlr_box usable_area; /* layout coords, minus layer-shell exclusive zones */
	struct wl_list layer_surfaces; /* cordon_layer_surface.link */

	struct wl_listener frame;
	struct wl_listener request_state;
	struct wl_listener destroy;
};

void cordon_output_handle_new(struct cordon_server *server, struct wlr_output *wlr_output);
/* The output under a layout point, or the first one; NULL without outputs. */
struct cordon_output *cordon_output_at(struct cordon_server *server, double lx, double ly);
struct cordon_output *cordon_output_by_name(struct cordon_server *server, const char *name);
void cordon_output_get_box(struct cordon_output *output, struct wlr_box *box);
/*
 * Puts the output in the layout at x, y (or automatically), giving it a scene output that
 * follows it if it has none (it keeps one made beforehand, for a frame rendered before the
 * commit that enables the output). False on failure, with the output left out.
 */
bool cordon_output_place(struct cordon_output *output, int x, int y, bool automatic);
/* Takes the output out of the layout; its scene output goes with it. */
void cordon_output_unplace(struct cordon_output *output);

#endif
