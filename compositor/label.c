/*
 * A sandboxed window's label, in the view's scene tree after the client's surfaces and
 * popups, so that nothing the app draws, whatever subsurface or popup it places there,
 * can cover it. The strip sits above the window geometry and the frame around it, both
 * outside the app's content; the app's own surfaces are clipped to the geometry, so that
 * a window that lies about its geometry cannot show content outside its frame. A
 * fullscreen window shows the label inside its top edge for a moment on entry and when
 * the user presses the attention key (compositor/attention.c). The text is drawn once,
 * and shown at the start of the strip on every output the strip crosses.
 */
#include "compositor/label.h"

#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "portals/pixel_buffer.h"
#include "portals/ui_draw.h"

#define LABEL_FONT "sans-serif:size=10"
#define TEXT_PAD 6
/* The widest text drawn (a 255-byte app id fits); longer text ends in an ellipsis. */
#define TEXT_MAX_WIDTH 2048
/* One text node per output the strip crosses, up to this many outputs. */
#define MAX_TEXT_NODES 8
#define FOCUS_MARK 8

struct cordon_label {
	struct cordon_view *view;
	struct cordon_label_style style;
	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *frame[4];
	struct wlr_scene_rect *strip;
	/* At the strip's right end while the window has the keyboard (the border's cue). */
	struct wlr_scene_rect *focus_mark;
	struct wlr_buffer *text; /* NULL without a font */
	int text_width, text_height;
	struct wlr_scene_buffer *text_nodes[MAX_TEXT_NODES];
	struct wl_event_source *reveal_timer;
	bool revealed;
};

struct cordon_labels *cordon_labels_create(struct cordon_server *server) {
	struct cordon_labels *labels = calloc(1, sizeof(*labels));
	if (labels) {
		labels->server = server;
	}
	return labels;
}

void cordon_labels_destroy(struct cordon_labels *labels) {
	if (!labels) {
		return;
	}
	cordon_ui_font_destroy(labels->font);
	free(labels);
}

struct cordon_ui_font *cordon_labels_font(struct cordon_labels *labels) {
	if (!labels->font && !labels->font_failed) {
		labels->font = cordon_ui_font_load(LABEL_FONT);
		if (!labels->font) {
			labels->font_failed = true;
			wlr_log(WLR_ERROR,
				"No font for window labels: they show their colour only");
		}
	}
	return labels->font;
}

static void float_color(uint32_t rgb, float out[4]) {
	out[0] = (float)(rgb >> 16 & 0xff) / 255.0f;
	out[1] = (float)(rgb >> 8 & 0xff) / 255.0f;
	out[2] = (float)(rgb & 0xff) / 255.0f;
	out[3] = 1.0f;
}

/* The text on the strip's colour, as wide as it is; false without a font (colour only). */
static bool draw_text(struct cordon_label *label) {
	struct cordon_ui_font *font = cordon_labels_font(label->view->server->labels);
	if (!font) {
		return true;
	}
	int height = CORDON_LABEL_STRIP;
	pixman_image_t *image =
		pixman_image_create_bits(PIXMAN_a8r8g8b8, TEXT_MAX_WIDTH, height, NULL, 0);
	if (!image) {
		return false;
	}
	cordon_ui_fill(image, label->style.color, 0, 0, TEXT_MAX_WIDTH, height);
	int top = (height - cordon_ui_font_height(font)) / 2;
	label->text_width = cordon_ui_text(image, font, label->style.text_color, 0,
		top > 0 ? top : 0, TEXT_MAX_WIDTH, label->style.text);
	label->text_height = height;
	if (label->text_width <= 0) {
		pixman_image_unref(image);
		return true;
	}
	/* Only as wide as the text: a window's label costs a few KiB, not the widest text's. */
	pixman_image_t *text =
		pixman_image_create_bits(PIXMAN_a8r8g8b8, label->text_width, height, NULL, 0);
	if (text) {
		pixman_image_composite32(PIXMAN_OP_SRC, image, NULL, text, 0, 0, 0, 0, 0, 0,
			label->text_width, height);
		label->text = cordon_pixel_buffer_from_image(text);
		pixman_image_unref(text);
	}
	pixman_image_unref(image);
	return label->text != NULL;
}

static int handle_reveal_timeout(void *data) {
	struct cordon_label *label = data;
	label->revealed = false;
	cordon_label_update(label);
	return 0;
}

bool cordon_label_create(struct cordon_view *view, struct cordon_label **out) {
	*out = NULL;
	struct cordon_client *owner = cordon_client_from_wl(view->client);
	struct cordon_label_style style;
	cordon_label_style_for_tag(view->server->policy, cordon_client_get_tag(owner),
		cordon_client_is_sandboxed(owner), &style);
	if (!style.shown) {
		return true;
	}
	struct cordon_label *label = calloc(1, sizeof(*label));
	if (!label) {
		return false;
	}
	label->view = view;
	label->style = style;
	label->tree = wlr_scene_tree_create(view->tree);
	label->reveal_timer =
		wl_event_loop_add_timer(view->server->event_loop, handle_reveal_timeout, label);
	if (!label->tree || !label->reveal_timer || !draw_text(label)) {
		cordon_label_destroy(label);
		return false;
	}
	float color[4];
	float_color(style.color, color);
	for (int i = 0; i < 4; i++) {
		label->frame[i] = wlr_scene_rect_create(label->tree, 0, 0, color);
		if (!label->frame[i]) {
			cordon_label_destroy(label);
			return false;
		}
	}
	label->strip = wlr_scene_rect_create(label->tree, 0, 0, color);
	float mark_color[4];
	float_color(style.text_color, mark_color);
	label->focus_mark = wlr_scene_rect_create(label->tree, FOCUS_MARK, FOCUS_MARK, mark_color);
	if (!label->strip || !label->focus_mark) {
		cordon_label_destroy(label);
		return false;
	}
	for (int i = 0; label->text && i < MAX_TEXT_NODES; i++) {
		label->text_nodes[i] = wlr_scene_buffer_create(label->tree, label->text);
		if (!label->text_nodes[i]) {
			cordon_label_destroy(label);
			return false;
		}
	}
	wlr_log(WLR_DEBUG, "View %u labelled %s in %06x", view->id, cordon_log_text(style.text),
		style.color);
	*out = label;
	return true;
}

void cordon_label_destroy(struct cordon_label *label) {
	if (!label) {
		return;
	}
	if (label->reveal_timer) {
		wl_event_source_remove(label->reveal_timer);
	}
	/* The view's tree may be gone already: scene nodes go with it. */
	if (label->tree) {
		wlr_scene_node_destroy(&label->tree->node);
	}
	if (label->text) {
		wlr_buffer_drop(label->text);
	}
	free(label);
}

bool cordon_label_client_color(
	struct cordon_server *server, struct wl_client *client, uint32_t *color) {
	struct cordon_client *owner = cordon_client_from_wl(client);
	struct cordon_label_style style;
	cordon_label_style_for_tag(server->policy, cordon_client_get_tag(owner),
		cordon_client_is_sandboxed(owner), &style);
	*color = style.color;
	return style.shown;
}

void cordon_label_insets(const struct cordon_view *view, int *top, int *side) {
	*top = view->label ? CORDON_LABEL_FRAME + CORDON_LABEL_STRIP : 0;
	*side = view->label ? CORDON_LABEL_FRAME : 0;
}

bool cordon_label_is_shown(const struct cordon_label *label) {
	return !label->view->fullscreen || label->revealed;
}

const struct cordon_label_style *cordon_label_get_style(const struct cordon_label *label) {
	return &label->style;
}

void cordon_label_reveal(struct cordon_label *label) {
	label->revealed = true;
	wl_event_source_timer_update(label->reveal_timer, CORDON_LABEL_REVEAL_MS);
	cordon_label_update(label);
}

/*
 * The app's surfaces end at its window geometry: what it draws outside (a shadow, or a
 * second "window" beside a tiny geometry) would be outside the label's frame. Popups are
 * not clipped (they are placed by the compositor and framed in xdg_shell.c).
 */
static void clip_to_geometry(struct cordon_view *view) {
	struct wl_list *children = &view->surface_tree->children;
	if (wl_list_empty(children)) {
		return;
	}
	/* The shell made the toplevel's subsurface tree first (wlr_scene_xdg_surface_create,
	 * or xwayland_view.c at map). */
	struct wlr_scene_node *surfaces = wl_container_of(children->next, surfaces, link);
	struct wlr_box clip;
	view->impl->get_geometry(view, &clip);
	if (clip.width <= 0 || clip.height <= 0) {
		clip = (struct wlr_box){0, 0, 1, 1};
	}
	wlr_scene_subsurface_tree_set_clip(surfaces, &clip);
}

/* Whether any of the strip's row, outside above the window, is on an output. */
static bool strip_fits_outside(struct cordon_view *view, const struct wlr_box *strip) {
	int y = view->y + strip->y + strip->height / 2;
	struct cordon_output *output;
	wl_list_for_each(output, &view->server->outputs, link) {
		if (!output->scene_output) {
			continue;
		}
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		int x = view->x + strip->x;
		if (y >= box.y && y < box.y + box.height && x < box.x + box.width &&
			x + strip->width > box.x) {
			return true;
		}
	}
	return false;
}

/* The text at the start of the strip's part on each output, cut where that part ends. */
static void place_text(struct cordon_label *label, const struct wlr_box *strip) {
	struct cordon_view *view = label->view;
	struct wlr_box layout_strip = {
		view->x + strip->x, view->y + strip->y, strip->width, strip->height};
	int count = 0;
	struct cordon_output *output;
	wl_list_for_each(output, &view->server->outputs, link) {
		if (!output->scene_output || count >= MAX_TEXT_NODES || !label->text) {
			continue;
		}
		struct wlr_box box, part;
		cordon_output_get_box(output, &box);
		if (!wlr_box_intersection(&part, &layout_strip, &box)) {
			continue;
		}
		/* Room for the focus mark at the end, which is never covered. */
		int width = part.width - 3 * TEXT_PAD - FOCUS_MARK;
		if (width > label->text_width) {
			width = label->text_width;
		}
		if (width <= 0) {
			continue;
		}
		struct wlr_scene_buffer *node = label->text_nodes[count++];
		wlr_scene_buffer_set_source_box(
			node, &(struct wlr_fbox){0, 0, width, label->text_height});
		wlr_scene_buffer_set_dest_size(node, width, label->text_height);
		wlr_scene_node_set_position(
			&node->node, part.x + TEXT_PAD - view->x, part.y - view->y);
		wlr_scene_node_set_enabled(&node->node, true);
	}
	for (int i = count; i < MAX_TEXT_NODES; i++) {
		if (label->text_nodes[i]) {
			wlr_scene_node_set_enabled(&label->text_nodes[i]->node, false);
		}
	}
}

void cordon_label_update(struct cordon_label *label) {
	struct cordon_view *view = label->view;
	clip_to_geometry(view);
	bool shown = cordon_label_is_shown(label);
	wlr_scene_node_set_enabled(&label->tree->node, shown);
	if (!shown) {
		return;
	}
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	int w = box.width, h = box.height, f = CORDON_LABEL_FRAME, s = CORDON_LABEL_STRIP;
	/* As wide as its text at least: a tiny window still says whose it is. */
	int strip_width = w + 2 * f;
	if (label->text && strip_width < label->text_width + 3 * TEXT_PAD + FOCUS_MARK) {
		strip_width = label->text_width + 3 * TEXT_PAD + FOCUS_MARK;
	}
	struct wlr_box strip = {-f, -f - s, strip_width, s};
	struct wlr_box edges[4] = {
		{-f, -f, w + 2 * f, f},
		{-f, h, w + 2 * f, f},
		{-f, 0, f, h},
		{w, 0, f, h},
	};
	if (view->fullscreen || !strip_fits_outside(view, &strip)) {
		/* Nothing outside is on screen: the label goes inside the window's edges. */
		strip = (struct wlr_box){0, 0, w, s};
		edges[0] = (struct wlr_box){0, s, w, f};
		edges[1] = (struct wlr_box){0, h - f, w, f};
		edges[2] = (struct wlr_box){0, s, f, h - s};
		edges[3] = (struct wlr_box){w - f, s, f, h - s};
	}
	for (int i = 0; i < 4; i++) {
		wlr_scene_node_set_position(&label->frame[i]->node, edges[i].x, edges[i].y);
		wlr_scene_rect_set_size(label->frame[i], edges[i].width > 0 ? edges[i].width : 0,
			edges[i].height > 0 ? edges[i].height : 0);
	}
	wlr_scene_node_set_position(&label->strip->node, strip.x, strip.y);
	wlr_scene_rect_set_size(label->strip, strip.width > 0 ? strip.width : 0, strip.height);
	bool focused = view->server->seat->focused_view == view;
	wlr_scene_node_set_enabled(
		&label->focus_mark->node, focused && strip.width > 2 * FOCUS_MARK + TEXT_PAD);
	wlr_scene_node_set_position(&label->focus_mark->node,
		strip.x + strip.width - FOCUS_MARK - TEXT_PAD,
		strip.y + (strip.height - FOCUS_MARK) / 2);
	place_text(label, &strip);
}

void cordon_label_place_popup_frame(struct wlr_scene_rect *frame[4], int width, int height) {
	int f = CORDON_LABEL_POPUP_FRAME;
	const struct wlr_box edges[4] = {
		{-f, -f, width + 2 * f, f},
		{-f, height, width + 2 * f, f},
		{-f, 0, f, height},
		{width, 0, f, height},
	};
	for (int i = 0; i < 4; i++) {
		if (frame[i]) {
			wlr_scene_node_set_position(&frame[i]->node, edges[i].x, edges[i].y);
			wlr_scene_rect_set_size(frame[i], edges[i].width, edges[i].height);
		}
	}
}
