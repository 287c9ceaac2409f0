/*
 * Outputs: each wlr_output gets a mode, a place in the layout and a scene
 * output; its frame event is when the scene is rendered and clients are told
 * that their last frame was shown. On the headless backend too, a frame event
 * comes only after a commit or when something asks for one (wlroots 0.16 and
 * later): an idle cordon does not wake up.
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
#include "compositor/idle_inhibit.h"
#include "compositor/layer_shell.h"
#include "compositor/occlusion.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

static void handle_frame(struct wl_listener *listener, void *data) {
	struct cordon_output *output = wl_container_of(listener, output, frame);
	if (!output->scene_output) {
		return; /* disabled, out of the layout */
	}
	/* The scene draws everything enabled: hide what is covered first. */
	cordon_occlusion_update(output->server);
	/* A dialog may have appeared under an app's cursor image: only cordon's is shown there. */
	cordon_seat_check_cursor(output->server->seat);
	wlr_scene_output_commit(output->scene_output, NULL);
	/* What is shown has just been decided: only inhibitors on shown surfaces count. */
	cordon_idle_inhibit_update(output->server->globals->idle_inhibit);

	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	cordon_freeze_send_frame_done(output->server, output->scene_output, &now);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct cordon_output *output = wl_container_of(listener, output, destroy);
	struct cordon_server *server = output->server;
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->request_state.link);
	wl_list_remove(&output->destroy.link);
	wl_list_remove(&output->link);
	/*
	 * Out of the layout and the scene first: what follows moves, shows and focuses windows,
	 * and a surface that entered this output now would listen to it with nothing to end
	 * that (this signal has passed those listeners), which wlroots asserts on. Found by the
	 * Wayland fuzzer.
	 */
	cordon_output_unplace(output);
	cordon_layer_shell_output_destroyed(server, output);
	output->wlr_output->data = NULL;
	/* The layout and scene drop the output through their own destroy listeners. */
	free(output);
	cordon_view_focus_top(server);
}

/* A nested backend's window was resized or closed: it asks for a new state. */
static void handle_request_state(struct wl_listener *listener, void *data) {
	struct cordon_output *output = wl_container_of(listener, output, request_state);
	const struct wlr_output_event_request_state *event = data;
	wlr_output_commit_state(output->wlr_output, event->state);
}

static bool commit_enabled(struct wlr_output *wlr_output, struct wlr_output_mode *mode) {
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_enabled(&state, true);
	if (mode) {
		wlr_output_state_set_mode(&state, mode);
	}
	bool ok = wlr_output_commit_state(wlr_output, &state);
	wlr_output_state_finish(&state);
	return ok;
}

static bool enable_output(struct wlr_output *wlr_output) {
	struct wlr_output_mode *preferred = wlr_output_preferred_mode(wlr_output);
	if (commit_enabled(wlr_output, preferred)) {
		return true;
	}
	/* Some outputs reject their preferred mode; try the others. */
	struct wlr_output_mode *mode;
	wl_list_for_each(mode, &wlr_output->modes, link) {
		if (mode != preferred && commit_enabled(wlr_output, mode)) {
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
	 * Before the layout and scene add theirs (destroy listeners run in the order they were
	 * added): handle_destroy takes the output out of both itself, before what lived on an
	 * unplugged output goes.
	 */
	output->destroy.notify = handle_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	/* Listed before it is placed: the layout's change (output_management.c) lists the heads. */
	wl_list_insert(server->outputs.prev, &output->link);
	output->scene_output = wlr_scene_output_create(server->scene, wlr_output);
	if (!output->scene_output || !cordon_output_place(output, 0, 0, true)) {
		wlr_log(WLR_ERROR, "Cannot add %s to the layout and scene", wlr_output->name);
		if (output->scene_output) {
			wlr_scene_output_destroy(output->scene_output);
		}
		wl_list_remove(&output->link);
		wl_list_remove(&output->destroy.link);
		wlr_output->data = NULL;
		free(output);
		return;
	}
	output->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->request_state.notify = handle_request_state;
	wl_signal_add(&wlr_output->events.request_state, &output->request_state);
	cordon_output_get_box(output, &output->usable_area);
	wlr_log(WLR_INFO, "Output %s: %dx%d", wlr_output->name, wlr_output->width,
		wlr_output->height);
}

bool cordon_output_place(struct cordon_output *output, int x, int y, bool automatic) {
	struct cordon_server *server = output->server;
	bool was_placed = wlr_output_layout_get(server->output_layout, output->wlr_output) != NULL;
	struct wlr_output_layout_output *layout_output = automatic
		? wlr_output_layout_add_auto(server->output_layout, output->wlr_output)
		: wlr_output_layout_add(server->output_layout, output->wlr_output, x, y);
	if (!layout_output) {
		return false;
	}
	if (was_placed) {
		return true; /* moved: its scene output follows already */
	}
	if (!output->scene_output) {
		output->scene_output = wlr_scene_output_create(server->scene, output->wlr_output);
		if (!output->scene_output) {
			wlr_output_layout_remove(server->output_layout, output->wlr_output);
			return false;
		}
	}
	/* From here on the scene output follows the layout, and goes when it leaves it. */
	wlr_scene_output_layout_add_output(
		server->scene_layout, layout_output, output->scene_output);
	return true;
}

void cordon_output_unplace(struct cordon_output *output) {
	struct wlr_output_layout *layout = output->server->output_layout;
	if (wlr_output_layout_get(layout, output->wlr_output)) {
		/* The scene layout destroys the scene output with the layout output. */
		wlr_output_layout_remove(layout, output->wlr_output);
	} else if (output->scene_output) {
		/* Made for a frame before an enable that did not happen. */
		wlr_scene_output_destroy(output->scene_output);
	}
	output->scene_output = NULL;
}

void cordon_output_get_box(struct cordon_output *output, struct wlr_box *box) {
	/* An empty box for an output outside the layout. */
	wlr_output_layout_get_box(output->server->output_layout, output->wlr_output, box);
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
