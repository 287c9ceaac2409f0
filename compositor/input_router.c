/*
 * The input boundary on the seat: the one place that decides which input an app
 * sees and which press counts as the user's action. Keys and buttons are offered
 * to an ordered list of takers (bindings, a trusted dialog, compositor grabs, and
 * last the focused client); one ledger remembers where each held key went, so its
 * release goes there too. Whoever listens for "the user acted" (clipboard and
 * drag mediation, activation tokens) hears it from here, with a verdict on whether
 * the surface that took the press was one the user could see: focus is easy for an
 * app to take (a window mapped just before the user types, a 1x1 or transparent
 * window), so focus alone proves nothing (docs/security.md).
 */
#include "compositor/input_router.h"

#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/edges.h>
#include <wlr/util/log.h>

#include "compositor/attention.h"
#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/globals.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/text_input.h"
#include "compositor/view.h"
#include "portals/dialog_input.h"

/* Samples per side when judging how much of a window is shown. */
#define CONSENT_GRID 16

static int64_t ms_since(const struct timespec *then) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - then->tv_sec) * 1000 +
		(now.tv_nsec - then->tv_nsec) / 1000000;
}

/* Consent: what the user could see */

/*
 * The alpha of SURFACE's buffer at surface point SX, SY. Pixman textures (the software
 * renderer) are read, in whatever format the client attached; other renderers keep no
 * CPU copy, so a point there counts as drawn (docs/security.md says so).
 */
static int surface_alpha_at(struct wlr_surface *surface, double sx, double sy) {
	struct wlr_texture *texture = wlr_surface_get_texture(surface);
	int width = surface->current.width, height = surface->current.height;
	if (!texture || width <= 0 || height <= 0 || sx < 0 || sy < 0 || sx >= width ||
		sy >= height) {
		return 0;
	}
	if (!wlr_texture_is_pixman(texture)) {
		return 255;
	}
	pixman_image_t *image = wlr_pixman_texture_get_image(texture);
	pixman_format_code_t format = pixman_image_get_format(image);
	if (PIXMAN_FORMAT_A(format) == 0) {
		return 255;
	}
	int image_width = pixman_image_get_width(image);
	int image_height = pixman_image_get_height(image);
	int x = (int)(sx * image_width / width), y = (int)(sy * image_height / height);
	if (x < 0 || y < 0 || x >= image_width || y >= image_height) {
		return 0;
	}
	/*
	 * One pixel converted to ARGB8888 by pixman, from a view of the same bits: the
	 * renderer may leave a transform on the texture's own image.
	 */
	pixman_image_t *source = pixman_image_create_bits(format, image_width, image_height,
		pixman_image_get_data(image), pixman_image_get_stride(image));
	uint32_t pixel = 0;
	pixman_image_t *target = pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, &pixel, 4);
	if (source && target) {
		pixman_image_composite32(
			PIXMAN_OP_SRC, source, NULL, target, x, y, 0, 0, 0, 0, 1, 1);
	}
	if (source) {
		pixman_image_unref(source);
	}
	if (target) {
		pixman_image_unref(target);
	}
	return (int)(pixel >> 24);
}

/* The toplevel view a surface (subsurface, popup) belongs to, or NULL. */
static struct cordon_view *view_of_surface(
	struct cordon_server *server, struct wlr_surface *surface) {
	for (int depth = 0; surface && depth < 32; depth++) {
		surface = wlr_surface_get_root_surface(surface);
		struct wlr_xdg_surface *xdg = wlr_xdg_surface_try_from_wlr_surface(surface);
		if (!xdg) {
			/* An X11 window's surface is its view's; an unmanaged one has none. */
			return cordon_view_from_surface(server, surface);
		}
		if (xdg->role != WLR_XDG_SURFACE_ROLE_POPUP || !xdg->popup) {
			return cordon_view_from_surface(server, surface);
		}
		surface = xdg->popup->parent;
	}
	return NULL;
}

/*
 * Whether the layout point LX, LY of VIEW shows one of its surfaces, on an output, drawn
 * opaque enough to be seen. Other windows above do not count against it: the one the
 * user types into is raised, and one they click shows where they click.
 */
static bool view_drawn_at(struct cordon_view *view, double lx, double ly) {
	if (!wlr_output_layout_contains_point(view->server->output_layout, NULL, lx, ly)) {
		return false;
	}
	double sx, sy;
	/* The view's tree hangs from a layer at the layout's origin. */
	struct wlr_scene_node *node = wlr_scene_node_at(&view->tree->node, lx, ly, &sx, &sy);
	if (!node || node->type != WLR_SCENE_NODE_BUFFER) {
		return false;
	}
	struct wlr_scene_surface *scene_surface =
		wlr_scene_surface_try_from_buffer(wlr_scene_buffer_from_node(node));
	return scene_surface &&
		surface_alpha_at(scene_surface->surface, sx, sy) >= CORDON_CONSENT_ALPHA;
}

/*
 * Whether VIEW is shown to the user: mapped and not hidden for CORDON_CONSENT_MIN_SHOWN_MS,
 * and on a grid over its window geometry, enough of it is its own opaque pixels on an
 * output.
 */
static bool view_shown(struct cordon_view *view) {
	if (!cordon_view_is_visible(view) || view->occluded ||
		ms_since(&view->shown_since) < CORDON_CONSENT_MIN_SHOWN_MS) {
		return false;
	}
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	if (box.width < CORDON_CONSENT_MIN_SIZE || box.height < CORDON_CONSENT_MIN_SIZE) {
		return false;
	}
	double step_x = (double)box.width / CONSENT_GRID,
	       step_y = (double)box.height / CONSENT_GRID;
	int shown = 0;
	for (int j = 0; j < CONSENT_GRID; j++) {
		for (int i = 0; i < CONSENT_GRID; i++) {
			double lx = box.x + (i + 0.5) * step_x, ly = box.y + (j + 0.5) * step_y;
			if (view_drawn_at(view, lx, ly)) {
				shown++;
			}
		}
	}
	double area = shown * step_x * step_y;
	return area >= CORDON_CONSENT_MIN_SIZE * CORDON_CONSENT_MIN_SIZE &&
		shown * 100 >= CORDON_CONSENT_MIN_OPAQUE_PERCENT * CONSENT_GRID * CONSENT_GRID;
}

static bool client_is_trusted(struct wl_client *client) {
	return !cordon_client_is_sandboxed(cordon_client_from_wl(client));
}

bool cordon_input_router_surface_may_consent(struct cordon_input_router *router,
	struct wlr_surface *surface, bool at_point, double sx, double sy) {
	if (!surface) {
		return false;
	}
	struct wl_client *client = wl_resource_get_client(surface->resource);
	/* Host apps are trusted with the clipboard anyway (data-control): not judged by looks. */
	if (client_is_trusted(client)) {
		return true;
	}
	struct cordon_view *view = view_of_surface(router->seat->server, surface);
	if (!view || !view_shown(view)) {
		return false;
	}
	/* A click on a transparent part went to a window the user did not see there. */
	return !at_point || surface_alpha_at(surface, sx, sy) >= CORDON_CONSENT_ALPHA;
}

bool cordon_input_router_view_may_consent(struct cordon_view *view) {
	struct cordon_input_router *router = view->server->seat->router;
	return cordon_input_router_surface_may_consent(router, view->surface, false, 0, 0);
}

/* The press record and the signals */

static void note_press(
	struct cordon_input_router *router, struct wl_client *client, uint32_t serial) {
	router->last_press.valid = client != NULL;
	router->last_press.client = client;
	router->last_press.serial = serial;
	clock_gettime(CLOCK_MONOTONIC, &router->last_press.time);
}

static void ledger_add(
	struct cordon_input_router *router, uint32_t keycode, enum cordon_input_taker taker) {
	for (size_t i = 0; i < router->key_count; i++) {
		if (router->keys[i].keycode == keycode) {
			router->keys[i].taker = taker;
			return;
		}
	}
	/* Full (32 keys held): the release goes to the focused client, as it would without us. */
	if (router->key_count < sizeof(router->keys) / sizeof(router->keys[0])) {
		router->keys[router->key_count].keycode = keycode;
		router->keys[router->key_count].taker = taker;
		router->key_count++;
	}
}

static enum cordon_input_taker ledger_take(struct cordon_input_router *router, uint32_t keycode) {
	for (size_t i = 0; i < router->key_count; i++) {
		if (router->keys[i].keycode == keycode) {
			enum cordon_input_taker taker = router->keys[i].taker;
			router->keys[i] = router->keys[--router->key_count];
			return taker;
		}
	}
	/* Pressed before cordon saw it (or the ledger was full): the app's. */
	return CORDON_INPUT_CLIENT;
}

/* Keys */

static enum cordon_input_taker take_key_press(
	struct cordon_input_router *router, struct cordon_keyboard *keyboard, uint32_t keycode) {
	struct cordon_seat *seat = router->seat;
	/* First of all: no dialog, grab, inhibitor or app may keep it from the user. */
	if (cordon_attention_key(seat->server->attention, keyboard, keycode)) {
		return CORDON_INPUT_BINDING;
	}
	/* While locked, only the VT switch is a binding (seat.c). */
	if (cordon_seat_key_binding(keyboard, keycode)) {
		return CORDON_INPUT_BINDING;
	}
	/* Before the dialogs: they are under the lock's cover, and their requests wait. */
	if (seat->lock.locked) {
		return CORDON_INPUT_LOCK;
	}
	/* A portal dialog has the keyboard while it is shown: no app may see what is typed. */
	if (cordon_portals_handle_key(
		    seat->server->portals, keyboard->wlr_keyboard, keycode, true)) {
		return CORDON_INPUT_DIALOG;
	}
	if (cordon_text_input_relay_takes_keys(
		    cordon_text_input_relay_of(seat->server), keyboard)) {
		return CORDON_INPUT_INPUT_METHOD;
	}
	return CORDON_INPUT_CLIENT;
}

/*
 * A key while locked reaches the locker's surface, if it has the keyboard, and nobody
 * else. Nothing is signalled: no press while locked is the user's action in an app (no
 * clipboard, drag or activation may follow from it), and the seat's last press becomes
 * nobody's, so no token made before the lock can use one.
 */
static void deliver_key_to_locker(struct cordon_input_router *router,
	struct cordon_keyboard *keyboard, const struct wlr_keyboard_key_event *event) {
	struct cordon_seat *seat = router->seat;
	if (event->state == WL_KEYBOARD_KEY_STATE_PRESSED) {
		note_press(router, NULL, 0);
	}
	/* One pressed while locked and released after the unlock was never the app's. */
	if (!seat->lock.locked ||
		!cordon_seat_surface_may_get_input(
			seat, seat->wlr_seat->keyboard_state.focused_surface)) {
		return;
	}
	wlr_seat_set_keyboard(seat->wlr_seat, keyboard->wlr_keyboard);
	wlr_seat_keyboard_notify_key(
		seat->wlr_seat, event->time_msec, event->keycode, event->state);
}

void cordon_input_router_key(struct cordon_input_router *router, struct cordon_keyboard *keyboard,
	const struct wlr_keyboard_key_event *event) {
	struct cordon_seat *seat = router->seat;
	bool pressed = event->state == WL_KEYBOARD_KEY_STATE_PRESSED;
	if (pressed) {
		enum cordon_input_taker taker = take_key_press(router, keyboard, event->keycode);
		ledger_add(router, event->keycode, taker);
		if (taker == CORDON_INPUT_LOCK) {
			deliver_key_to_locker(router, keyboard, event);
			return;
		}
		if (taker == CORDON_INPUT_INPUT_METHOD) {
			cordon_text_input_relay_key(
				cordon_text_input_relay_of(seat->server), keyboard, event);
		}
		if (taker != CORDON_INPUT_CLIENT) {
			note_press(router, NULL, 0);
			return;
		}
	} else {
		enum cordon_input_taker taker = ledger_take(router, event->keycode);
		/* Pressed in an app before the lock (which sent it a leave): now the locker's. */
		if (taker == CORDON_INPUT_CLIENT && seat->lock.locked) {
			taker = CORDON_INPUT_LOCK;
		}
		switch (taker) {
		case CORDON_INPUT_LOCK:
			deliver_key_to_locker(router, keyboard, event);
			return;
		case CORDON_INPUT_BINDING:
		case CORDON_INPUT_GRAB:
			return;
		case CORDON_INPUT_INPUT_METHOD:
			cordon_text_input_relay_key(
				cordon_text_input_relay_of(seat->server), keyboard, event);
			return;
		case CORDON_INPUT_DIALOG:
			/* One pressed into a dialog is not the app's, even once the dialog is gone.
			 */
			cordon_portals_handle_key(seat->server->portals, keyboard->wlr_keyboard,
				event->keycode, false);
			return;
		case CORDON_INPUT_CLIENT:
			break;
		}
	}

	wlr_seat_set_keyboard(seat->wlr_seat, keyboard->wlr_keyboard);
	struct wlr_seat_client *focused = seat->wlr_seat->keyboard_state.focused_client;
	struct cordon_input_event input = {
		.client = focused ? focused->client : NULL,
		.surface = seat->wlr_seat->keyboard_state.focused_surface,
		.pressed = pressed,
	};
	input.consent = cordon_input_router_surface_may_consent(router, input.surface, false, 0, 0);
	if (pressed) {
		/* Before the press is delivered, so that a paste shortcut finds the offer in place.
		 */
		wl_signal_emit(&router->events.press, &input);
	}
	wlr_seat_keyboard_notify_key(
		seat->wlr_seat, event->time_msec, event->keycode, event->state);
	if (!input.client) {
		if (pressed) {
			note_press(router, NULL, 0);
		}
		return;
	}
	/* The key event's serial, the one a client may pass to set_selection or a token. */
	input.serial = wl_display_get_serial(seat->server->display);
	if (pressed) {
		note_press(router, input.client, input.serial);
	}
	wl_signal_emit(&router->events.input_delivered, &input);
}

/* Buttons */

static uint32_t resize_edges_at(struct cordon_view *view, double lx, double ly) {
	struct wlr_box box;
	cordon_view_get_box(view, &box);
	uint32_t edges = lx < box.x + box.width / 2.0 ? WLR_EDGE_LEFT : WLR_EDGE_RIGHT;
	edges |= ly < box.y + box.height / 2.0 ? WLR_EDGE_TOP : WLR_EDGE_BOTTOM;
	return edges;
}

/* A press with the move modifier held starts a compositor move or resize. */
static bool start_modifier_grab(
	struct cordon_seat *seat, struct cordon_view *view, uint32_t button) {
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat->wlr_seat);
	uint32_t modifier = seat->server->config->move_modifier;
	if (!view || !keyboard || !modifier || !(wlr_keyboard_get_modifiers(keyboard) & modifier)) {
		return false;
	}
	if (button == BTN_LEFT) {
		cordon_seat_begin_move(seat, view);
	} else if (button == BTN_RIGHT) {
		cordon_seat_begin_resize(
			seat, view, resize_edges_at(view, seat->cursor->x, seat->cursor->y));
	} else {
		return false;
	}
	return seat->cursor_mode != CORDON_CURSOR_PASSTHROUGH;
}

/* Clicking a layer surface that takes keyboard input focuses it. */
static void focus_layer_surface_at(struct cordon_seat *seat, struct wlr_surface *surface) {
	struct wlr_layer_surface_v1 *layer =
		surface ? wlr_layer_surface_v1_try_from_wlr_surface(surface) : NULL;
	if (layer && layer->current.keyboard_interactive) {
		cordon_seat_focus_surface(seat, surface);
	}
}

/* The pointer-focused surface and the point on it, as the client sees the event. */
static struct cordon_input_event pointer_event(struct cordon_seat *seat, bool pressed) {
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	struct cordon_input_event input = {
		.client = state->focused_client ? state->focused_client->client : NULL,
		.surface = state->focused_surface,
		.pressed = pressed,
		.button = true,
	};
	input.consent = cordon_input_router_surface_may_consent(
		seat->router, input.surface, true, state->sx, state->sy);
	return input;
}

static void deliver_button(struct cordon_input_router *router,
	const struct wlr_pointer_button_event *event, bool pressed) {
	struct cordon_seat *seat = router->seat;
	struct cordon_input_event input = pointer_event(seat, pressed);
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	if (pressed) {
		wl_signal_emit(&router->events.press, &input);
		if (state->button_count == 0) {
			cordon_seat_begin_implicit_grab(seat);
		}
	}
	input.serial = wlr_seat_pointer_notify_button(
		seat->wlr_seat, event->time_msec, event->button, event->state);
	if (pressed) {
		note_press(router, input.client, input.serial);
	}
	if (input.client) {
		/* For a press: the serial a drag must start from. */
		wl_signal_emit(&router->events.input_delivered, &input);
	}
	if (!pressed && state->button_count == 0) {
		/* The implicit grab is over: the pointer goes to what is under it now. */
		cordon_seat_update_pointer_focus(seat, event->time_msec);
	}
}

/*
 * A button while locked: to the locker's surface under the pointer (a press there gives it
 * the keyboard, for the output the user looks at), to nobody else, and signalled to no one,
 * like a key (deliver_key_to_locker). Dialogs and compositor grabs are not asked.
 */
static void deliver_button_to_locker(
	struct cordon_input_router *router, const struct wlr_pointer_button_event *event) {
	struct cordon_seat *seat = router->seat;
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	bool pressed = event->state == WL_POINTER_BUTTON_STATE_PRESSED;
	if (pressed) {
		note_press(router, NULL, 0);
		if (state->focused_surface) {
			cordon_seat_focus_surface(seat, state->focused_surface);
		}
		if (state->button_count == 0) {
			cordon_seat_begin_implicit_grab(seat);
		}
	} else if (seat->swallow_button_release) {
		seat->swallow_button_release = false;
		return;
	}
	/* wlroots sends it to the pointer focus: the locker's surface, or no one (seat.c). */
	wlr_seat_pointer_notify_button(
		seat->wlr_seat, event->time_msec, event->button, event->state);
	if (!pressed && state->button_count == 0) {
		cordon_seat_update_pointer_focus(seat, event->time_msec);
	}
}

void cordon_input_router_button(
	struct cordon_input_router *router, const struct wlr_pointer_button_event *event) {
	struct cordon_seat *seat = router->seat;
	bool pressed = event->state == WL_POINTER_BUTTON_STATE_PRESSED;
	if (seat->lock.locked) {
		deliver_button_to_locker(router, event);
		return;
	}
	if (seat->cursor_mode == CORDON_CURSOR_PASSTHROUGH &&
		cordon_portals_handle_button(seat->server->portals, seat->cursor->x,
			seat->cursor->y, event->button, pressed)) {
		if (pressed) {
			note_press(router, NULL, 0);
		}
		return;
	}

	if (!pressed) {
		if (seat->cursor_mode != CORDON_CURSOR_PASSTHROUGH) {
			cordon_seat_end_grab(seat, NULL);
			cordon_seat_update_pointer_focus(seat, event->time_msec);
		}
		if (seat->swallow_button_release) {
			/* The client never saw the press. */
			seat->swallow_button_release = false;
			return;
		}
		deliver_button(router, event, false);
		return;
	}

	double sx, sy;
	struct wlr_surface *surface;
	struct cordon_view *view =
		cordon_view_at(seat->server, seat->cursor->x, seat->cursor->y, &surface, &sx, &sy);
	if (surface && !cordon_seat_surface_may_get_input(seat, surface)) {
		note_press(router, NULL, 0);
		return;
	}
	if (start_modifier_grab(seat, view, event->button)) {
		seat->swallow_button_release = true;
		cordon_view_focus(view);
		note_press(router, NULL, 0);
		return;
	}
	/*
	 * Click to focus: the user's own way of giving an app the keyboard, but only where
	 * they could see the app. A click on a transparent part of a sandboxed window, or on
	 * one that appeared a moment ago, reaches it as a click and leaves the keyboard
	 * where it was: what the user types next is not for it.
	 */
	if (view && cordon_input_router_surface_may_consent(router, surface, true, sx, sy)) {
		cordon_view_focus(view);
	} else if (view) {
		wlr_log(WLR_INFO, "Click on view %u not seen by the user: focus stays", view->id);
	} else {
		focus_layer_surface_at(seat, surface);
	}
	deliver_button(router, event, true);
}

/* Focus */

void cordon_input_router_focus_will_change(
	struct cordon_input_router *router, struct wlr_surface *surface) {
	wl_signal_emit(&router->events.focus_will_change, surface);
}

bool cordon_input_router_may_activate(struct cordon_input_router *router,
	struct wlr_xdg_activation_token_v1 *token, struct cordon_view *view, const char **reason) {
	struct cordon_seat *seat = router->seat;
	/* Focus may only be handed on by a client the user was using: the token carries a press. */
	if (!token->seat || token->seat != seat->wlr_seat) {
		*reason = "token without input";
		return false;
	}
	if (client_is_trusted(view->client)) {
		return true;
	}
	/*
	 * A sandboxed window gets the keyboard only from the user's latest press: wlroots
	 * accepted the token because its serial was sent to the client that made it, so the
	 * serial being that of the seat's last press proves the maker had the focus then and
	 * that the user has pressed nothing anywhere since.
	 */
	if (!router->last_press.valid || token->serial != router->last_press.serial) {
		*reason = "token not from the seat's last press";
		return false;
	}
	if (ms_since(&router->last_press.time) > CORDON_ACTIVATION_MAX_AGE_MS) {
		*reason = "token's press too old";
		return false;
	}
	if (token->surface &&
		wl_resource_get_client(token->surface->resource) != router->last_press.client) {
		*reason = "token's surface did not take the press";
		return false;
	}
	return true;
}

/* Life cycle */

struct cordon_input_router *cordon_input_router_create(struct cordon_seat *seat) {
	struct cordon_input_router *router = calloc(1, sizeof(*router));
	if (!router) {
		return NULL;
	}
	router->seat = seat;
	wl_signal_init(&router->events.press);
	wl_signal_init(&router->events.input_delivered);
	wl_signal_init(&router->events.focus_will_change);
	return router;
}

void cordon_input_router_destroy(struct cordon_input_router *router) {
	free(router);
}
