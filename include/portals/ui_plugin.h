/*
 * The dialog side of the portal host: which UI plugin answers (built in, the auto
 * plugin, or one loaded with dlopen), and each open dialog.
 */
#ifndef CORDON_PORTALS_UI_PLUGIN_H
#define CORDON_PORTALS_UI_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "cordon/portal-ui.h"

struct cordon_portals;
struct cordon_portal_request;
struct cordon_portal_ui;
struct cordon_portal_dialog;

struct cordon_portal_ui_choice {
	const char *name; /* "auto", "none", or a plugin's file name without ".so" */
	const char *plugin_dir; /* where plugins are looked for, or NULL */
	const char *options; /* handed to the plugin's create(), or NULL */
};

/*
 * Picks the UI from the choice ([portal] ui and ui-options), never from the environment. A
 * plugin that cannot be loaded leaves the built-in UI in place, with a log line.
 */
struct cordon_portal_ui *cordon_portal_ui_create(
	struct cordon_portals *portals, const struct cordon_portal_ui_choice *choice);
void cordon_portal_ui_destroy(struct cordon_portal_ui *ui);
/* The plugin's name, for logs and tests. */
const char *cordon_portal_ui_name(const struct cordon_portal_ui *ui);

/* Opens a dialog for the request; NULL when the plugin refused it. */
struct cordon_portal_dialog *cordon_portal_dialog_open(struct cordon_portal_ui *ui,
	struct cordon_portal_request *request, const struct cordon_portal_ui_request *options);
/* Closes the dialog (the plugin's close() runs) without answering the request. */
void cordon_portal_dialog_close(struct cordon_portal_dialog *dialog);

/* A preview frame for the dialog's plugin (ABI 3); NULL: the preview stopped on its own. */
void cordon_portal_dialog_send_preview_frame(
	struct cordon_portal_dialog *dialog, const struct cordon_portal_ui_frame *frame);

/*
 * Whether the dialog has the keyboard and its grace period ([portal] dialog-grace-ms)
 * is over: presses reach it (cordonctl portal-requests shows it as dialog_ready).
 */
bool cordon_portal_dialog_input_ready(const struct cordon_portal_dialog *dialog);
/* Whether the dialog is shown and has the keyboard (in its grace period or not). */
bool cordon_portal_dialog_has_keyboard(const struct cordon_portal_dialog *dialog);

/*
 * Input for the shown dialog (portals/dialog_input.c translates it). Presses within
 * the grace period are dropped here, for every plugin.
 */
bool cordon_portal_ui_has_focus(struct cordon_portal_ui *ui);
void cordon_portal_ui_send_key(struct cordon_portal_ui *ui, uint32_t keysym, uint32_t codepoint,
	bool pressed, uint32_t modifiers);
/* True when the point is over the shown dialog (or a button is held since a press on it). */
bool cordon_portal_ui_send_motion(struct cordon_portal_ui *ui, double lx, double ly);
bool cordon_portal_ui_send_button(
	struct cordon_portal_ui *ui, double lx, double ly, uint32_t button, bool pressed);

/* The plugins cordon carries. ui_auto.c: answers from a file, for tests and kiosks. */
const struct cordon_portal_ui_plugin *cordon_portal_ui_auto_plugin(void);
/* ui_builtin.c: the file chooser drawn by cordon itself. */
const struct cordon_portal_ui_plugin *cordon_portal_ui_builtin_plugin(void);

#endif
