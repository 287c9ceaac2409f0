/*
 * A label's words and colour. Everything comes from the tag cordon gave the client when
 * it connected and from the user's policy: never from the window's title or app_id, which
 * the app chooses and may use to pass for another app, or for cordon.
 */
#include "compositor/label_style.h"

#include <stdio.h>
#include <string.h>

#include "common/escape.h"
#include "common/policy.h"

/*
 * Distinct at a glance, dark enough for white text or light enough for black, and none
 * of them red (unknown sandboxes), yellow or black (the hatching of cordon's own dialogs,
 * portals/dialog_surface.c) or the grey and blue of host windows' borders.
 */
static const uint32_t palette[] = {
	0x26a269, /* green */
	0x9141ac, /* purple */
	0xe66100, /* orange */
	0x1a5fb4, /* dark blue */
	0x2190a4, /* teal */
	0xc061cb, /* pink */
	0x865e3c, /* brown */
	0x6b7a1a, /* olive */
};

/* FNV-1a: stable across runs and builds, so an app keeps its colour. */
static uint32_t hash_text(uint32_t hash, const char *text) {
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		hash ^= *c;
		hash *= 16777619u;
	}
	return hash;
}

static uint32_t palette_color(const struct cordon_tag *tag) {
	uint32_t hash = hash_text(2166136261u, cordon_tag_engine_name(tag));
	hash = hash_text(hash, "/");
	hash = hash_text(hash, tag->app_id);
	return palette[hash % (sizeof(palette) / sizeof(palette[0]))];
}

/* Relative luminance in thousandths (Rec. 709 weights), enough to pick black or white. */
static uint32_t text_color_on(uint32_t color) {
	uint32_t r = color >> 16 & 0xff, g = color >> 8 & 0xff, b = color & 0xff;
	uint32_t luma = (2126 * r + 7152 * g + 722 * b) / 10000;
	return luma > 150 ? 0x000000 : 0xffffff;
}

void cordon_label_color_name(uint32_t color, char out[8]) {
	snprintf(out, 8, "#%06x", color & 0xffffff);
}

void cordon_label_style_for_tag(const struct cordon_policy *policy, const struct cordon_tag *tag,
	bool sandboxed, struct cordon_label_style *style) {
	memset(style, 0, sizeof(*style));
	if (!sandboxed && !cordon_tag_is_unknown(tag)) {
		return;
	}
	style->shown = true;
	if (cordon_tag_is_unknown(tag)) {
		style->color = CORDON_LABEL_UNKNOWN_COLOR;
		snprintf(style->text, sizeof(style->text), "unknown sandbox");
	} else {
		if (!policy ||
			!cordon_policy_get_color(policy, tag->app_id[0] ? tag->app_id : NULL, NULL,
				"label-color", &style->color)) {
			style->color = palette_color(tag);
		}
		char app_id[CORDON_LABEL_TEXT_MAX - 72];
		cordon_escape(
			app_id, sizeof(app_id), tag->app_id[0] ? tag->app_id : "(no app id)", 0);
		char engine[64];
		cordon_escape(engine, sizeof(engine), cordon_tag_engine_name(tag), 0);
		snprintf(style->text, sizeof(style->text), "%s \xc2\xb7 %s", app_id, engine);
	}
	style->text_color = text_color_on(style->color);
}
