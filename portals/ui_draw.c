/*
 * Text and rectangles for the built-in dialog. Glyphs come from fcft (FreeType
 * and fontconfig, as in foot), one code point at a time; an alpha glyph is a
 * mask for a solid colour, a colour glyph (emoji) is composited as it is.
 * fcft is loaded with the first font and unloaded with the last
 * (portals/font_library.c): each font holds a reference.
 */
#include "portals/ui_draw.h"

#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "portals/font_library.h"

struct cordon_ui_font {
	const struct cordon_font_library *fcft;
	struct fcft_font *font;
};

struct cordon_ui_font *cordon_ui_font_load(const char *name) {
	const struct cordon_font_library *fcft = cordon_font_library_ref();
	if (!fcft) {
		return NULL;
	}
	const char *names[] = {name, "sans-serif"};
	struct fcft_font *font = fcft->fcft_from_name(2, names, NULL);
	struct cordon_ui_font *ui_font = font ? calloc(1, sizeof(*ui_font)) : NULL;
	if (!ui_font) {
		if (font) {
			fcft->fcft_destroy(font);
		}
		cordon_font_library_unref();
		return NULL;
	}
	ui_font->fcft = fcft;
	ui_font->font = font;
	return ui_font;
}

void cordon_ui_font_destroy(struct cordon_ui_font *font) {
	if (!font) {
		return;
	}
	font->fcft->fcft_destroy(font->font);
	free(font);
	cordon_font_library_unref();
}

int cordon_ui_font_height(const struct cordon_ui_font *font) {
	return font->font->height;
}

static pixman_color_t color_of(uint32_t rgb) {
	uint16_t r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
	return (pixman_color_t){r * 0x101, g * 0x101, b * 0x101, 0xffff};
}

void cordon_ui_fill(pixman_image_t *image, uint32_t rgb, int x, int y, int width, int height) {
	if (width <= 0 || height <= 0) {
		return;
	}
	pixman_color_t color = color_of(rgb);
	pixman_box32_t box = {x, y, x + width, y + height};
	pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &color, 1, &box);
}

/* The next code point of UTF-8 text; malformed bytes give U+FFFD and move on by one. */
static uint32_t next_code_point(const char **text) {
	const unsigned char *s = (const unsigned char *)*text;
	uint32_t cp;
	int extra;
	if (s[0] < 0x80) {
		cp = s[0];
		extra = 0;
	} else if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		extra = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		extra = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		extra = 3;
	} else {
		(*text)++;
		return 0xfffd;
	}
	for (int i = 1; i <= extra; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			(*text)++;
			return 0xfffd;
		}
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	*text += extra + 1;
	/* Control characters from an app's title must not show as anything but a box. */
	return cp < 0x20 || cp == 0x7f ? 0xfffd : cp;
}

static const struct fcft_glyph *glyph_of(struct cordon_ui_font *font, uint32_t cp) {
	return font->fcft->fcft_rasterize_char_utf32(font->font, cp, FCFT_SUBPIXEL_NONE);
}

static int glyph_advance(struct cordon_ui_font *font, uint32_t cp) {
	const struct fcft_glyph *glyph = glyph_of(font, cp);
	return glyph ? glyph->advance.x : 0;
}

static void draw_glyph(pixman_image_t *image, pixman_image_t *color, struct cordon_ui_font *font,
	uint32_t cp, int x, int baseline) {
	const struct fcft_glyph *glyph = glyph_of(font, cp);
	if (!glyph) {
		return;
	}
	if (pixman_image_get_format(glyph->pix) == PIXMAN_a8r8g8b8) {
		pixman_image_composite32(PIXMAN_OP_OVER, glyph->pix, NULL, image, 0, 0, 0, 0,
			x + glyph->x, baseline - glyph->y, glyph->width, glyph->height);
	} else {
		pixman_image_composite32(PIXMAN_OP_OVER, color, glyph->pix, image, 0, 0, 0, 0,
			x + glyph->x, baseline - glyph->y, glyph->width, glyph->height);
	}
}

int cordon_ui_text(pixman_image_t *image, struct cordon_ui_font *font, uint32_t rgb, int x, int y,
	int max_width, const char *text) {
	pixman_color_t c = color_of(rgb);
	pixman_image_t *color = pixman_image_create_solid_fill(&c);
	if (!color) {
		return 0;
	}
	int baseline = y + font->font->ascent;
	int ellipsis = glyph_advance(font, 0x2026);
	int pen = x;
	/* File names and app ids are drawn as cordonctl prints them: a control, bidi override
	 * or line separator shows as its escape, never as an invisible glyph that makes one
	 * name look like another. */
	char escaped[1024];
	const char *s = cordon_escape(escaped, sizeof(escaped), text, 0);
	while (*s) {
		const char *rest = s;
		uint32_t cp = next_code_point(&rest);
		int advance = glyph_advance(font, cp);
		/* Leave room for the ellipsis unless this is the last character. */
		bool last = *rest == '\0';
		if (pen + advance > x + max_width - (last ? 0 : ellipsis)) {
			draw_glyph(image, color, font, 0x2026, pen, baseline);
			pen += ellipsis;
			break;
		}
		draw_glyph(image, color, font, cp, pen, baseline);
		pen += advance;
		s = rest;
	}
	pixman_image_unref(color);
	return pen - x;
}
