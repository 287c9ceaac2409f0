/*
 * The desktop globals beyond the shell. Most are wlroots implementations that
 * need nothing from cordon once created; the rest are wired to the seat and
 * the views here. They go away with the display.
 */
#include "compositor/globals.h"

#include <stdlib.h>
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_ext_data_control_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_gamma_control_v1.h>
#include <wlr/types/wlr_idle_notify_v1.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/client.h"
#include "compositor/decoration.h"
#include "compositor/idle_inhibit.h"
#include "compositor/input_router.h"
#include "compositor/layer_shell.h"
#include "compositor/output_management.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* The newest versions wlroots 0.20 implements. */
#define PRESENTATION_VERSION 2
#define EXT_DATA_CONTROL_VERSION 1

static void handle_new_virtual_keyboard(struct wl_listener *listener, void *data) {
	struct cordon_globals *globals = wl_container_of(listener, globals, new_virtual_keyboard);
	struct wlr_virtual_keyboard_v1 *keyboard = data;
	cordon_seat_add_client_keyboard(globals->server->seat, &keyboard->keyboard);
}

static void handle_new_virtual_pointer(struct wl_listener *listener, void *data) {
	struct cordon_globals *globals = wl_container_of(listener, globals, new_virtual_pointer);
	struct wlr_virtual_pointer_v1_new_pointer_event *event = data;
	cordon_seat_add_pointer(globals->server->seat, &event->new_pointer->pointer);
}

static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct cordon_globals *globals = wl_container_of(listener, globals, request_activate);
	struct wlr_xdg_activation_v1_request_activate_event *event = data;
	struct cordon_view *view = cordon_view_from_surface(globals->server, event->surface);
	if (!view) {
		return;
	}
	/* The token must come from the user's input: input_router.c says whether it does. */
	const char *reason = NULL;
	struct cordon_seat *seat = globals->server->seat;
	if (!cordon_input_router_may_activate(seat->router, event->token, view, &reason)) {
		struct cordon_client *client =
			cordon_client_from_wl(wl_resource_get_client(view->xdg_surface->resource));
		const struct cordon_tag *tag = cordon_client_get_tag(client);
		wlr_log(WLR_ERROR, "Refusing activation of view %u (sandbox app '%s'): %s",
			view->id, tag && tag->sandboxed ? tag->app_id : "-", reason);
		return;
	}
	if (!view->mapped) {
		/* Apps may activate before their first map (the launcher's token): focus it then.
		 */
		view->focus_on_map = true;
		return;
	}
	cordon_view_focus(view);
}

void cordon_globals_notify_activity(struct cordon_globals *globals) {
	if (globals && globals->idle_notifier) {
		wlr_idle_notifier_v1_notify_activity(
			globals->idle_notifier, globals->server->seat->wlr_seat);
	}
}

/* The globals that need no wiring: each works on its own once created. */
static bool create_plain_globals(struct wl_display *display, struct cordon_server *server) {
	return wlr_data_device_manager_create(display) &&
		wlr_primary_selection_v1_device_manager_create(display) &&
		wlr_xdg_output_manager_v1_create(display, server->output_layout) &&
		wlr_viewporter_create(display) && wlr_screencopy_manager_v1_create(display) &&
		wlr_export_dmabuf_manager_v1_create(display) &&
		wlr_data_control_manager_v1_create(display) &&
		wlr_ext_data_control_manager_v1_create(display, EXT_DATA_CONTROL_VERSION) &&
		wlr_gamma_control_manager_v1_create(display);
}

struct cordon_globals *cordon_globals_create(struct cordon_server *server) {
	struct cordon_globals *globals = calloc(1, sizeof(*globals));
	if (!globals) {
		return NULL;
	}
	globals->server = server;
	struct wl_display *display = server->display;
	wl_list_init(&globals->new_virtual_keyboard.link);
	wl_list_init(&globals->new_virtual_pointer.link);
	wl_list_init(&globals->request_activate.link);

	if (!create_plain_globals(display, server)) {
		goto error;
	}
	/* The scene reports presentation feedback for the surfaces it draws. */
	globals->presentation = wlr_presentation_create(display, server->backend, PRESENTATION_VERSION);
	globals->foreign_toplevel_manager = wlr_foreign_toplevel_manager_v1_create(display);
	globals->xdg_activation = wlr_xdg_activation_v1_create(display);
	globals->virtual_keyboard_manager = wlr_virtual_keyboard_manager_v1_create(display);
	globals->virtual_pointer_manager = wlr_virtual_pointer_manager_v1_create(display);
	globals->idle_notifier = wlr_idle_notifier_v1_create(display);
	globals->idle_inhibit = cordon_idle_inhibit_create(server);
	globals->output_management = cordon_output_management_create(server);
	globals->layer_shell = cordon_layer_shell_create(server);
	globals->decorations = cordon_decorations_create(server);
	if (!globals->presentation || !globals->foreign_toplevel_manager ||
		!globals->xdg_activation || !globals->virtual_keyboard_manager ||
		!globals->virtual_pointer_manager || !globals->idle_notifier ||
		!globals->idle_inhibit || !globals->output_management || !globals->layer_shell ||
		!globals->decorations) {
		goto error;
	}
	/* A token proves a recent press: it lives no longer than the press counts. */
	globals->xdg_activation->token_timeout_msec = CORDON_ACTIVATION_MAX_AGE_MS;

	globals->new_virtual_keyboard.notify = handle_new_virtual_keyboard;
	wl_signal_add(&globals->virtual_keyboard_manager->events.new_virtual_keyboard,
		&globals->new_virtual_keyboard);
	globals->new_virtual_pointer.notify = handle_new_virtual_pointer;
	wl_signal_add(&globals->virtual_pointer_manager->events.new_virtual_pointer,
		&globals->new_virtual_pointer);
	globals->request_activate.notify = handle_request_activate;
	wl_signal_add(
		&globals->xdg_activation->events.request_activate, &globals->request_activate);
	return globals;

error:
	cordon_globals_destroy(globals);
	return NULL;
}

void cordon_globals_destroy(struct cordon_globals *globals) {
	if (!globals) {
		return;
	}
	wl_list_remove(&globals->new_virtual_keyboard.link);
	wl_list_remove(&globals->new_virtual_pointer.link);
	wl_list_remove(&globals->request_activate.link);
	cordon_decorations_destroy(globals->decorations);
	cordon_idle_inhibit_destroy(globals->idle_inhibit);
	cordon_layer_shell_destroy(globals->layer_shell);
	cordon_output_management_destroy(globals->output_management);
	free(globals);
}
