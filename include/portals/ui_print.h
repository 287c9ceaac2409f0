/* The built-in print dialog (portals/ui_print.c), shown by the built-in UI plugin. */
#ifndef CORDON_PORTALS_UI_PRINT_H
#define CORDON_PORTALS_UI_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "cordon/portal-ui.h"

struct cordon_ui_font;
struct cordon_ui_print;

/* Draws the dialog for a print request; NULL when it cannot (no printers, no memory). */
struct cordon_ui_print *cordon_ui_print_open(const struct cordon_portal_ui_host *host,
	struct cordon_ui_font *font, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request);
struct cordon_portal_ui_dialog *cordon_ui_print_dialog(const struct cordon_ui_print *print);
void cordon_ui_print_close(struct cordon_ui_print *print);
/* Draws the dialog again: cordon's grace period began or ended (its buttons). */
void cordon_ui_print_redraw(struct cordon_ui_print *print);
void cordon_ui_print_key(struct cordon_ui_print *print, uint32_t keysym, uint32_t codepoint,
	bool pressed, uint32_t modifiers);
void cordon_ui_print_motion(struct cordon_ui_print *print, double x, double y);
void cordon_ui_print_button(struct cordon_ui_print *print, uint32_t button, bool pressed);

#endif
