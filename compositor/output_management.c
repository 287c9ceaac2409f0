/*
 * wlr-output-management: publishes the current output configuration and
 * applies or tests the ones clients (wlr-randr, kanshi) send. A configuration
 * is applied to every output or to none.
 */
#include "compositor/output_management.h"

#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_output_swapchain_manager.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/server.h"

/*
 * An output being enabled gets its first frame drawn into a swapchain of the new mode before
 * the commit, as a display needs a buffer to light up; it needs a scene output for that.
 */
static bool render_head(struct wlr_backend_output_state *state,
	struct wlr_output_swapchain_manager *swapchains, struct wlr_scene *scene,
	const struct wlr_output_head_v1_state *head) {
	struct cordon_output *output = state->output->data;
	if (!output || !head->enabled) {
		return true;
	}
	if (!output->scene_output) {
		output->scene_output = wlr_scene_output_create(scene, state->output);
		if (!output->scene_output) {
			return false;
		}
		wlr_scene_output_set_position(output->scene_output, head->x, head->y);
	}
	struct wlr_scene_output_state_options options = {
		.swapchain = wlr_output_swapchain_manager_get_swapchain(swapchains, state->output),
	};
	return wlr_scene_output_build_state(output->scene_output, &state->base, &options);
}

static const struct wlr_output_head_v1_state *head_state_of(
	struct wlr_output_configuration_v1 *config, struct wlr_output *output) {
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		if (head->state.output == output) {
			return &head->state;
		}
	}
	return NULL;
}

/* Places enabled outputs and takes disabled ones out; a failed enable loses its scene output. */
static void update_layout(struct wlr_output_configuration_v1 *config, bool applied) {
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		struct cordon_output *output = head->state.output->data;
		if (!output) {
			continue;
		}
		bool in_layout = applied ? head->state.enabled : output->wlr_output->enabled;
		if (!in_layout) {
			cordon_output_unplace(output);
		} else if (applied &&
			!cordon_output_place(output, head->state.x, head->state.y, false)) {
			wlr_log(WLR_ERROR, "Cannot place output %s", output->wlr_output->name);
		}
	}
}

/* Tests every head together; with commit, applies them all at once or none. */
static bool apply_configuration(struct cordon_output_management *management,
	struct wlr_output_configuration_v1 *config, bool commit) {
	struct cordon_server *server = management->server;
	size_t len = 0;
	struct wlr_backend_output_state *states =
		wlr_output_configuration_v1_build_state(config, &len);
	if (!states) {
		return false;
	}
	struct wlr_output_swapchain_manager swapchains;
	wlr_output_swapchain_manager_init(&swapchains, server->backend);
	bool ok = wlr_output_swapchain_manager_prepare(&swapchains, states, len);
	for (size_t i = 0; ok && i < len; i++) {
		const struct wlr_output_head_v1_state *head =
			head_state_of(config, states[i].output);
		ok = head && render_head(&states[i], &swapchains, server->scene, head);
	}
	if (ok) {
		ok = commit ? wlr_backend_commit(server->backend, states, len)
			    : wlr_backend_test(server->backend, states, len);
	}
	if (ok && commit) {
		wlr_output_swapchain_manager_apply(&swapchains);
	}
	wlr_output_swapchain_manager_finish(&swapchains);
	for (size_t i = 0; i < len; i++) {
		wlr_output_state_finish(&states[i].base);
	}
	free(states);
	/* Scene outputs made for a test, or for a commit that failed, go again. */
	update_layout(config, ok && commit);
	return ok;
}

static void handle_apply(struct wl_listener *listener, void *data) {
	struct cordon_output_management *management = wl_container_of(listener, management, apply);
	struct wlr_output_configuration_v1 *config = data;
	if (apply_configuration(management, config, true)) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_log(WLR_INFO, "An output configuration failed to apply");
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
}

static void handle_test(struct wl_listener *listener, void *data) {
	struct cordon_output_management *management = wl_container_of(listener, management, test);
	struct wlr_output_configuration_v1 *config = data;
	if (apply_configuration(management, config, false)) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
}

/* The layout changed (an output came, went, moved or changed mode). */
static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct cordon_output_management *management =
		wl_container_of(listener, management, layout_change);
	struct cordon_server *server = management->server;
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	if (!config) {
		return;
	}
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_output_configuration_head_v1 *head =
			wlr_output_configuration_head_v1_create(config, output->wlr_output);
		if (!head) {
			continue;
		}
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		head->state.enabled = output->wlr_output->enabled && !wlr_box_empty(&box);
		head->state.x = box.x;
		head->state.y = box.y;
		/* Panels and usable areas follow the output. */
		cordon_layer_shell_arrange(server, output);
	}
	wlr_output_manager_v1_set_configuration(management->manager, config);
}

struct cordon_output_management *cordon_output_management_create(struct cordon_server *server) {
	struct cordon_output_management *management = calloc(1, sizeof(*management));
	if (!management) {
		return NULL;
	}
	management->server = server;
	management->manager = wlr_output_manager_v1_create(server->display);
	if (!management->manager) {
		free(management);
		return NULL;
	}
	management->apply.notify = handle_apply;
	wl_signal_add(&management->manager->events.apply, &management->apply);
	management->test.notify = handle_test;
	wl_signal_add(&management->manager->events.test, &management->test);
	management->layout_change.notify = handle_layout_change;
	wl_signal_add(&server->output_layout->events.change, &management->layout_change);
	return management;
}

void cordon_output_management_destroy(struct cordon_output_management *management) {
	if (!management) {
		return;
	}
	wl_list_remove(&management->apply.link);
	wl_list_remove(&management->test.link);
	wl_list_remove(&management->layout_change.link);
	free(management);
}
