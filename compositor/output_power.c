/*
 * wlr-output-power-management. Switching an output off disables it but leaves it in the
 * layout, so windows keep their places and come back where they were; switching it on
 * renders a frame into the commit, as a display needs a buffer to light up. The global is
 * host-only (global_filter.c): a sandboxed app could blank the screen under a dialog.
 */
#include "compositor/output_power.h"

#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_power_management_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "compositor/output.h"
#include "compositor/server.h"

static void handle_set_mode(struct wl_listener *listener, void *data) {
	struct wlr_output_power_v1_set_mode_event *event = data;
	struct cordon_output *output = event->output->data;
	bool on = event->mode == ZWLR_OUTPUT_POWER_V1_MODE_ON;
	if (!output || event->output->enabled == on) {
		return;
	}
	if (on && !output->scene_output) {
		/* Out of the layout (wlr-output-management disabled it): not this protocol's to
		 * bring back, it would need a place. */
		wlr_log(WLR_INFO, "Output power: %s is not in the layout; not switched on",
			event->output->name);
		return;
	}
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_enabled(&state, on);
	bool ok = true;
	if (on) {
		ok = wlr_scene_output_build_state(output->scene_output, &state, NULL);
	}
	ok = ok && wlr_output_commit_state(event->output, &state);
	wlr_output_state_finish(&state);
	wlr_log(ok ? WLR_INFO : WLR_ERROR, "Output power: %s %s%s", event->output->name,
		on ? "on" : "off", ok ? "" : " failed");
}

struct cordon_output_power *cordon_output_power_create(struct cordon_server *server) {
	struct cordon_output_power *power = calloc(1, sizeof(*power));
	if (!power) {
		return NULL;
	}
	power->server = server;
	power->manager = wlr_output_power_manager_v1_create(server->display);
	if (!power->manager) {
		free(power);
		return NULL;
	}
	power->set_mode.notify = handle_set_mode;
	wl_signal_add(&power->manager->events.set_mode, &power->set_mode);
	return power;
}

void cordon_output_power_destroy(struct cordon_output_power *power) {
	if (!power) {
		return;
	}
	wl_list_remove(&power->set_mode.link);
	free(power);
}
