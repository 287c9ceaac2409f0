/*
 * The built-in camera dialog. For a photo: who asks (from the tag), the
 * providers that can take it (when there are several; one is simply named),
 * Cancel, Preview (for a provider that can stream) and Take photo. The camera is
 * started only by the user's answer (SECURITY-NOTES: consent first, then the
 * hardware): Take photo takes it, Preview shows the provider's live picture, and
 * Take photo is then the shutter; nothing runs while the dialog just waits, however
 * many an app opens. The preview's frames stay in cordon. For a stream: who asks,
 * what it will get, Cancel and Allow. Keys: Up/Down choose the provider, P previews,
 * Return confirms, Escape cancels; a click selects a row, a click on the selected
 * row or the button confirms.
 */
#include "portals/ui_builtin_camera.h"

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon-keysyms.h>

#include "portals/ui_draw.h"

#define WIDTH 560
#define PAD 12
#define BUTTON_W 130
#define MAX_ROWS 8
/* The preview's size in the dialog; the provider is asked for frames of this size. */
#define PREVIEW_W 320
#define PREVIEW_H 240

#define COLOR_BACKGROUND 0xf4f4f4
#define COLOR_HEADER 0x1f3a5f
#define COLOR_HEADER_TEXT 0xffffff
#define COLOR_TEXT 0x202020
#define COLOR_DIM 0x606060
#define COLOR_SELECTED 0x3d7bd9
#define COLOR_SELECTED_TEXT 0xffffff
#define COLOR_BORDER 0xa0a0a0
#define COLOR_BUTTON 0xdcdcdc
#define COLOR_DISABLED 0xe8e8e8
#define COLOR_DISABLED_TEXT 0xa0a0a0

struct cordon_ui_camera {
	const struct cordon_portal_ui_host *host;
	struct cordon_ui_font *font;
	struct cordon_portal_ui_dialog *dialog;
	const struct cordon_portal_ui_request *request;
	size_t cursor;
	double pointer_x, pointer_y;
	/* The preview stage: the chosen provider's frames, scaled to PREVIEW_W x PREVIEW_H. */
	bool previewing, preview_stopped;
	uint8_t *preview_rgb; /* PREVIEW_W * PREVIEW_H * 3, NULL until the first frame */
};

struct layout {
	int line, header_h, list_y, row_h, rows, preview_y, footer_y, button_h, height;
};

static bool is_photo(const struct cordon_ui_camera *camera) {
	return camera->request->portal == CORDON_PORTAL_UI_CAMERA_PHOTO;
}

static struct layout layout_of(const struct cordon_ui_camera *camera) {
	struct layout l;
	l.line = cordon_ui_font_height(camera->font);
	l.header_h = 2 * l.line + 3 * PAD / 2;
	l.row_h = l.line + 8;
	size_t count = camera->request->provider_count;
	l.rows = is_photo(camera) && !camera->previewing
		? (int)(count < MAX_ROWS ? count : MAX_ROWS)
		: 0;
	l.list_y = l.header_h + PAD + l.line + PAD / 2;
	l.button_h = l.line + PAD;
	l.preview_y = l.list_y;
	if (camera->previewing) {
		l.footer_y = l.preview_y + PREVIEW_H + PAD;
	} else {
		l.footer_y = l.list_y + (l.rows ? l.rows * l.row_h + PAD : l.line + PAD);
	}
	l.height = l.footer_y + l.button_h + PAD;
	return l;
}

/* Whether Preview is offered: a photo, not yet previewing, the provider streams. */
static bool can_preview(const struct cordon_ui_camera *camera) {
	const struct cordon_portal_ui_request *request = camera->request;
	return is_photo(camera) && !camera->previewing && request->provider_previews &&
		camera->cursor < request->provider_count &&
		request->provider_previews[camera->cursor];
}

/* The buttons from the right: Take photo (or Allow), Cancel, then Preview. */
static int button_x(int index) {
	return WIDTH - (index + 1) * (PAD + BUTTON_W);
}

/* Greyed while cordon's grace period ignores input (host input_ready). */
static void draw_button(struct cordon_ui_camera *camera, pixman_image_t *image, int x, int y, int w,
	int h, const char *label, bool primary) {
	bool enabled = camera->host->input_ready(camera->dialog);
	uint32_t fill = !enabled ? COLOR_DISABLED : primary ? COLOR_SELECTED : COLOR_BUTTON;
	uint32_t text = !enabled ? COLOR_DISABLED_TEXT : primary ? COLOR_SELECTED_TEXT : COLOR_TEXT;
	cordon_ui_fill(image, COLOR_BORDER, x, y, w, h);
	cordon_ui_fill(image, fill, x + 1, y + 1, w - 2, h - 2);
	cordon_ui_text(image, camera->font, text, x + PAD, y + PAD / 2, w - 2 * PAD, label);
}

/* The last frame, or black with a word while there is none. */
static void draw_preview(struct cordon_ui_camera *camera, pixman_image_t *image, int x0, int y0) {
	cordon_ui_fill(image, 0x000000, x0, y0, PREVIEW_W, PREVIEW_H);
	if (!camera->preview_rgb) {
		cordon_ui_text(image, camera->font, 0xffffff, x0 + PAD, y0 + PAD,
			PREVIEW_W - 2 * PAD,
			camera->preview_stopped ? "No preview: the camera stopped" : "Starting...");
		return;
	}
	uint32_t *pixels = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;
	for (int y = 0; y < PREVIEW_H; y++) {
		const uint8_t *src = camera->preview_rgb + (size_t)y * PREVIEW_W * 3;
		uint32_t *dst = pixels + (size_t)(y0 + y) * stride + x0;
		for (int x = 0; x < PREVIEW_W; x++, src += 3) {
			dst[x] = 0xff000000u | (uint32_t)src[0] << 16 | (uint32_t)src[1] << 8 |
				src[2];
		}
	}
}

static void draw(struct cordon_ui_camera *camera) {
	struct layout l = layout_of(camera);
	pixman_image_t *image = camera->host->get_image(camera->dialog, WIDTH, l.height);
	if (!image) {
		return;
	}
	const struct cordon_portal_ui_request *request = camera->request;
	const struct cordon_portal_ui_app *app = &request->app;
	char text[512];
	cordon_ui_fill(image, COLOR_BACKGROUND, 0, 0, WIDTH, l.height);
	cordon_ui_fill(image, COLOR_HEADER, 0, 0, WIDTH, l.header_h);
	const char *what = is_photo(camera) ? "take a photo" : "use the camera";
	if (!app->known) {
		snprintf(text, sizeof(text), "An unidentified sandboxed app wants to %s", what);
	} else {
		snprintf(text, sizeof(text), "%s (%s%s) wants to %s",
			app->app_id[0] ? app->app_id : "An app without an id", app->engine,
			app->sandboxed ? ", sandboxed" : "", what);
	}
	cordon_ui_text(image, camera->font, COLOR_HEADER_TEXT, PAD, PAD / 2, WIDTH - 2 * PAD, text);
	cordon_ui_text(image, camera->font, COLOR_HEADER_TEXT, PAD, PAD / 2 + l.line + PAD / 2,
		WIDTH - 2 * PAD,
		is_photo(camera) ? "It gets the picture only, not the camera."
				 : "It gets live video from the camera until it closes it.");
	int y = l.header_h + PAD;
	if (camera->previewing) {
		const struct cordon_portal_ui_camera_provider *provider =
			&request->providers[camera->cursor];
		snprintf(text, sizeof(text), "%s: Take photo is the shutter", provider->name);
		cordon_ui_text(image, camera->font, COLOR_DIM, PAD, y, WIDTH - 2 * PAD, text);
		draw_preview(camera, image, (WIDTH - PREVIEW_W) / 2, l.preview_y);
	} else if (is_photo(camera)) {
		cordon_ui_text(image, camera->font, COLOR_DIM, PAD, y, WIDTH - 2 * PAD,
			request->provider_count > 1 ? "Who takes it:" : "Taken by:");
		for (int row = 0; row < l.rows; row++) {
			const struct cordon_portal_ui_camera_provider *provider =
				&request->providers[row];
			int ry = l.list_y + row * l.row_h;
			bool selected = (size_t)row == camera->cursor;
			if (selected) {
				cordon_ui_fill(
					image, COLOR_SELECTED, PAD, ry, WIDTH - 2 * PAD, l.row_h);
			}
			snprintf(text, sizeof(text), "%s   (%s)", provider->name,
				provider->mime_type);
			cordon_ui_text(image, camera->font,
				selected ? COLOR_SELECTED_TEXT : COLOR_TEXT, PAD + 8, ry + 4,
				WIDTH - 2 * PAD - 16, text);
		}
	} else {
		cordon_ui_text(image, camera->font, COLOR_DIM, PAD, y, WIDTH - 2 * PAD,
			"Return allows, Escape refuses");
	}
	draw_button(camera, image, button_x(0), l.footer_y, BUTTON_W, l.button_h,
		is_photo(camera) ? "Take photo" : "Allow", true);
	draw_button(camera, image, button_x(1), l.footer_y, BUTTON_W, l.button_h, "Cancel", false);
	if (can_preview(camera)) {
		draw_button(camera, image, button_x(2), l.footer_y, BUTTON_W, l.button_h, "Preview",
			false);
	}
	camera->host->commit(camera->dialog);
}

/*
 * Enters the preview stage for the provider under the cursor, if it has a preview. Only
 * ever on the user's Preview: this starts the provider, and with it the camera.
 */
static void start_preview(struct cordon_ui_camera *camera) {
	if (!can_preview(camera) ||
		!camera->host->start_preview(
			camera->dialog, camera->cursor, PREVIEW_W, PREVIEW_H)) {
		return;
	}
	camera->previewing = true;
	draw(camera);
}

struct cordon_ui_camera *cordon_ui_camera_open(const struct cordon_portal_ui_host *host,
	struct cordon_ui_font *font, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	struct cordon_ui_camera *camera = calloc(1, sizeof(*camera));
	if (!camera) {
		return NULL;
	}
	*camera = (struct cordon_ui_camera){
		.host = host,
		.font = font,
		.dialog = dialog,
		.request = request,
	};
	draw(camera);
	return camera;
}

void cordon_ui_camera_redraw(struct cordon_ui_camera *camera) {
	draw(camera);
}

void cordon_ui_camera_close(struct cordon_ui_camera *camera) {
	free(camera->preview_rgb);
	free(camera);
}

void cordon_ui_camera_preview_frame(
	struct cordon_ui_camera *camera, const struct cordon_portal_ui_frame *frame) {
	if (!camera->previewing) {
		return;
	}
	if (!frame) {
		camera->preview_stopped = true;
		free(camera->preview_rgb);
		camera->preview_rgb = NULL;
		draw(camera);
		return;
	}
	if (!camera->preview_rgb) {
		camera->preview_rgb = malloc((size_t)PREVIEW_W * PREVIEW_H * 3);
		if (!camera->preview_rgb) {
			return;
		}
	}
	/* Nearest neighbour: the provider may send another size than the one asked for. */
	for (uint32_t y = 0; y < PREVIEW_H; y++) {
		const uint8_t *row =
			frame->rgb + (size_t)(y * frame->height / PREVIEW_H) * frame->stride;
		uint8_t *dst = camera->preview_rgb + (size_t)y * PREVIEW_W * 3;
		for (uint32_t x = 0; x < PREVIEW_W; x++) {
			memcpy(dst + x * 3, row + (size_t)(x * frame->width / PREVIEW_W) * 3, 3);
		}
	}
	draw(camera);
}

/* Take photo (the shutter while previewing) or Allow. */
static void confirm(struct cordon_ui_camera *camera) {
	if (is_photo(camera) && !camera->host->choose_provider(camera->dialog, camera->cursor)) {
		return;
	}
	camera->host->done(camera->dialog);
}

void cordon_ui_camera_key(struct cordon_ui_camera *camera, uint32_t keysym, bool pressed) {
	if (!pressed) {
		return;
	}
	size_t count = camera->request->provider_count;
	switch (keysym) {
	case XKB_KEY_Escape:
		camera->host->cancel(camera->dialog);
		return;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		confirm(camera);
		return;
	case XKB_KEY_p:
	case XKB_KEY_P:
		start_preview(camera);
		return;
	case XKB_KEY_Up:
		if (camera->previewing) {
			return;
		}
		camera->cursor = camera->cursor > 0 ? camera->cursor - 1 : 0;
		break;
	case XKB_KEY_Down:
		if (camera->previewing) {
			return;
		}
		camera->cursor = camera->cursor + 1 < count && camera->cursor + 1 < MAX_ROWS
			? camera->cursor + 1
			: camera->cursor;
		break;
	default:
		return;
	}
	draw(camera);
}

void cordon_ui_camera_motion(struct cordon_ui_camera *camera, double x, double y) {
	camera->pointer_x = x;
	camera->pointer_y = y;
}

static bool inside(double x, double y, int bx, int by, int w, int h) {
	return x >= bx && y >= by && x < bx + w && y < by + h;
}

void cordon_ui_camera_button(struct cordon_ui_camera *camera, uint32_t button, bool pressed) {
	if (button != BTN_LEFT || !pressed) {
		return;
	}
	struct layout l = layout_of(camera);
	double x = camera->pointer_x, y = camera->pointer_y;
	if (inside(x, y, button_x(0), l.footer_y, BUTTON_W, l.button_h)) {
		confirm(camera);
		return;
	}
	if (inside(x, y, button_x(1), l.footer_y, BUTTON_W, l.button_h)) {
		camera->host->cancel(camera->dialog);
		return;
	}
	if (can_preview(camera) && inside(x, y, button_x(2), l.footer_y, BUTTON_W, l.button_h)) {
		start_preview(camera);
		return;
	}
	if (l.rows && inside(x, y, PAD, l.list_y, WIDTH - 2 * PAD, l.rows * l.row_h)) {
		size_t row = (size_t)((y - l.list_y) / l.row_h);
		if (row == camera->cursor) {
			confirm(camera);
			return;
		}
		camera->cursor = row;
		draw(camera);
	}
}
