/*
 * The camera-in-use indicator. While an app has a camera stream open, cordon shows
 * which apps, in the top right corner of the pointer's output, in the portal layer
 * above every app: no app can cover or fake it, and it cannot be hidden while a
 * stream is open. Its close button ends every open stream, as revoking the camera
 * does; the stored permission is left as it is (cordonctl permissions changes that).
 */
#include "portals/camera_indicator.h"

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "portals/camera_stream.h"
#include "portals/dialog_surface.h"
#include "portals/portals.h"
#include "portals/ui_draw.h"
#include <wlr/types/wlr_scene.h>

#define FONT "DejaVu Sans:size=11"
#define PAD 8
#define WIDTH 360
#define DOT 10
#define COLOR_BACKGROUND 0x202020
#define COLOR_BORDER 0xd03030
#define COLOR_DOT 0xff3030
#define COLOR_TEXT 0xffffff
#define COLOR_BUTTON 0x505050

struct cordon_camera_indicator {
	struct cordon_portals *portals;
	struct cordon_ui_font *font; /* loaded when first shown */
	struct cordon_portal_dialog_surface *surface; /* NULL while hidden */
	int close_x, close_w, height; /* within the surface */
	bool button_down; /* a press landed on it: its release is ours too */
};

struct cordon_camera_indicator *cordon_camera_indicator_create(struct cordon_portals *portals) {
	struct cordon_camera_indicator *indicator = calloc(1, sizeof(*indicator));
	if (indicator) {
		indicator->portals = portals;
	}
	return indicator;
}

void cordon_camera_indicator_destroy(struct cordon_camera_indicator *indicator) {
	if (!indicator) {
		return;
	}
	cordon_portal_dialog_surface_destroy(indicator->surface);
	cordon_ui_font_destroy(indicator->font);
	free(indicator);
}

struct app_list {
	char text[256];
	size_t streams;
};

static void add_app(void *data, const struct cordon_camera_stream_info *info) {
	struct app_list *list = data;
	const char *name = info->app_id[0] ? info->app_id : "an app without an id";
	list->streams++;
	if (strstr(list->text, name)) {
		return;
	}
	size_t len = strlen(list->text);
	snprintf(list->text + len, sizeof(list->text) - len, "%s%s", len ? ", " : "", name);
}

static void hide(struct cordon_camera_indicator *indicator) {
	cordon_portal_dialog_surface_destroy(indicator->surface);
	indicator->surface = NULL;
	indicator->button_down = false;
}

void cordon_camera_indicator_update(struct cordon_camera_indicator *indicator) {
	if (!indicator) {
		return;
	}
	struct app_list apps = {0};
	cordon_camera_streams_for_each(indicator->portals, add_app, &apps);
	if (apps.streams == 0) {
		hide(indicator);
		return;
	}
	if (!indicator->font) {
		indicator->font = cordon_ui_font_load(FONT);
	}
	if (!indicator->surface) {
		indicator->surface = cordon_portal_dialog_surface_create(
			&indicator->portals->host, indicator->portals->layer);
		if (!indicator->surface) {
			return;
		}
		cordon_portal_dialog_surface_set_placement(
			indicator->surface, CORDON_PORTAL_DIALOG_TOP_RIGHT);
	}
	int line = indicator->font ? cordon_ui_font_height(indicator->font) : 14;
	indicator->height = line + 2 * PAD;
	indicator->close_w = line + PAD;
	indicator->close_x = WIDTH - PAD / 2 - indicator->close_w;
	pixman_image_t *image = cordon_portal_dialog_surface_get_image(
		indicator->surface, WIDTH, indicator->height);
	if (!image) {
		return;
	}
	cordon_ui_fill(image, COLOR_BORDER, 0, 0, WIDTH, indicator->height);
	cordon_ui_fill(image, COLOR_BACKGROUND, 2, 2, WIDTH - 4, indicator->height - 4);
	cordon_ui_fill(image, COLOR_DOT, PAD, (indicator->height - DOT) / 2, DOT, DOT);
	int button_y = PAD / 2, button_h = indicator->height - PAD;
	cordon_ui_fill(
		image, COLOR_BUTTON, indicator->close_x, button_y, indicator->close_w, button_h);
	if (indicator->font) {
		char text[320];
		snprintf(text, sizeof(text), "Camera in use by %s", apps.text);
		int text_x = PAD + DOT + PAD;
		cordon_ui_text(image, indicator->font, COLOR_TEXT, text_x, PAD,
			indicator->close_x - PAD - text_x, text);
		cordon_ui_text(image, indicator->font, COLOR_TEXT, indicator->close_x + PAD / 2 + 1,
			PAD, indicator->close_w - PAD / 2, "X");
	}
	/*
	 * No parent: it speaks for every app using the camera. It goes where the pointer
	 * is, not on the first output: a warning is only worth something where the user
	 * is looking, and a stream starts just after the user acted in the app. It is
	 * placed when the streams change, so it does not chase the pointer around.
	 */
	cordon_portal_dialog_surface_commit(indicator->surface, NULL);
}

static bool get_box(
	const struct cordon_camera_indicator *indicator, int *x, int *y, int *w, int *h) {
	return indicator->surface &&
		cordon_portal_dialog_surface_get_box(indicator->surface, x, y, w, h);
}

bool cordon_camera_indicator_get_close_box(
	const struct cordon_camera_indicator *indicator, int *x, int *y, int *width, int *height) {
	int w, h;
	if (!indicator || !get_box(indicator, x, y, &w, &h)) {
		return false;
	}
	*x += indicator->close_x;
	*width = indicator->close_w;
	*height = h;
	return true;
}

static bool inside(double lx, double ly, int x, int y, int w, int h) {
	return lx >= x && ly >= y && lx < x + w && ly < y + h;
}

bool cordon_camera_indicator_handle_motion(
	struct cordon_camera_indicator *indicator, double lx, double ly) {
	int x, y, w, h;
	return indicator && get_box(indicator, &x, &y, &w, &h) && inside(lx, ly, x, y, w, h);
}

bool cordon_camera_indicator_handle_button(struct cordon_camera_indicator *indicator, double lx,
	double ly, uint32_t button, bool pressed) {
	if (!indicator) {
		return false;
	}
	if (!pressed) {
		bool ours = indicator->button_down;
		indicator->button_down = false;
		return ours;
	}
	int x, y, w, h;
	if (!get_box(indicator, &x, &y, &w, &h) || !inside(lx, ly, x, y, w, h)) {
		return false;
	}
	indicator->button_down = true;
	int cx, cy, cw, ch;
	if (button == BTN_LEFT &&
		cordon_camera_indicator_get_close_box(indicator, &cx, &cy, &cw, &ch) &&
		inside(lx, ly, cx, cy, cw, ch)) {
		/* Hides the indicator too: the press's release is still ours, see above. */
		size_t count = cordon_camera_streams_revoke(indicator->portals, NULL);
		wlr_log(WLR_INFO, "Camera indicator closed: %zu streams ended", count);
		indicator->button_down = true;
	}
	return true;
}
