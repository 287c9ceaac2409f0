/*
 * A wlr_buffer holding a copy of a pixman image, for scene nodes cordon draws itself: portal
 * dialogs, the camera indicator, window labels and the attention overlay.
 */
#ifndef CORDON_PORTALS_PIXEL_BUFFER_H
#define CORDON_PORTALS_PIXEL_BUFFER_H

#include <pixman.h>

struct wlr_buffer;

/*
 * A copy of IMAGE (PIXMAN_a8r8g8b8) as an ARGB8888 buffer; NULL when memory ran out. The
 * caller holds one reference: drop it (wlr_buffer_drop) once scene nodes have theirs.
 */
struct wlr_buffer *cordon_pixel_buffer_from_image(pixman_image_t *image);

#endif
