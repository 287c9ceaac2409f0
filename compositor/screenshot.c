/*
 * Screenshots: the output's part of the scene is drawn by a render pass of our
 * own into a buffer of our own (not the output's, so nothing on screen changes
 * and the output's damage tracking is not disturbed), read back and written as
 * PNG through a temporary file renamed into place.
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
#include <wlr/render/pass.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>

#include "compositor/ipc.h"
#include "compositor/output.h"
#include "compositor/server.h"

/* One screenshot's drawing: where the output is, and the textures made for it. */
struct shot {
	struct wlr_renderer *renderer;
	struct wlr_render_pass *pass;
	struct wlr_box output_box; /* layout coordinates */
	float scale;
	struct wl_array textures; /* struct wlr_texture *, destroyed after the pass */
};

static struct wlr_buffer *create_buffer(struct cordon_server *server, int width, int height) {
	/* Linear first (what software rendering uses), else the implicit modifier. */
	uint64_t modifiers[] = {DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_INVALID};
	struct wlr_buffer *buffer = NULL;
	for (size_t i = 0; i < 2 && !buffer; i++) {
		struct wlr_drm_format format = {
			.format = DRM_FORMAT_XRGB8888,
			.len = 1,
			.capacity = 1,
			.modifiers = &modifiers[i],
		};
		buffer = wlr_allocator_create_buffer(server->allocator, width, height, &format);
	}
	return buffer;
}

/* A layout box in the screenshot's pixels. */
static struct wlr_box to_pixels(const struct shot *shot, int lx, int ly, int width, int height) {
	return (struct wlr_box){
		.x = (int)((lx - shot->output_box.x) * shot->scale),
		.y = (int)((ly - shot->output_box.y) * shot->scale),
		.width = (int)(width * shot->scale),
		.height = (int)(height * shot->scale),
	};
}

/*
 * A client's buffer already has its texture (uploaded when it was committed); cordon's
 * own buffers (dialogs) are uploaded here, for this screenshot only.
 */
static struct wlr_texture *buffer_texture(struct shot *shot, struct wlr_buffer *buffer) {
	struct wlr_client_buffer *client_buffer = wlr_client_buffer_get(buffer);
	if (client_buffer) {
		return client_buffer->texture;
	}
	struct wlr_texture *texture = wlr_texture_from_buffer(shot->renderer, buffer);
	struct wlr_texture **slot = texture ? wl_array_add(&shot->textures, sizeof(*slot)) : NULL;
	if (!slot) {
		if (texture) {
			wlr_texture_destroy(texture);
		}
		return NULL;
	}
	*slot = texture;
	return texture;
}

static void draw_buffer(struct shot *shot, struct wlr_scene_buffer *scene_buffer, int lx, int ly) {
	struct wlr_buffer *buffer = scene_buffer->buffer;
	if (!buffer) {
		return;
	}
	int width = scene_buffer->dst_width, height = scene_buffer->dst_height;
	if (width <= 0 || height <= 0) {
		bool rotated = scene_buffer->transform & WL_OUTPUT_TRANSFORM_90;
		width = rotated ? buffer->height : buffer->width;
		height = rotated ? buffer->width : buffer->height;
	}
	struct wlr_box dst = to_pixels(shot, lx, ly, width, height);
	struct wlr_box meet;
	struct wlr_box whole = to_pixels(shot, shot->output_box.x, shot->output_box.y,
		shot->output_box.width, shot->output_box.height);
	if (!wlr_box_intersection(&meet, &dst, &whole)) {
		return;
	}
	struct wlr_texture *texture = buffer_texture(shot, buffer);
	if (!texture) {
		return;
	}
	wlr_render_pass_add_texture(shot->pass,
		&(struct wlr_render_texture_options){
			.texture = texture,
			.src_box = scene_buffer->src_box,
			.dst_box = dst,
			.alpha = &scene_buffer->opacity,
			.transform = scene_buffer->transform,
			.filter_mode = scene_buffer->filter_mode,
			.blend_mode = WLR_RENDER_BLEND_MODE_PREMULTIPLIED,
		});
}

/* Bottom to top, as the scene draws: a tree's later children are above the earlier ones. */
static void draw_node(struct shot *shot, struct wlr_scene_node *node, int lx, int ly) {
	if (!node->enabled) {
		return;
	}
	switch (node->type) {
	case WLR_SCENE_NODE_TREE:;
		struct wlr_scene_tree *tree = wlr_scene_tree_from_node(node);
		struct wlr_scene_node *child;
		wl_list_for_each(child, &tree->children, link) {
			draw_node(shot, child, lx + child->x, ly + child->y);
		}
		break;
	case WLR_SCENE_NODE_RECT:;
		struct wlr_scene_rect *rect = wlr_scene_rect_from_node(node);
		wlr_render_pass_add_rect(shot->pass,
			&(struct wlr_render_rect_options){
				.box = to_pixels(shot, lx, ly, rect->width, rect->height),
				.color = {rect->color[0], rect->color[1], rect->color[2],
					rect->color[3]},
				.blend_mode = WLR_RENDER_BLEND_MODE_PREMULTIPLIED,
			});
		break;
	case WLR_SCENE_NODE_BUFFER:
		draw_buffer(shot, wlr_scene_buffer_from_node(node), lx, ly);
		break;
	}
}

/*
 * The cursor as the user sees it, whether the output draws it into its frames or on a
 * cursor plane of its own (0.20's headless outputs claim one): where wlroots draws a
 * software cursor, in output pixels, with its hotspot at the pointer. Drawn from the
 * cursor's own texture, so the output's cursor state is left as it is.
 */
static void draw_cursors(struct shot *shot, struct wlr_output *wlr_output) {
	struct wlr_output_cursor *cursor;
	wl_list_for_each(cursor, &wlr_output->cursors, link) {
		if (!cursor->enabled || !cursor->visible || !cursor->texture) {
			continue;
		}
		wlr_render_pass_add_texture(shot->pass,
			&(struct wlr_render_texture_options){
				.texture = cursor->texture,
				.src_box = cursor->src_box,
				.dst_box =
					{
						.x = (int)cursor->x - cursor->hotspot_x,
						.y = (int)cursor->y - cursor->hotspot_y,
						.width = (int)cursor->width,
						.height = (int)cursor->height,
					},
				.transform = cursor->transform,
				.blend_mode = WLR_RENDER_BLEND_MODE_PREMULTIPLIED,
			});
	}
}

/* Renders the output's part of the scene; the pixels are XRGB8888. */
static bool render_output(struct cordon_output *output, bool with_cursor, uint8_t *pixels,
	uint32_t stride, int width, int height, char **error) {
	struct cordon_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	struct wlr_buffer *buffer = create_buffer(server, width, height);
	if (!buffer) {
		return cordon_ipc_fail(error, "cannot allocate a %dx%d buffer", width, height);
	}
	struct shot shot = {
		.renderer = server->renderer,
		.scale = wlr_output->scale,
	};
	wl_array_init(&shot.textures);
	cordon_output_get_box(output, &shot.output_box);
	shot.pass = wlr_renderer_begin_buffer_pass(server->renderer, buffer, NULL);
	if (!shot.pass) {
		wlr_buffer_drop(buffer);
		return cordon_ipc_fail(error, "cannot render into the screenshot buffer");
	}
	wlr_render_pass_add_rect(shot.pass,
		&(struct wlr_render_rect_options){
			.box = {.width = width, .height = height},
			.color = {0, 0, 0, 1},
		});
	struct wlr_scene_node *root = &server->scene->tree.node;
	draw_node(&shot, root, root->x, root->y);
	if (with_cursor) {
		draw_cursors(&shot, wlr_output);
	}
	bool ok = wlr_render_pass_submit(shot.pass);
	struct wlr_texture **texture;
	wl_array_for_each(texture, &shot.textures) {
		wlr_texture_destroy(*texture);
	}
	wl_array_release(&shot.textures);

	struct wlr_texture *result = ok ? wlr_texture_from_buffer(server->renderer, buffer) : NULL;
	ok = result &&
		wlr_texture_read_pixels(result,
			&(struct wlr_texture_read_pixels_options){
				.data = pixels,
				.format = DRM_FORMAT_XRGB8888,
				.stride = stride,
			});
	if (result) {
		wlr_texture_destroy(result);
	}
	wlr_buffer_drop(buffer);
	if (!ok) {
		return cordon_ipc_fail(error, "cannot read the rendered pixels back");
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
	/* The output's pixels as they are shown, rotated by its transform. */
	wlr_output_transformed_resolution(output->wlr_output, width, height);
	uint32_t stride = (uint32_t)*width * 4;
	uint8_t *pixels = malloc((size_t)stride * (size_t)*height);
	if (!pixels) {
		return cordon_ipc_fail(
			error, "out of memory for a %dx%d screenshot", *width, *height);
	}
	if (!render_output(output, with_cursor, pixels, stride, *width, *height, error)) {
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
