/*
 * Pixels cordon drew on the CPU (portal dialogs, labels, the attention overlay), handed to
 * the scene as a buffer of its own: the image may be drawn again meanwhile, the buffer keeps
 * what was shown. Beside ui_draw.c, which draws them; the compositor uses both.
 */
#include "portals/pixel_buffer.h"

#include <drm_fourcc.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/interfaces/wlr_buffer.h>

struct pixel_buffer {
	struct wlr_buffer base;
	void *data;
	size_t stride;
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

struct wlr_buffer *cordon_pixel_buffer_from_image(pixman_image_t *image) {
	int width = pixman_image_get_width(image);
	int height = pixman_image_get_height(image);
	size_t stride = (size_t)pixman_image_get_stride(image);
	struct pixel_buffer *buffer = calloc(1, sizeof(*buffer));
	void *data = malloc(stride * (size_t)height);
	if (!buffer || !data) {
		free(buffer);
		free(data);
		return NULL;
	}
	memcpy(data, pixman_image_get_data(image), stride * (size_t)height);
	buffer->data = data;
	buffer->stride = stride;
	wlr_buffer_init(&buffer->base, &pixel_buffer_impl, width, height);
	return &buffer->base;
}
