/*
 * Window labels: a frame and a strip that cordon draws around every window of a sandboxed
 * app, in the sandbox's colour and naming it as its tag says (docs/security.md, "Labels").
 */
#ifndef CORDON_COMPOSITOR_LABEL_H
#define CORDON_COMPOSITOR_LABEL_H

#include <stdbool.h>

#include "compositor/label_style.h"

struct cordon_server;
struct cordon_view;
struct cordon_ui_font;
struct wlr_scene_tree;

/* The frame's width and the strip's height, in layout pixels. */
#define CORDON_LABEL_FRAME 4
#define CORDON_LABEL_STRIP 22
/* How long a fullscreen window shows its label on entry and on the attention key. */
#define CORDON_LABEL_REVEAL_MS 3000

/* What every label shares: the font, loaded with the first label that has text. */
struct cordon_labels {
	struct cordon_server *server;
	struct cordon_ui_font *font;
	bool font_failed; /* no font could be loaded: labels are colour only */
};

struct cordon_labels *cordon_labels_create(struct cordon_server *server);
void cordon_labels_destroy(struct cordon_labels *labels);
/* The labels' font (loaded on first use); NULL when none can be loaded. */
struct cordon_ui_font *cordon_labels_font(struct cordon_labels *labels);

struct cordon_label;

/*
 * Makes the label of a new view (after its surface tree, so that it is drawn above the
 * view's surfaces and popups) in *LABEL; NULL for a host app's view. False when memory
 * ran out: a sandboxed window is never shown without its label.
 */
bool cordon_label_create(struct cordon_view *view, struct cordon_label **label);
void cordon_label_destroy(struct cordon_label *label);
/* The view moved, resized or changed state (fullscreen, outputs). */
void cordon_label_update(struct cordon_label *label);
/* A fullscreen view shows its label for CORDON_LABEL_REVEAL_MS. */
void cordon_label_reveal(struct cordon_label *label);
/* Whether the label is drawn now (false for a fullscreen view between reveals). */
bool cordon_label_is_shown(const struct cordon_label *label);
const struct cordon_label_style *cordon_label_get_style(const struct cordon_label *label);

/* The label colour of CLIENT's windows; false for a host client (drawn plain). */
struct wl_client;
bool cordon_label_client_color(
	struct cordon_server *server, struct wl_client *client, uint32_t *color);
/* The frame around a sandboxed app's popups and menus, in its label colour. */
#define CORDON_LABEL_POPUP_FRAME 2
/* Places the four rectangles of that frame around a WIDTH x HEIGHT popup (NULL ones skipped). */
struct wlr_scene_rect;
void cordon_label_place_popup_frame(struct wlr_scene_rect *frame[4], int width, int height);

/*
 * Room a label takes outside the window: above (frame and strip) and on each other side.
 * 0 for a view without a label.
 */
void cordon_label_insets(const struct cordon_view *view, int *top, int *side);

#endif
