/* What a window's label says and in which colour: from the owner's tag and the policy only. */
#ifndef CORDON_COMPOSITOR_LABEL_STYLE_H
#define CORDON_COMPOSITOR_LABEL_STYLE_H

#include <stdbool.h>
#include <stdint.h>

#include "sandbox/cgroup_tag.h"

struct cordon_policy;

/* Room for an escaped app id (CORDON_TAG_APP_ID_MAX) and the engine. */
#define CORDON_LABEL_TEXT_MAX 512

/* Unknown sandboxes: a colour the palette never gives an app. */
#define CORDON_LABEL_UNKNOWN_COLOR 0xc01c28

struct cordon_label_style {
	bool shown; /* false: a host app, drawn plain */
	uint32_t color; /* 0xRRGGBB */
	uint32_t text_color; /* black or white, whichever reads on color */
	char text[CORDON_LABEL_TEXT_MAX]; /* printable: escaped, never the app's title */
};

/*
 * The label of a window whose client has TAG (SANDBOXED: cordon_client_is_sandboxed).
 * The colour is the policy's label-color for the app (its section, its profile, the
 * default profile), else one of a palette chosen by the engine and app id; an unknown
 * sandbox is always CORDON_LABEL_UNKNOWN_COLOR. POLICY may be NULL.
 */
void cordon_label_style_for_tag(const struct cordon_policy *policy, const struct cordon_tag *tag,
	bool sandboxed, struct cordon_label_style *style);

/* "#rrggbb" into OUT (8 bytes). */
void cordon_label_color_name(uint32_t color, char out[8]);

#endif
