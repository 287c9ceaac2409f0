/*
 * Screenshots: the output's scene is rendered into a buffer of our own (not
 * the output's, so nothing on screen changes), read back and written as PNG
 * through a temporary file renamed into place.
 */
#include "compositor/screenshot.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/render/allocator.h>
#include <wlr/render/drm_format_set.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>

#include "compositor/ipc.h"
#include "compositor/occlusion.h"
#include "compositor/output.h"
#include "compositor/server.h"

static struct wlr_buffer *create_buffer(struct cordon_server *server, int width, int height) {
	/* Linear first (what software rendering uses), else the implicit modifier. */
	const uint64_t modifiers[] = {DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_INVALID};
	struct wlr_drm_format *format = calloc(1, sizeof(*format) + sizeof(uint64_t));
	if (!format) {
		return NULL;
	}
	struct wlr_buffer *buffer = NULL;
	for (size_t i = 0; i < 2 && !buffer; i++) {
		format->format = DRM_FORMAT_XRGB8888;
		format->len = 1;
		format->capacity = 1;
		format->modifiers[0] = modifiers[i];
		buffer = wlr_allocator_create_buffer(server->allocator, width, height, format);
	}
	free(format);
	return buffer;
}

/* Renders the output's part of the scene; the pixels are XRGB8888. */
static bool render_output(struct cordon_output *output, bool with_cursor, uint8_t *pixels,
	uint32_t stride, char **error) {
	struct cordon_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	struct wlr_buffer *buffer = create_buffer(server, wlr_output->width, wlr_output->height);
	if (!buffer) {
		return cordon_ipc_fail(error, "cannot allocate a %dx%d buffer", wlr_output->width,
			wlr_output->height);
	}
	if (!wlr_renderer_begin_with_buffer(server->renderer, buffer)) {
		wlr_buffer_drop(buffer);
		return cordon_ipc_fail(error, "cannot render into the screenshot buffer");
	}
	struct wlr_box box;
	cordon_output_get_box(output, &box);
	/* Between frames the culling may be stale (a window just closed): redo it. */
	cordon_occlusion_update(server);
	wlr_scene_render_output(server->scene, wlr_output, box.x, box.y, NULL);
	if (with_cursor) {
		wlr_output_render_software_cursors(wlr_output, NULL);
	}
	uint32_t flags = 0;
	bool ok = wlr_renderer_read_pixels(server->renderer, DRM_FORMAT_XRGB8888, &flags, stride,
		(uint32_t)wlr_output->width, (uint32_t)wlr_output->height, 0, 0, 0, 0, pixels);
	wlr_renderer_end(server->renderer);
	wlr_buffer_drop(buffer);
	if (!ok) {
		return cordon_ipc_fail(error, "cannot read the rendered pixels back");
	}
	if (flags & WLR_RENDERER_READ_PIXELS_Y_INVERT) {
		/* GL reads bottom-up. */
		uint8_t *row = malloc(stride);
		for (int y = 0; row && y < wlr_output->height / 2; y++) {
			uint8_t *top = pixels + (size_t)y * stride;
			uint8_t *bottom = pixels + (size_t)(wlr_output->height - 1 - y) * stride;
			memcpy(row, top, stride);
			memcpy(top, bottom, stride);
			memcpy(bottom, row, stride);
		}
		free(row);
	}
	return true;
}

static bool write_png(FILE *file, const uint8_t *pixels, uint32_t stride, int width, int height) {
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	uint8_t *row = malloc((size_t)width * 3);
	if (!png || !info || !row) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return false;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return false;
	}
	png_init_io(png, file);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; y++) {
		/* XRGB8888 is B, G, R, X in memory on little-endian machines. */
		const uint32_t *src = (const uint32_t *)(pixels + (size_t)y * stride);
		for (int x = 0; x < width; x++) {
			row[x * 3 + 0] = (uint8_t)(src[x] >> 16);
			row[x * 3 + 1] = (uint8_t)(src[x] >> 8);
			row[x * 3 + 2] = (uint8_t)src[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	return true;
}

bool cordon_screenshot_output(struct cordon_output *output, const char *path, bool with_cursor,
	int *width, int *height, char **error) {
	struct wlr_output *wlr_output = output->wlr_output;
	*width = wlr_output->width;
	*height = wlr_output->height;
	uint32_t stride = (uint32_t)*width * 4;
	uint8_t *pixels = malloc((size_t)stride * (size_t)*height);
	if (!pixels) {
		return cordon_ipc_fail(
			error, "out of memory for a %dx%d screenshot", *width, *height);
	}
	if (!render_output(output, with_cursor, pixels, stride, error)) {
		free(pixels);
		return false;
	}

	char *temp_path = NULL;
	if (asprintf(&temp_path, "%s.XXXXXX", path) < 0) {
		free(pixels);
		return cordon_ipc_fail(error, "out of memory");
	}
	int fd = mkstemp(temp_path);
	FILE *file = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!file) {
		int saved = errno;
		if (fd >= 0) {
			close(fd);
			unlink(temp_path);
		}
		cordon_ipc_fail(error, "cannot create %s: %s", path, strerror(saved));
		free(temp_path);
		free(pixels);
		return false;
	}
	bool ok = write_png(file, pixels, stride, *width, *height);
	ok = fclose(file) == 0 && ok;
	/* mkstemp makes the file 0600; a screenshot is as readable as a normal file. */
	ok = ok && chmod(temp_path, 0644) == 0 && rename(temp_path, path) == 0;
	if (!ok) {
		cordon_ipc_fail(error, "cannot write %s: %s", path, strerror(errno));
		unlink(temp_path);
	}
	free(temp_path);
	free(pixels);
	return ok;
}
