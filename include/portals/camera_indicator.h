/* The camera-in-use indicator: on screen while any camera stream is open; closing it revokes them.
 */
#ifndef CORDON_PORTALS_CAMERA_INDICATOR_H
#define CORDON_PORTALS_CAMERA_INDICATOR_H

#include <stdbool.h>
#include <stdint.h>

struct cordon_portals;
struct cordon_camera_indicator;

/* NULL when memory ran out. */
struct cordon_camera_indicator *cordon_camera_indicator_create(struct cordon_portals *portals);
void cordon_camera_indicator_destroy(struct cordon_camera_indicator *indicator);

/* The open streams changed: shows, redraws or hides it. */
void cordon_camera_indicator_update(struct cordon_camera_indicator *indicator);

/* Where its close button is, in layout coordinates; false when it is hidden. */
bool cordon_camera_indicator_get_close_box(
	const struct cordon_camera_indicator *indicator, int *x, int *y, int *width, int *height);

/* The pointer at LX, LY: true when it is over the indicator (apps lose pointer focus). */
bool cordon_camera_indicator_handle_motion(
	struct cordon_camera_indicator *indicator, double lx, double ly);
/* A button: true when it is the indicator's (pressed over it, or released after that). */
bool cordon_camera_indicator_handle_button(struct cordon_camera_indicator *indicator, double lx,
	double ly, uint32_t button, bool pressed);

#endif
