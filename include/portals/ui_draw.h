/* Drawing for the built-in portal dialog: rectangles and text (fcft, fontconfig) on pixman. */
#ifndef CORDON_PORTALS_UI_DRAW_H
#define CORDON_PORTALS_UI_DRAW_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>

struct cordon_ui_font;

/* A font by fontconfig name ("DejaVu Sans:size=11"); NULL when none can be loaded. */
struct cordon_ui_font *cordon_ui_font_load(const char *name);
void cordon_ui_font_destroy(struct cordon_ui_font *font);
int cordon_ui_font_height(const struct cordon_ui_font *font);

/* 0xRRGGBB, opaque. */
void cordon_ui_fill(pixman_image_t *image, uint32_t rgb, int x, int y, int width, int height);
/*
 * Draws UTF-8 TEXT with its top-left at X, Y, clipped to MAX_WIDTH pixels (an
 * ellipsis marks the cut). Returns the width drawn. Invalid UTF-8 shows as U+FFFD.
 */
int cordon_ui_text(pixman_image_t *image, struct cordon_ui_font *font, uint32_t rgb, int x, int y,
	int max_width, const char *text);

#endif
