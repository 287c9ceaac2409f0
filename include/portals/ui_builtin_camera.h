/* The built-in UI's camera dialog: consent, the choice of provider, a preview
 * (portals/ui_builtin.c). */
#ifndef CORDON_PORTALS_UI_BUILTIN_CAMERA_H
#define CORDON_PORTALS_UI_BUILTIN_CAMERA_H

#include <stdbool.h>
#include <stdint.h>

#include "cordon/portal-ui.h"

struct cordon_ui_font;
struct cordon_ui_camera;

/* Opens and draws the dialog; NULL when it cannot. */
struct cordon_ui_camera *cordon_ui_camera_open(const struct cordon_portal_ui_host *host,
	struct cordon_ui_font *font, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request);
void cordon_ui_camera_close(struct cordon_ui_camera *camera);
/* Draws the dialog again: cordon's grace period began or ended (its buttons). */
void cordon_ui_camera_redraw(struct cordon_ui_camera *camera);
void cordon_ui_camera_key(struct cordon_ui_camera *camera, uint32_t keysym, bool pressed);
void cordon_ui_camera_motion(struct cordon_ui_camera *camera, double x, double y);
void cordon_ui_camera_button(struct cordon_ui_camera *camera, uint32_t button, bool pressed);
/* A preview frame (ABI 3), or NULL once the preview stopped. */
void cordon_ui_camera_preview_frame(
	struct cordon_ui_camera *camera, const struct cordon_portal_ui_frame *frame);

#endif
