/*
 * wlr-output-management: publishes the current output configuration and
 * applies or tests the ones clients (wlr-randr, kanshi) send. A configuration
 * is applied to every output or to none.
 */
#include "compositor/output_management.h"

#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/util/log.h>

#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/server.h"

static void stage_head(struct wlr_output_configuration_head_v1 *head) {
	struct wlr_output *output = head->state.output;
	wlr_output_enable(output, head->state.enabled);
	if (!head->state.enabled) {
		return;
	}
	if (head->state.mode) {
		wlr_output_set_mode(output, head->state.mode);
	} else {
		wlr_output_set_custom_mode(output, head->state.custom_mode.width,
			head->state.custom_mode.height, head->state.custom_mode.refresh);
	}
	wlr_output_set_transform(output, head->state.transform);
	wlr_output_set_scale(output, head->state.scale);
}

/* Tests every head; with commit, applies them all, rolling back on failure. */
static bool apply_configuration(struct cordon_output_management *management,
	struct wlr_output_configuration_v1 *config, bool commit) {
	struct wlr_output_configuration_head_v1 *head;
	bool ok = true;
	wl_list_for_each(head, &config->heads, link) {
		stage_head(head);
		ok = ok && wlr_output_test(head->state.output);
	}
	wl_list_for_each(head, &config->heads, link) {
		if (ok && commit) {
			ok = wlr_output_commit(head->state.output);
		} else {
			wlr_output_rollback(head->state.output);
		}
	}
	if (!ok || !commit) {
		return ok;
	}
	struct wlr_output_layout *layout = management->server->output_layout;
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *output = head->state.output;
		if (head->state.enabled) {
			wlr_output_layout_add(layout, output, head->state.x, head->state.y);
		} else {
			wlr_output_layout_remove(layout, output);
		}
	}
	return true;
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
