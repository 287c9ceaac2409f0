/*
 * A dialog's pixels. The plugin paints a pixman image that cordon owns; each
 * commit copies it into a new wlr_buffer that the dialog's scene buffer node
 * shows, in the portal layer, a tree above every other scene layer, so that no
 * app surface can cover the dialog. Sandboxed clients cannot capture it: screen
 * capture globals are hidden from them (compositor/global_filter.c).
 */
#include "portals/dialog_surface.h"

#include <drm_fourcc.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/interfaces/wlr_buffer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/box.h>

#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* Bigger than any output cordon drives; bounds what a plugin can make cordon allocate. */
#define MAX_SIZE 8192
/* Between a corner-placed surface and the output's edges. */
#define PLACEMENT_MARGIN 8

struct pixel_buffer {
	struct wlr_buffer base;
	void *data;
	size_t stride;
};

struct cordon_portal_dialog_surface {
	struct cordon_server *server;
	struct wlr_scene_tree *layer;
	pixman_image_t *image;
	struct wlr_scene_buffer *node;
	int x, y;
	enum cordon_portal_dialog_placement placement;
};

static void pixel_buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct pixel_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	free(buffer->data);
	free(buffer);
}

static bool pixel_buffer_begin_access(struct wlr_buffer *wlr_buffer, uint32_t flags, void **data,
	uint32_t *format, size_t *stride) {
	struct pixel_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	*data = buffer->data;
	*format = DRM_FORMAT_ARGB8888;
	*stride = buffer->stride;
	return true;
}

static void pixel_buffer_end_access(struct wlr_buffer *wlr_buffer) {
}

static const struct wlr_buffer_impl pixel_buffer_impl = {
	.destroy = pixel_buffer_destroy,
	.begin_data_ptr_access = pixel_buffer_begin_access,
	.end_data_ptr_access = pixel_buffer_end_access,
};

struct cordon_portal_dialog_surface *cordon_portal_dialog_surface_create(
	struct cordon_server *server, struct wlr_scene_tree *layer) {
	struct cordon_portal_dialog_surface *surface = calloc(1, sizeof(*surface));
	if (surface) {
		surface->server = server;
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
 * The output a dialog goes on: its parent window's, where the user was working when
 * the app asked; else the pointer's, where the user is looking; else the first.
 * Found anew at each commit and never kept, so an unplugged output leaves nothing
 * dangling: the next redraw places the dialog on an output that is there.
 */
static struct cordon_output *placement_output(
	struct cordon_server *server, struct wl_resource *parent) {
	struct wlr_xdg_toplevel *toplevel = parent ? wlr_xdg_toplevel_from_resource(parent) : NULL;
	struct cordon_view *view =
		toplevel ? cordon_view_from_surface(server, toplevel->base->surface) : NULL;
	if (view && view->mapped) {
		struct wlr_box box;
		cordon_view_get_box(view, &box);
		return cordon_output_at(server, box.x + box.width / 2.0, box.y + box.height / 2.0);
	}
	if (server->seat) {
		return cordon_output_at(server, server->seat->cursor->x, server->seat->cursor->y);
	}
	return cordon_output_at(server, 0, 0);
}

void cordon_portal_dialog_surface_commit(
	struct cordon_portal_dialog_surface *surface, struct wl_resource *parent) {
	struct cordon_server *server = surface->server;
	if (!surface->image || !surface->layer) {
		return;
	}
	int width = pixman_image_get_width(surface->image);
	int height = pixman_image_get_height(surface->image);
	size_t stride = (size_t)pixman_image_get_stride(surface->image);
	struct pixel_buffer *buffer = calloc(1, sizeof(*buffer));
	void *data = malloc(stride * (size_t)height);
	if (!buffer || !data) {
		free(buffer);
		free(data);
		return;
	}
	memcpy(data, pixman_image_get_data(surface->image), stride * (size_t)height);
	buffer->data = data;
	buffer->stride = stride;
	wlr_buffer_init(&buffer->base, &pixel_buffer_impl, width, height);
	if (!surface->node) {
		surface->node = wlr_scene_buffer_create(surface->layer, NULL);
	}
	if (surface->node) {
		wlr_scene_buffer_set_buffer(surface->node, &buffer->base);
	}
	/* The node holds its own lock; ours goes, so the buffer dies when it is replaced. */
	wlr_buffer_drop(&buffer->base);
	if (!surface->node) {
		return;
	}
	struct wlr_scene_buffer *node = surface->node;

	struct wlr_box box = {0, 0, 1280, 720};
	struct cordon_output *output = placement_output(server, parent);
	if (output) {
		cordon_output_get_box(output, &box);
	}
	if (surface->placement == CORDON_PORTAL_DIALOG_TOP_RIGHT) {
		surface->x = box.x + box.width - width - PLACEMENT_MARGIN;
		surface->y = box.y + PLACEMENT_MARGIN;
	} else {
		surface->x = box.x + (box.width - width) / 2;
		surface->y = box.y + (box.height - height) / 2;
	}
	wlr_scene_node_set_position(&node->node, surface->x, surface->y);
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
