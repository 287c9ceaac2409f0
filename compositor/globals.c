/*
 * The desktop globals beyond the shell. Most are wlroots implementations that
 * need nothing from cordon once created; the rest are wired to the seat and
 * the views here. They go away with the display.
 */
#include "compositor/globals.h"

#include <stdlib.h>
#include <wlr/types/wlr_alpha_modifier_v1.h>
#include <wlr/types/wlr_content_type_v1.h>
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_ext_data_control_v1.h>
#include <wlr/types/wlr_ext_foreign_toplevel_list_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_fractional_scale_v1.h>
#include <wlr/types/wlr_gamma_control_v1.h>
#include <wlr/types/wlr_idle_notify_v1.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_single_pixel_buffer_v1.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/types/wlr_xdg_system_bell_v1.h>
#include <wlr/types/wlr_xdg_toplevel_icon_v1.h>
#include <wlr/util/log.h>

#include "compositor/client.h"
#include "compositor/decoration.h"
#include "compositor/idle_inhibit.h"
#include "compositor/image_capture.h"
#include "compositor/input_router.h"
#include "compositor/layer_shell.h"
#include "compositor/output_management.h"
#include "compositor/output_power.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/text_input.h"
#include "compositor/view.h"
#include "compositor/xdg_dialog.h"

/* The newest versions wlroots 0.20 implements. */
#define PRESENTATION_VERSION 2
#define EXT_DATA_CONTROL_VERSION 1
#define FRACTIONAL_SCALE_VERSION 1
#define CONTENT_TYPE_VERSION 1
#define SYSTEM_BELL_VERSION 1
#define TOPLEVEL_ICON_VERSION 1
#define EXT_FOREIGN_TOPLEVEL_LIST_VERSION 1

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
		struct cordon_client *client = cordon_client_from_wl(view->client);
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

/* cordon makes no sound: the bell is told to the log, with who rang it. */
static void handle_ring(struct wl_listener *listener, void *data) {
	struct cordon_globals *globals = wl_container_of(listener, globals, ring);
	struct wlr_xdg_system_bell_v1_ring_event *event = data;
	const struct cordon_tag *tag = cordon_client_get_tag(cordon_client_from_wl(event->client));
	struct cordon_view *view =
		event->surface ? cordon_view_from_surface(globals->server, event->surface) : NULL;
	wlr_log(WLR_INFO, "Bell from %s '%s', view %u",
		tag && tag->sandboxed ? "sandbox app" : "host app",
		tag && tag->app_id[0] ? tag->app_id : "-", view ? view->id : 0);
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
		wlr_gamma_control_manager_v1_create(display) &&
		wlr_single_pixel_buffer_manager_v1_create(display) &&
		wlr_alpha_modifier_v1_create(display) &&
		/* The scene tells each surface the scale of the outputs it is on. */
		wlr_fractional_scale_manager_v1_create(display, FRACTIONAL_SCALE_VERSION) &&
		/* cordon draws no icons: a window's icon is the app's business alone. */
		wlr_xdg_toplevel_icon_manager_v1_create(display, TOPLEVEL_ICON_VERSION);
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
	wl_list_init(&globals->ring.link);

	if (!create_plain_globals(display, server)) {
		goto error;
	}
	/* The scene reports presentation feedback for the surfaces it draws. */
	globals->presentation =
		wlr_presentation_create(display, server->backend, PRESENTATION_VERSION);
	globals->foreign_toplevel_manager = wlr_foreign_toplevel_manager_v1_create(display);
	globals->xdg_activation = wlr_xdg_activation_v1_create(display);
	globals->virtual_keyboard_manager = wlr_virtual_keyboard_manager_v1_create(display);
	globals->virtual_pointer_manager = wlr_virtual_pointer_manager_v1_create(display);
	globals->idle_notifier = wlr_idle_notifier_v1_create(display);
	globals->idle_inhibit = cordon_idle_inhibit_create(server);
	globals->output_management = cordon_output_management_create(server);
	globals->output_power = cordon_output_power_create(server);
	globals->text_input = cordon_text_input_relay_create(server);
	globals->layer_shell = cordon_layer_shell_create(server);
	globals->decorations = cordon_decorations_create(server);
	globals->content_type = wlr_content_type_manager_v1_create(display, CONTENT_TYPE_VERSION);
	globals->system_bell = wlr_xdg_system_bell_v1_create(display, SYSTEM_BELL_VERSION);
	globals->ext_toplevel_list =
		wlr_ext_foreign_toplevel_list_v1_create(display, EXT_FOREIGN_TOPLEVEL_LIST_VERSION);
	globals->dialogs = cordon_xdg_dialogs_create(server);
	globals->image_capture = cordon_image_capture_create(server);
	if (!globals->content_type || !globals->system_bell || !globals->ext_toplevel_list ||
		!globals->dialogs || !globals->image_capture) {
		goto error;
	}
	if (!globals->presentation || !globals->foreign_toplevel_manager ||
		!globals->xdg_activation || !globals->virtual_keyboard_manager ||
		!globals->virtual_pointer_manager || !globals->idle_notifier ||
		!globals->idle_inhibit || !globals->output_management || !globals->output_power ||
		!globals->text_input || !globals->layer_shell || !globals->decorations) {
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
	globals->ring.notify = handle_ring;
	wl_signal_add(&globals->system_bell->events.ring, &globals->ring);
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
	wl_list_remove(&globals->ring.link);
	cordon_image_capture_destroy(globals->image_capture);
	cordon_xdg_dialogs_destroy(globals->dialogs);
	cordon_decorations_destroy(globals->decorations);
	cordon_idle_inhibit_destroy(globals->idle_inhibit);
	cordon_layer_shell_destroy(globals->layer_shell);
	cordon_output_management_destroy(globals->output_management);
	cordon_output_power_destroy(globals->output_power);
	cordon_text_input_relay_destroy(globals->text_input);
	free(globals);
}
