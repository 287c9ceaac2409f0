/*
 * Outputs: each wlr_output gets a mode, a place in the layout and a scene
 * output; its frame event is when the scene is rendered and clients are told
 * that their last frame was shown.
 */
#include "compositor/output.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "compositor/freeze.h"
#include "compositor/globals.h"
#include "compositor/headless_pacing.h"
#include "compositor/idle_inhibit.h"
#include "compositor/layer_shell.h"
#include "compositor/occlusion.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

static void handle_frame(struct wl_listener *listener, void *data) {
	struct cordon_output *output = wl_container_of(listener, output, frame);
	/* The scene draws everything enabled: hide what is covered first. */
	cordon_occlusion_update(output->server);
	/* A dialog may have appeared under an app's cursor image: only cordon's is shown there. */
	cordon_seat_check_cursor(output->server->seat);
	wlr_scene_output_commit(output->scene_output);
	/* What is shown has just been decided: only inhibitors on shown surfaces count. */
	cordon_idle_inhibit_update(output->server->globals->idle_inhibit);

	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	cordon_freeze_send_frame_done(output->server, output->scene_output, &now);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_output *output = wl_container_of(listener, output, destroy);
	struct cordon_server *server = output->server;
	cordon_headless_pacing_destroy(output->headless_pacing);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	wl_list_remove(&output->link);
	cordon_layer_shell_output_destroyed(server, output);
	output->wlr_output->data = NULL;
	/* The layout and scene drop the output through their own destroy listeners. */
	free(output);
	cordon_view_focus_top(server);
}

static bool enable_output(struct wlr_output *wlr_output) {
	wlr_output_enable(wlr_output, true);
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode) {
		wlr_output_set_mode(wlr_output, mode);
	}
	if (wlr_output_commit(wlr_output)) {
		return true;
	}
	/* Some outputs reject their preferred mode; try the others. */
	wl_list_for_each(mode, &wlr_output->modes, link) {
		wlr_output_set_mode(wlr_output, mode);
		if (wlr_output_commit(wlr_output)) {
			return true;
		}
	}
	return false;
}

void cordon_output_handle_new(struct cordon_server *server, struct wlr_output *wlr_output) {
	if (!wlr_output_init_render(wlr_output, server->allocator, server->renderer)) {
		wlr_log(WLR_ERROR, "Cannot initialise rendering on output %s", wlr_output->name);
		return;
	}
	if (!enable_output(wlr_output)) {
		wlr_log(WLR_ERROR, "Cannot enable output %s", wlr_output->name);
		return;
	}

	struct cordon_output *output = calloc(1, sizeof(*output));
	if (!output) {
		return;
	}
	output->server = server;
	output->wlr_output = wlr_output;
	wl_list_init(&output->layer_surfaces);
	wlr_output->data = output;
	/*
	 * Before the layout and scene add theirs: destroy listeners run in the order they were
	 * added, and what lived on an unplugged output (layer surfaces, unmapped here) damages
	 * the scene output, whose damage tracker goes in its own destroy listener.
	 */
	output->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	/* The scene mirrors the layout: adding the output creates its scene output. */
	wlr_output_layout_add_auto(server->output_layout, wlr_output);
	output->scene_output = wlr_scene_get_scene_output(server->scene, wlr_output);
	if (!output->scene_output) {
		wlr_log(WLR_ERROR, "No scene output for %s", wlr_output->name);
		wl_list_remove(&output->destroy.link);
		wlr_output_layout_remove(server->output_layout, wlr_output);
		wlr_output->data = NULL;
		free(output);
		return;
	}
	output->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->headless_pacing = cordon_headless_pacing_create(wlr_output, server->event_loop);
	wl_list_insert(server->outputs.prev, &output->link);
	cordon_output_get_box(output, &output->usable_area);
	wlr_log(WLR_INFO, "Output %s: %dx%d", wlr_output->name, wlr_output->width,
		wlr_output->height);
}

void cordon_output_get_box(struct cordon_output *output, struct wlr_box *box) {
	struct wlr_box *layout_box =
		wlr_output_layout_get_box(output->server->output_layout, output->wlr_output);
	*box = layout_box ? *layout_box : (struct wlr_box){0};
}

struct cordon_output *cordon_output_at(struct cordon_server *server, double lx, double ly) {
	struct wlr_output *wlr_output = wlr_output_layout_output_at(server->output_layout, lx, ly);
	if (wlr_output && wlr_output->data) {
		return wlr_output->data;
	}
	if (wl_list_empty(&server->outputs)) {
		return NULL;
	}
	struct cordon_output *first = wl_container_of(server->outputs.next, first, link);
	return first;
}

struct cordon_output *cordon_output_by_name(struct cordon_server *server, const char *name) {
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		if (strcmp(output->wlr_output->name, name) == 0) {
			return output;
		}
	}
	return NULL;
}
