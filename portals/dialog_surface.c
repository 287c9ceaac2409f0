/*
 * A dialog's pixels. The plugin paints a pixman image that cordon owns; each
 * commit copies it into a new wlr_buffer that the dialog's scene buffer node
 * shows, in the portal layer, a tree above every other scene layer, so that no
 * app surface can cover the dialog. Sandboxed clients cannot capture it: screen
 * capture globals are hidden from them (compositor/global_filter.c).
 *
 * Around whatever the plugin painted, cordon draws its own frame: a hatching of
 * yellow and black that no app window ever gets (theirs are labels of one solid
 * colour, compositor/label.c), and for a request a header with what only cordon
 * knows: the requesting app's label colour and name, and the time it asked.
 */
#include "portals/dialog_surface.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/box.h>

#include "portals/host.h"
#include "portals/pixel_buffer.h"
#include "portals/ui_draw.h"

/* Bigger than any output cordon drives; bounds what a plugin can make cordon allocate. */
#define MAX_SIZE 8192
/* Between a corner-placed surface and the output's edges. */
#define PLACEMENT_MARGIN 8
/* The trusted frame: its width, the hatching's stripe width, its colours. */
#define TRUSTED_FRAME 6
#define TRUSTED_STRIPE 6
#define TRUSTED_YELLOW 0xf5c211
#define TRUSTED_BLACK 0x1a1a1a
#define REQUESTER_HEADER 26
#define REQUESTER_SWATCH 14

struct cordon_portal_dialog_surface {
	const struct cordon_portal_host *host;
	struct wlr_scene_tree *layer;
	pixman_image_t *image;
	struct wlr_scene_buffer *node;
	int x, y;
	enum cordon_portal_dialog_placement placement;
	bool has_requester;
	struct cordon_portal_label requester;
	struct timespec asked_at;
};

struct cordon_portal_dialog_surface *cordon_portal_dialog_surface_create(
	const struct cordon_portal_host *host, struct wlr_scene_tree *layer) {
	struct cordon_portal_dialog_surface *surface = calloc(1, sizeof(*surface));
	if (surface) {
		surface->host = host;
		surface->layer = layer;
	}
	return surface;
}

void cordon_portal_dialog_surface_destroy(struct cordon_portal_dialog_surface *surface) {
	if (!surface) {
		return;
	}
	if (surface->node) {
		wlr_scene_node_destroy(&surface->node->node);
	}
	if (surface->image) {
		pixman_image_unref(surface->image);
	}
	free(surface);
}

void cordon_portal_dialog_surface_set_placement(struct cordon_portal_dialog_surface *surface,
	enum cordon_portal_dialog_placement placement) {
	surface->placement = placement;
}

void cordon_portal_dialog_surface_set_requester(struct cordon_portal_dialog_surface *surface,
	const struct cordon_tag *tag, const struct timespec *asked_at) {
	surface->has_requester = true;
	surface->host->label_for_tag(surface->host->data, tag, &surface->requester);
	surface->asked_at = *asked_at;
}

/* Diagonal stripes over the frame's band, so that it reads as no single colour. */
static void draw_hatching(pixman_image_t *image) {
	int width = pixman_image_get_width(image), height = pixman_image_get_height(image);
	uint32_t *data = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;
	for (int y = 0; y < height; y++) {
		bool band_row = y < TRUSTED_FRAME || y >= height - TRUSTED_FRAME;
		for (int x = 0; x < width; x++) {
			if (!band_row && x >= TRUSTED_FRAME && x < width - TRUSTED_FRAME) {
				x = width - TRUSTED_FRAME - 1;
				continue;
			}
			bool yellow = ((x + y) / TRUSTED_STRIPE) % 2 == 0;
			data[y * stride + x] =
				0xff000000u | (yellow ? TRUSTED_YELLOW : TRUSTED_BLACK);
		}
	}
}

static void draw_requester(struct cordon_portal_dialog_surface *surface, pixman_image_t *image) {
	int width = pixman_image_get_width(image) - 2 * TRUSTED_FRAME;
	int top = TRUSTED_FRAME;
	cordon_ui_fill(image, TRUSTED_BLACK, TRUSTED_FRAME, top, width, REQUESTER_HEADER);
	int x = TRUSTED_FRAME + 8;
	const struct cordon_portal_label *style = &surface->requester;
	if (style->shown) {
		cordon_ui_fill(image, style->color, x,
			top + (REQUESTER_HEADER - REQUESTER_SWATCH) / 2, REQUESTER_SWATCH,
			REQUESTER_SWATCH);
		x += REQUESTER_SWATCH + 8;
	}
	struct cordon_ui_font *font = surface->host->label_font(surface->host->data);
	if (!font) {
		return;
	}
	char when[16];
	struct tm tm;
	time_t seconds = surface->asked_at.tv_sec;
	if (!localtime_r(&seconds, &tm) || strftime(when, sizeof(when), "%H:%M:%S", &tm) == 0) {
		snprintf(when, sizeof(when), "?");
	}
	char text[CORDON_PORTAL_LABEL_TEXT_MAX + 64];
	snprintf(text, sizeof(text), "cordon \xc2\xb7 asked by %s at %s",
		style->shown ? style->text : "a host app", when);
	int text_top = top + (REQUESTER_HEADER - cordon_ui_font_height(font)) / 2;
	cordon_ui_text(image, font, 0xffffff, x, text_top > top ? text_top : top,
		TRUSTED_FRAME + width - x - 8, text);
}

/* The plugin's image inside cordon's frame (and header); NULL when memory ran out. */
static pixman_image_t *frame_image(struct cordon_portal_dialog_surface *surface) {
	int width = pixman_image_get_width(surface->image);
	int height = pixman_image_get_height(surface->image);
	int header = surface->has_requester ? REQUESTER_HEADER : 0;
	pixman_image_t *framed = pixman_image_create_bits(PIXMAN_a8r8g8b8,
		width + 2 * TRUSTED_FRAME, height + 2 * TRUSTED_FRAME + header, NULL, 0);
	if (!framed) {
		return NULL;
	}
	draw_hatching(framed);
	if (header) {
		draw_requester(surface, framed);
	}
	pixman_image_composite32(PIXMAN_OP_SRC, surface->image, NULL, framed, 0, 0, 0, 0,
		TRUSTED_FRAME, TRUSTED_FRAME + header, width, height);
	return framed;
}

pixman_image_t *cordon_portal_dialog_surface_get_image(
	struct cordon_portal_dialog_surface *surface, int width, int height) {
	if (width <= 0 || height <= 0 || width > MAX_SIZE || height > MAX_SIZE) {
		return NULL;
	}
	if (surface->image && pixman_image_get_width(surface->image) == width &&
		pixman_image_get_height(surface->image) == height) {
		return surface->image;
	}
	pixman_image_t *image = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, NULL, 0);
	if (!image) {
		return NULL;
	}
	if (surface->image) {
		pixman_image_unref(surface->image);
	}
	surface->image = image;
	return image;
}

/*
 * The box of the output a dialog goes on: its parent window's, where the user was working
 * when the app asked; else the pointer's, where the user is looking; else the first.
 * Found anew at each commit and never kept, so an unplugged output leaves nothing
 * dangling: the next redraw places the dialog on an output that is there.
 */
static bool placement_box(const struct cordon_portal_host *host, struct wl_resource *parent,
	struct wlr_box *output_box) {
	struct wlr_xdg_toplevel *toplevel = parent ? wlr_xdg_toplevel_from_resource(parent) : NULL;
	struct wlr_box window;
	double x = 0, y = 0;
	if (toplevel && host->window_box(host->data, toplevel->base->surface, &window)) {
		x = window.x + window.width / 2.0;
		y = window.y + window.height / 2.0;
	} else if (!host->pointer_position(host->data, &x, &y)) {
		x = y = 0;
	}
	return host->output_box_at(host->data, x, y, output_box);
}

void cordon_portal_dialog_surface_commit(
	struct cordon_portal_dialog_surface *surface, struct wl_resource *parent) {
	if (!surface->image || !surface->layer) {
		return;
	}
	pixman_image_t *framed = frame_image(surface);
	if (!framed) {
		return;
	}
	int height = pixman_image_get_height(framed);
	struct wlr_buffer *buffer = cordon_pixel_buffer_from_image(framed);
	pixman_image_unref(framed);
	if (!buffer) {
		return;
	}
	if (!surface->node) {
		surface->node = wlr_scene_buffer_create(surface->layer, NULL);
	}
	if (surface->node) {
		wlr_scene_buffer_set_buffer(surface->node, buffer);
	}
	/* The node holds its own lock; ours goes, so the buffer dies when it is replaced. */
	wlr_buffer_drop(buffer);
	if (!surface->node) {
		return;
	}
	struct wlr_scene_buffer *node = surface->node;

	struct wlr_box box;
	if (!placement_box(surface->host, parent, &box)) {
		/* No output yet: a size as good as any, until a commit after one appears. */
		box = (struct wlr_box){0, 0, 1280, 720};
	}
	/* The plugin's pixels are placed as they always were; cordon's frame goes around them. */
	int content_width = pixman_image_get_width(surface->image);
	int content_height = pixman_image_get_height(surface->image);
	if (surface->placement == CORDON_PORTAL_DIALOG_TOP_RIGHT) {
		surface->x = box.x + box.width - content_width - PLACEMENT_MARGIN;
		surface->y = box.y + PLACEMENT_MARGIN;
	} else {
		surface->x = box.x + (box.width - content_width) / 2;
		surface->y = box.y + (box.height - content_height) / 2;
	}
	int header = height - content_height - 2 * TRUSTED_FRAME;
	wlr_scene_node_set_position(
		&node->node, surface->x - TRUSTED_FRAME, surface->y - TRUSTED_FRAME - header);
	/* What was drawn last is on top, in the portal layer and of it. */
	wlr_scene_node_raise_to_top(&node->node);
	wlr_scene_node_raise_to_top(&surface->layer->node);
}

bool cordon_portal_dialog_surface_get_box(const struct cordon_portal_dialog_surface *surface,
	int *x, int *y, int *width, int *height) {
	if (!surface->node) {
		return false;
	}
	*x = surface->x;
	*y = surface->y;
	*width = pixman_image_get_width(surface->image);
	*height = pixman_image_get_height(surface->image);
	return true;
}
