/*
 * An example portal dialog plugin: a 400x240 dialog with a coloured title bar
 * and a button; Return or a click on the button chooses the host file named
 * in the ui-options string, Escape cancels. It paints with pixman only.
 */
#define _POSIX_C_SOURCE 200809L

#include <cordon/portal-ui.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon-keysyms.h>

#ifndef EXAMPLE_ABI_VERSION
#define EXAMPLE_ABI_VERSION CORDON_PORTAL_UI_ABI_VERSION
#endif

#define WIDTH 400
#define HEIGHT 240

struct example {
	const struct cordon_portal_ui_host *host;
	char *answer;
	double pointer_x, pointer_y; /* where the pointer is over the dialog */
};

/* The button, in dialog coordinates. */
static const pixman_rectangle16_t button = {140, 160, 120, 48};

static void *example_create(const struct cordon_portal_ui_host *host, const char *options) {
	struct example *example = calloc(1, sizeof(*example));
	if (!example) {
		return NULL;
	}
	example->host = host;
	example->answer = strdup(options);
	host->log(CORDON_PORTAL_UI_LOG_INFO, "example plugin: ready, ABI %u", host->abi_version);
	return example;
}

static void example_destroy(void *data) {
	struct example *example = data;
	free(example->answer);
	free(example);
}

static void fill(
	pixman_image_t *image, uint16_t r, uint16_t g, uint16_t b, pixman_rectangle16_t rect) {
	pixman_color_t color = {r, g, b, 0xffff};
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &color, 1, &rect);
}

static bool example_open(void *data, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	struct example *example = data;
	const struct cordon_portal_ui_host *host = example->host;
	pixman_image_t *image = host->get_image(dialog, WIDTH, HEIGHT);
	if (!image) {
		return false;
	}
	fill(image, 0xe000, 0xe000, 0xe000, (pixman_rectangle16_t){0, 0, WIDTH, HEIGHT});
	/* Magenta title bar, green button: colours a screenshot can find. */
	fill(image, 0xff00, 0x0000, 0xff00, (pixman_rectangle16_t){0, 0, WIDTH, 40});
	fill(image, 0x0000, 0xc000, 0x0000, button);
	host->commit(dialog);
	host->log(CORDON_PORTAL_UI_LOG_INFO, "example plugin: dialog for '%s' (%s%s), \"%s\"",
		request->app.app_id, request->app.engine,
		request->app.sandboxed ? ", sandboxed" : "", request->title);
	return true;
}

static void example_close(void *data, struct cordon_portal_ui_dialog *dialog) {
}

static void choose(struct example *example, struct cordon_portal_ui_dialog *dialog) {
	example->host->choose_path(dialog, example->answer);
	example->host->done(dialog);
}

static void example_key(void *data, struct cordon_portal_ui_dialog *dialog, uint32_t keysym,
	uint32_t codepoint, bool pressed, uint32_t modifiers) {
	struct example *example = data;
	if (!pressed) {
		return;
	}
	if (keysym == XKB_KEY_Return) {
		choose(example, dialog);
	} else if (keysym == XKB_KEY_Escape) {
		example->host->cancel(dialog);
	} else {
		example->host->log(CORDON_PORTAL_UI_LOG_INFO, "example plugin: key %u '%c'", keysym,
			codepoint >= 0x20 && codepoint < 0x7f ? (char)codepoint : '?');
	}
}

static void example_motion(void *data, struct cordon_portal_ui_dialog *dialog, double x, double y) {
	struct example *example = data;
	example->pointer_x = x;
	example->pointer_y = y;
}

static void example_button(
	void *data, struct cordon_portal_ui_dialog *dialog, uint32_t code, bool pressed) {
	struct example *example = data;
	double x = example->pointer_x, y = example->pointer_y;
	bool on_button = x >= button.x && x < button.x + button.width && y >= button.y &&
		y < button.y + button.height;
	if (code == BTN_LEFT && !pressed && on_button) {
		choose(example, dialog);
	}
}

static const struct cordon_portal_ui_plugin example_plugin = {
	.abi_version = EXAMPLE_ABI_VERSION,
	.name = "example",
	.create = example_create,
	.destroy = example_destroy,
	.open = example_open,
	.close = example_close,
	.key = example_key,
	.pointer_motion = example_motion,
	.pointer_button = example_button,
};

const struct cordon_portal_ui_plugin *cordon_portal_ui_plugin_entry(void) {
	return &example_plugin;
}
