/*
 * The secure attention key and its overlay. The key is matched before the bindings, the
 * portal dialogs and every client (input_router.c asks here first), so that no inhibitor,
 * grab, fullscreen window or dialog keeps it from the user; neither it nor any key typed
 * while the overlay is open reaches a client. The overlay is drawn by cordon in the
 * trusted layer, framed as every cordon dialog is (portals/dialog_surface.c), and says
 * only what cordon knows: the focused window's owner from its tag, the pending portal
 * requests, the open camera streams and the recent cross-boundary clipboard transfers.
 */
#include "compositor/attention.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/label.h"
#include "compositor/seat.h"
#include "compositor/selection.h"
#include "compositor/server.h"
#include "compositor/view.h"
#include "portals/camera_stream.h"
#include "portals/dialog_surface.h"
#include "portals/portals.h"
#include "portals/request.h"
#include "portals/ui_draw.h"

#define OVERLAY_WIDTH 720
#define PADDING 16
#define SWATCH 14
/* How far back clipboard and drag transfers are listed. */
#define CLIPBOARD_WINDOW_S 300
#define CLIPBOARD_MAX_LINES 6

#define BACKGROUND 0x202020
#define TEXT 0xf0f0f0
#define HEADING 0xf5c211

struct cordon_attention *cordon_attention_create(struct cordon_server *server) {
	struct cordon_attention *attention = calloc(1, sizeof(*attention));
	if (attention) {
		attention->server = server;
	}
	return attention;
}

void cordon_attention_destroy(struct cordon_attention *attention) {
	if (!attention) {
		return;
	}
	cordon_portal_dialog_surface_destroy(attention->overlay);
	free(attention);
}

static struct cordon_attention_line *add_line(struct cordon_attention *attention, const char *fmt,
	...) __attribute__((format(printf, 2, 3)));

static struct cordon_attention_line *add_line(
	struct cordon_attention *attention, const char *fmt, ...) {
	if (attention->line_count >= CORDON_ATTENTION_MAX_LINES) {
		return NULL;
	}
	struct cordon_attention_line *line = &attention->lines[attention->line_count++];
	memset(line, 0, sizeof(*line));
	va_list args;
	va_start(args, fmt);
	vsnprintf(line->text, sizeof(line->text), fmt, args);
	va_end(args);
	return line;
}

static void add_heading(struct cordon_attention *attention, const char *text) {
	struct cordon_attention_line *line = add_line(attention, "%s", text);
	if (line) {
		line->heading = true;
	}
}

static void format_time(const struct timespec *when, char out[16]) {
	struct tm tm;
	time_t seconds = when->tv_sec;
	if (!localtime_r(&seconds, &tm) || strftime(out, 16, "%H:%M:%S", &tm) == 0) {
		snprintf(out, 16, "?");
	}
}

static void describe_focus(struct cordon_attention *attention) {
	struct cordon_server *server = attention->server;
	struct cordon_view *view = cordon_view_focused(server);
	add_heading(attention, "Keyboard focus");
	if (!view) {
		add_line(attention, "no window has the keyboard");
		return;
	}
	struct cordon_client *owner = cordon_client_from_wl(view->client);
	struct cordon_label_style style;
	cordon_label_style_for_tag(server->policy, cordon_client_get_tag(owner),
		cordon_client_is_sandboxed(owner), &style);
	struct cordon_attention_line *line;
	if (style.shown) {
		line = add_line(attention, "owner: sandbox %s", style.text);
		if (line) {
			line->has_swatch = true;
			line->swatch_color = style.color;
		}
	} else {
		add_line(attention, "owner: host (not sandboxed), pid %d",
			(int)cordon_view_get_pid(view));
	}
	char title[160], app_id[160];
	cordon_escape(title, sizeof(title), cordon_view_get_title(view), CORDON_ESCAPE_QUOTE);
	cordon_escape(app_id, sizeof(app_id), cordon_view_get_app_id(view), CORDON_ESCAPE_QUOTE);
	add_line(attention, "the app calls it: \"%s\" (app_id \"%s\")", title, app_id);
}

static void describe_requests(struct cordon_attention *attention) {
	struct cordon_portals *portals = attention->server->portals;
	add_heading(attention, "Portal requests waiting for you");
	size_t count = 0;
	struct cordon_portal_request *request;
	wl_list_for_each(request, &portals->requests, link) {
		if (request->state == CORDON_PORTAL_REQUEST_ANSWERED) {
			continue;
		}
		struct cordon_label_style style;
		cordon_label_style_for_tag(
			attention->server->policy, &request->tag, request->tag.sandboxed, &style);
		char when[16];
		format_time(&request->asked_at, when);
		struct cordon_attention_line *line = add_line(attention, "%s by %s, asked at %s",
			request->impl->portal, style.shown ? style.text : "host app", when);
		if (line && style.shown) {
			line->has_swatch = true;
			line->swatch_color = style.color;
		}
		count++;
	}
	if (count == 0) {
		add_line(attention, "none");
	}
}

static void add_camera_line(void *data, const struct cordon_camera_stream_info *info) {
	struct cordon_attention *attention = data;
	char app_id[160];
	cordon_escape(app_id, sizeof(app_id), info->app_id[0] ? info->app_id : "(no app id)", 0);
	add_line(attention, "camera: %s (pid %d)", app_id, (int)info->pid);
}

static void describe_activity(struct cordon_attention *attention) {
	struct cordon_server *server = attention->server;
	add_heading(attention, "Camera and clipboard");
	size_t before = attention->line_count;
	cordon_camera_streams_for_each(server->portals, add_camera_line, attention);
	const struct cordon_transfer_log *log = cordon_selection_get_log(server->seat->selection);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	size_t shown = 0;
	/* Newest first: walk the ring back from the last id, no further than the ring holds. */
	uint64_t oldest = log->next_id > CORDON_TRANSFER_LOG_SIZE
		? log->next_id - CORDON_TRANSFER_LOG_SIZE
		: 1;
	for (uint64_t id = log->next_id; id >= oldest && id > 0 && shown < CLIPBOARD_MAX_LINES;
		id--) {
		const struct cordon_transfer_entry *entry = cordon_transfer_log_get(log, id);
		if (!entry) {
			continue;
		}
		if (now.tv_sec - entry->time.tv_sec > CLIPBOARD_WINDOW_S) {
			break;
		}
		char when[16], source[120], destination[120];
		format_time(&entry->time, when);
		cordon_escape(source, sizeof(source), entry->source, 0);
		cordon_escape(destination, sizeof(destination), entry->destination, 0);
		add_line(attention, "%s at %s: %s to %s (%s)", entry->kind, when, source,
			destination, entry->decision);
		shown++;
	}
	if (attention->line_count == before) {
		add_line(
			attention, "no camera in use, no clipboard transfer in the last 5 minutes");
	}
}

static void draw_overlay(struct cordon_attention *attention) {
	struct cordon_server *server = attention->server;
	struct cordon_ui_font *font = cordon_labels_font(server->labels);
	if (!attention->overlay) {
		attention->overlay = cordon_portal_dialog_surface_create(
			&server->portals->host, server->portals->layer);
	}
	if (!attention->overlay) {
		return;
	}
	int line_height = font ? cordon_ui_font_height(font) + 6 : 20;
	int height = 2 * PADDING + (int)attention->line_count * line_height;
	pixman_image_t *image =
		cordon_portal_dialog_surface_get_image(attention->overlay, OVERLAY_WIDTH, height);
	if (!image) {
		return;
	}
	cordon_ui_fill(image, BACKGROUND, 0, 0, OVERLAY_WIDTH, height);
	for (size_t i = 0; i < attention->line_count; i++) {
		const struct cordon_attention_line *line = &attention->lines[i];
		int y = PADDING + (int)i * line_height;
		int x = PADDING + (line->heading ? 0 : 12);
		if (line->has_swatch) {
			cordon_ui_fill(image, line->swatch_color, x,
				y + (line_height - SWATCH) / 2 - 2, SWATCH, SWATCH);
			x += SWATCH + 8;
		}
		if (font) {
			cordon_ui_text(image, font, line->heading ? HEADING : TEXT, x, y,
				OVERLAY_WIDTH - x - PADDING, line->text);
		}
	}
	cordon_portal_dialog_surface_commit(attention->overlay, NULL);
}

static void open_overlay(struct cordon_attention *attention) {
	struct cordon_server *server = attention->server;
	attention->line_count = 0;
	add_heading(attention, "cordon \xc2\xb7 secure attention (Escape closes)");
	describe_focus(attention);
	describe_requests(attention);
	describe_activity(attention);
	attention->open = true;
	draw_overlay(attention);
	/* A fullscreen window shows whose it is again. */
	struct cordon_view *view = cordon_view_focused(server);
	if (view && view->label) {
		cordon_label_reveal(view->label);
	}
	wlr_log(WLR_INFO, "Secure attention key: overlay open");
}

void cordon_attention_close(struct cordon_attention *attention) {
	if (!attention || !attention->open) {
		return;
	}
	attention->open = false;
	cordon_portal_dialog_surface_destroy(attention->overlay);
	attention->overlay = NULL;
}

/* Matched as bindings are: the level-one keysym, Caps Lock and Num Lock ignored. */
static bool is_attention_key(
	struct cordon_attention *attention, struct wlr_keyboard *keyboard, uint32_t keycode) {
	const struct cordon_config *config = attention->server->config;
	uint32_t modifiers =
		wlr_keyboard_get_modifiers(keyboard) & ~(WLR_MODIFIER_CAPS | WLR_MODIFIER_MOD2);
	if (modifiers != config->attention_modifiers) {
		return false;
	}
	xkb_keycode_t xkb_code = keycode + 8;
	xkb_layout_index_t layout = xkb_state_key_get_layout(keyboard->xkb_state, xkb_code);
	const xkb_keysym_t *syms;
	int count = xkb_keymap_key_get_syms_by_level(keyboard->keymap, xkb_code, layout, 0, &syms);
	for (int i = 0; i < count; i++) {
		if (xkb_keysym_to_lower(syms[i]) == xkb_keysym_to_lower(config->attention_keysym)) {
			return true;
		}
	}
	return false;
}

static bool is_escape(struct wlr_keyboard *keyboard, uint32_t keycode) {
	const xkb_keysym_t *syms;
	int count = xkb_state_key_get_syms(keyboard->xkb_state, keycode + 8, &syms);
	for (int i = 0; i < count; i++) {
		if (syms[i] == XKB_KEY_Escape) {
			return true;
		}
	}
	return false;
}

bool cordon_attention_key(
	struct cordon_attention *attention, struct cordon_keyboard *keyboard, uint32_t keycode) {
	if (!attention || !keyboard->wlr_keyboard->keymap) {
		return false;
	}
	struct wlr_keyboard *wlr_keyboard = keyboard->wlr_keyboard;
	struct cordon_seat *seat = attention->server->seat;
	if (is_attention_key(attention, wlr_keyboard, keycode)) {
		/* Over a lock screen it shows nothing: what it lists is not for anyone. */
		if (!seat->lock.locked) {
			open_overlay(attention);
		}
		return true;
	}
	if (!attention->open) {
		return false;
	}
	if (is_escape(wlr_keyboard, keycode)) {
		cordon_attention_close(attention);
	}
	return true;
}
