/*
 * The protocol globals a desktop expects beyond the shell: clipboards,
 * output information, screen capture, virtual input, activation, idle.
 */
#ifndef CORDON_COMPOSITOR_GLOBALS_H
#define CORDON_COMPOSITOR_GLOBALS_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_server;

struct cordon_globals {
	struct cordon_server *server;
	struct wlr_presentation *presentation;
	struct wlr_foreign_toplevel_manager_v1 *foreign_toplevel_manager;
	struct wlr_xdg_activation_v1 *xdg_activation;
	struct wlr_virtual_keyboard_manager_v1 *virtual_keyboard_manager;
	struct wlr_virtual_pointer_manager_v1 *virtual_pointer_manager;
	struct wlr_idle_notifier_v1 *idle_notifier; /* ext-idle-notify-v1 */
	struct cordon_idle_inhibit *idle_inhibit;
	struct cordon_output_management *output_management;
	struct cordon_output_power *output_power;
	struct cordon_text_input_relay *text_input; /* text-input-v3 and input-method-v2 */
	struct cordon_layer_shell *layer_shell;
	struct cordon_decorations *decorations;
	struct wlr_content_type_manager_v1 *content_type;
	struct wlr_xdg_system_bell_v1 *system_bell;
	struct wlr_ext_foreign_toplevel_list_v1 *ext_toplevel_list;
	struct cordon_xdg_dialogs *dialogs;
	struct cordon_image_capture *image_capture;

	struct wl_listener new_virtual_keyboard;
	struct wl_listener new_virtual_pointer;
	struct wl_listener request_activate;
	struct wl_listener ring;
};

struct cordon_globals *cordon_globals_create(struct cordon_server *server);
void cordon_globals_destroy(struct cordon_globals *globals);

/* Tells idle clients the user did something. */
void cordon_globals_notify_activity(struct cordon_globals *globals);

#endif
