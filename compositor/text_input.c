/*
 * The relay between text fields (text-input-v3) and the input method (input-method-v2).
 *
 * A text input is told enter only for the surface that has the keyboard, and leave when
 * the keyboard moves; the input method is activated for the one text input that is
 * enabled on that surface and hears its state (surrounding text, content type, cursor).
 * What the input method commits goes to that text input alone: an app with a text
 * input enabled on a window the user is not typing into gets nothing (attack-text-input).
 * One input method at a time; a second is told it is unavailable.
 */
#include "compositor/text_input.h"

#include <stdlib.h>
#include <string.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_text_input_v3.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/util/log.h>

#include "compositor/globals.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

struct cordon_text_input {
	struct cordon_text_input_relay *relay;
	struct wlr_text_input_v3 *input;
	struct wl_list link; /* cordon_text_input_relay.text_inputs */

	/* What the input method was last told of this field: a commit that changes nothing
	 * sends it nothing (a done would make its commit in flight stale, and wlroots drops
	 * a commit whose serial is not the last done's). */
	char *sent_text;
	uint32_t sent_cursor, sent_anchor, sent_cause, sent_hint, sent_purpose;
	bool sent;

	struct wl_listener enable;
	struct wl_listener commit;
	struct wl_listener disable;
	struct wl_listener destroy;
};

/* A candidate window of the input method, shown under the active field's cursor. */
struct cordon_input_popup {
	struct cordon_text_input_relay *relay;
	struct wlr_input_popup_surface_v2 *popup;
	struct wlr_scene_tree *tree;
	struct wl_list link; /* cordon_text_input_relay.popups */

	struct wl_listener surface_map;
	struct wl_listener surface_unmap;
	struct wl_listener surface_commit;
	struct wl_listener destroy;
};

struct cordon_text_input_relay {
	struct cordon_server *server;
	struct wlr_text_input_manager_v3 *text_input_manager;
	struct wlr_input_method_manager_v2 *input_method_manager;
	struct wlr_input_method_v2 *input_method; /* NULL without one */
	struct wlr_input_method_keyboard_grab_v2 *grab; /* NULL without one */
	struct wl_list text_inputs; /* cordon_text_input.link */
	struct wl_list popups; /* cordon_input_popup.link */
	/* The text input the input method was last activated for, or NULL. */
	struct cordon_text_input *active;

	struct wl_listener new_text_input;
	struct wl_listener new_input_method;
	struct wl_listener keyboard_focus_change;
	struct wl_listener input_method_commit;
	struct wl_listener input_method_grab_keyboard;
	struct wl_listener input_method_new_popup_surface;
	struct wl_listener input_method_destroy;
	struct wl_listener grab_destroy;
};

static struct wlr_seat *relay_seat(struct cordon_text_input_relay *relay) {
	return relay->server->seat->wlr_seat;
}

/*
 * Puts a popup under the active field's cursor rectangle (the field's surface origin
 * from the scene, the rectangle from the text input), kept on the output, and tells the
 * input method where the cursor is relative to it. Without an active field it is hidden.
 */
static void place_popup(struct cordon_input_popup *popup) {
	struct cordon_text_input_relay *relay = popup->relay;
	struct cordon_text_input *active = relay->active;
	struct wlr_surface *surface = popup->popup->surface;
	struct cordon_view *view = active
		? cordon_view_from_surface(relay->server, active->input->focused_surface)
		: NULL;
	int sx, sy;
	if (!view || !surface->mapped ||
		!wlr_scene_node_coords(&view->surface_tree->node, &sx, &sy)) {
		wlr_scene_node_set_enabled(&popup->tree->node, false);
		return;
	}
	struct wlr_box cursor = active->input->current.cursor_rectangle;
	if (!(active->input->active_features & WLR_TEXT_INPUT_V3_FEATURE_CURSOR_RECTANGLE)) {
		cursor = (struct wlr_box){0};
	}
	int x = sx + cursor.x, y = sy + cursor.y + cursor.height;
	struct cordon_output *output = cordon_output_at(relay->server, x, y);
	if (output) {
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		int width = surface->current.width, height = surface->current.height;
		if (x + width > box.x + box.width) {
			x = box.x + box.width - width;
		}
		if (y + height > box.y + box.height) {
			/* No room below: above the cursor. */
			y = sy + cursor.y - height;
		}
		x = x < box.x ? box.x : x;
		y = y < box.y ? box.y : y;
	}
	wlr_scene_node_set_position(&popup->tree->node, x, y);
	wlr_scene_node_set_enabled(&popup->tree->node, true);
	struct wlr_box relative = {
		.x = sx + cursor.x - x,
		.y = sy + cursor.y - y,
		.width = cursor.width,
		.height = cursor.height,
	};
	wlr_input_popup_surface_v2_send_text_input_rectangle(popup->popup, &relative);
}

static void place_popups(struct cordon_text_input_relay *relay) {
	struct cordon_input_popup *popup;
	wl_list_for_each(popup, &relay->popups, link) {
		place_popup(popup);
	}
}

/* The enabled text input on the surface that has the keyboard, or NULL. */
static struct cordon_text_input *focused_enabled(struct cordon_text_input_relay *relay) {
	struct wlr_surface *focus = relay_seat(relay)->keyboard_state.focused_surface;
	struct cordon_text_input *text_input;
	wl_list_for_each(text_input, &relay->text_inputs, link) {
		if (focus && text_input->input->focused_surface == focus &&
			text_input->input->current_enabled) {
			return text_input;
		}
	}
	return NULL;
}

static bool state_changed(struct cordon_text_input *text_input) {
	const struct wlr_text_input_v3_state *now = &text_input->input->current;
	const char *text = now->surrounding.text ? now->surrounding.text : "";
	return !text_input->sent || strcmp(text, text_input->sent_text) != 0 ||
		now->surrounding.cursor != text_input->sent_cursor ||
		now->surrounding.anchor != text_input->sent_anchor ||
		now->text_change_cause != text_input->sent_cause ||
		now->content_type.hint != text_input->sent_hint ||
		now->content_type.purpose != text_input->sent_purpose;
}

static void remember_state(struct cordon_text_input *text_input) {
	const struct wlr_text_input_v3_state *now = &text_input->input->current;
	char *text = strdup(now->surrounding.text ? now->surrounding.text : "");
	if (!text) {
		text_input->sent = false;
		return;
	}
	free(text_input->sent_text);
	text_input->sent_text = text;
	text_input->sent_cursor = now->surrounding.cursor;
	text_input->sent_anchor = now->surrounding.anchor;
	text_input->sent_cause = now->text_change_cause;
	text_input->sent_hint = now->content_type.hint;
	text_input->sent_purpose = now->content_type.purpose;
	text_input->sent = true;
}

static void send_state(
	struct wlr_input_method_v2 *input_method, struct cordon_text_input *text_input) {
	remember_state(text_input);
	struct wlr_text_input_v3 *input = text_input->input;
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_SURROUNDING_TEXT) {
		const char *text = input->current.surrounding.text;
		wlr_input_method_v2_send_surrounding_text(input_method, text ? text : "",
			input->current.surrounding.cursor, input->current.surrounding.anchor);
	}
	wlr_input_method_v2_send_text_change_cause(input_method, input->current.text_change_cause);
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_CONTENT_TYPE) {
		wlr_input_method_v2_send_content_type(input_method,
			input->current.content_type.hint, input->current.content_type.purpose);
	}
}

/*
 * Brings the input method in line with the text input that should be active now:
 * deactivated for one that lost the keyboard or was disabled, activated (with its state)
 * for the new one. Called after every change of focus or of a text input.
 */
static void update_active(struct cordon_text_input_relay *relay) {
	struct cordon_text_input *now = focused_enabled(relay);
	struct wlr_input_method_v2 *input_method = relay->input_method;
	if (now == relay->active) {
		return;
	}
	if (relay->active && input_method) {
		wlr_input_method_v2_send_deactivate(input_method);
		wlr_input_method_v2_send_done(input_method);
	}
	relay->active = now;
	if (now && input_method) {
		wlr_input_method_v2_send_activate(input_method);
		send_state(input_method, now);
		wlr_input_method_v2_send_done(input_method);
	}
	place_popups(relay);
}

static void handle_text_input_enable(struct wl_listener *listener, void *data) {
	struct cordon_text_input *text_input = wl_container_of(listener, text_input, enable);
	struct cordon_text_input_relay *relay = text_input->relay;
	if (relay->active == text_input && relay->input_method) {
		/* Enabled again (a new field in the same window): a fresh activation. */
		relay->active = NULL;
	}
	update_active(relay);
}

static void handle_text_input_commit(struct wl_listener *listener, void *data) {
	struct cordon_text_input *text_input = wl_container_of(listener, text_input, commit);
	struct cordon_text_input_relay *relay = text_input->relay;
	if (relay->active != text_input || !relay->input_method) {
		update_active(relay);
		return;
	}
	if (state_changed(text_input)) {
		send_state(relay->input_method, text_input);
		wlr_input_method_v2_send_done(relay->input_method);
	}
	/* The cursor may have moved. */
	place_popups(relay);
}

static void handle_text_input_disable(struct wl_listener *listener, void *data) {
	struct cordon_text_input *text_input = wl_container_of(listener, text_input, disable);
	update_active(text_input->relay);
}

static void free_text_input(struct cordon_text_input *text_input) {
	wl_list_remove(&text_input->enable.link);
	wl_list_remove(&text_input->commit.link);
	wl_list_remove(&text_input->disable.link);
	wl_list_remove(&text_input->destroy.link);
	wl_list_remove(&text_input->link);
	free(text_input->sent_text);
	free(text_input);
}

static void handle_text_input_destroy(struct wl_listener *listener, void *data) {
	struct cordon_text_input *text_input = wl_container_of(listener, text_input, destroy);
	struct cordon_text_input_relay *relay = text_input->relay;
	bool was_active = relay->active == text_input;
	free_text_input(text_input);
	if (was_active) {
		relay->active = NULL;
		if (relay->input_method) {
			wlr_input_method_v2_send_deactivate(relay->input_method);
			wlr_input_method_v2_send_done(relay->input_method);
		}
	}
	update_active(relay);
}

/* Enter for the client that has the keyboard, leave for every other. */
static void send_focus(struct cordon_text_input_relay *relay, struct cordon_text_input *text_input,
	struct wlr_surface *focus) {
	struct wlr_text_input_v3 *input = text_input->input;
	if (input->focused_surface && input->focused_surface != focus) {
		wlr_text_input_v3_send_leave(input);
	}
	if (focus && !input->focused_surface &&
		wl_resource_get_client(input->resource) ==
			wl_resource_get_client(focus->resource)) {
		wlr_text_input_v3_send_enter(input, focus);
	}
}

static void handle_new_text_input(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay = wl_container_of(listener, relay, new_text_input);
	struct wlr_text_input_v3 *input = data;
	if (input->seat != relay_seat(relay)) {
		return;
	}
	struct cordon_text_input *text_input = calloc(1, sizeof(*text_input));
	if (!text_input) {
		wl_client_post_no_memory(wl_resource_get_client(input->resource));
		return;
	}
	text_input->relay = relay;
	text_input->input = input;
	text_input->enable.notify = handle_text_input_enable;
	wl_signal_add(&input->events.enable, &text_input->enable);
	text_input->commit.notify = handle_text_input_commit;
	wl_signal_add(&input->events.commit, &text_input->commit);
	text_input->disable.notify = handle_text_input_disable;
	wl_signal_add(&input->events.disable, &text_input->disable);
	text_input->destroy.notify = handle_text_input_destroy;
	wl_signal_add(&input->events.destroy, &text_input->destroy);
	wl_list_insert(&relay->text_inputs, &text_input->link);
	send_focus(relay, text_input, relay_seat(relay)->keyboard_state.focused_surface);
}

static void handle_keyboard_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay =
		wl_container_of(listener, relay, keyboard_focus_change);
	struct wlr_seat_keyboard_focus_change_event *event = data;
	struct cordon_text_input *text_input;
	wl_list_for_each(text_input, &relay->text_inputs, link) {
		send_focus(relay, text_input, event->new_surface);
	}
	update_active(relay);
}

/* What the input method committed, for the active text input only. */
static void handle_input_method_commit(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay =
		wl_container_of(listener, relay, input_method_commit);
	struct wlr_input_method_v2 *input_method = relay->input_method;
	struct cordon_text_input *text_input = relay->active;
	if (!text_input || text_input != focused_enabled(relay)) {
		return;
	}
	struct wlr_text_input_v3 *input = text_input->input;
	if (input_method->current.preedit.text) {
		wlr_text_input_v3_send_preedit_string(input, input_method->current.preedit.text,
			input_method->current.preedit.cursor_begin,
			input_method->current.preedit.cursor_end);
	}
	if (input_method->current.commit_text) {
		wlr_text_input_v3_send_commit_string(input, input_method->current.commit_text);
	}
	if (input_method->current.delete.before_length ||
		input_method->current.delete.after_length) {
		wlr_text_input_v3_send_delete_surrounding_text(input,
			input_method->current.delete.before_length,
			input_method->current.delete.after_length);
	}
	wlr_text_input_v3_send_done(input);
}

static void handle_grab_destroy(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay = wl_container_of(listener, relay, grab_destroy);
	wl_list_remove(&relay->grab_destroy.link);
	wl_list_init(&relay->grab_destroy.link);
	relay->grab = NULL;
	/* The app gets the modifiers as they are now, which the grab had. */
	struct wlr_seat *seat = relay_seat(relay);
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat);
	if (keyboard) {
		wlr_seat_keyboard_notify_modifiers(seat, &keyboard->modifiers);
	}
}

static void handle_input_method_grab_keyboard(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay =
		wl_container_of(listener, relay, input_method_grab_keyboard);
	struct wlr_input_method_keyboard_grab_v2 *grab = data;
	relay->grab = grab;
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(relay_seat(relay));
	/* The grab needs a keymap before the first key; set_keyboard sends it. */
	wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard);
	wl_list_remove(&relay->grab_destroy.link);
	relay->grab_destroy.notify = handle_grab_destroy;
	wl_signal_add(&grab->events.destroy, &relay->grab_destroy);
}

static void handle_popup_surface_map(struct wl_listener *listener, void *data) {
	struct cordon_input_popup *popup = wl_container_of(listener, popup, surface_map);
	place_popup(popup);
}

static void handle_popup_surface_unmap(struct wl_listener *listener, void *data) {
	struct cordon_input_popup *popup = wl_container_of(listener, popup, surface_unmap);
	wlr_scene_node_set_enabled(&popup->tree->node, false);
}

static void handle_popup_surface_commit(struct wl_listener *listener, void *data) {
	struct cordon_input_popup *popup = wl_container_of(listener, popup, surface_commit);
	/* A new size may need a new place on the output. */
	if (popup->popup->surface->mapped) {
		place_popup(popup);
	}
}

static void destroy_popup(struct cordon_input_popup *popup) {
	wl_list_remove(&popup->surface_map.link);
	wl_list_remove(&popup->surface_unmap.link);
	wl_list_remove(&popup->surface_commit.link);
	wl_list_remove(&popup->destroy.link);
	wl_list_remove(&popup->link);
	wlr_scene_node_destroy(&popup->tree->node);
	free(popup);
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct cordon_input_popup *popup = wl_container_of(listener, popup, destroy);
	destroy_popup(popup);
}

/*
 * Candidate windows go in the top layer: above windows, below the overlay and cordon's
 * trusted UI (dialogs, the labels' attention overlay), which no input method may cover.
 */
static void handle_input_method_new_popup_surface(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay =
		wl_container_of(listener, relay, input_method_new_popup_surface);
	struct wlr_input_popup_surface_v2 *surface_popup = data;
	struct cordon_input_popup *popup = calloc(1, sizeof(*popup));
	if (!popup) {
		wl_resource_post_no_memory(surface_popup->resource);
		return;
	}
	popup->relay = relay;
	popup->popup = surface_popup;
	popup->tree = wlr_scene_tree_create(relay->server->layers[CORDON_LAYER_TOP]);
	if (!popup->tree ||
		!wlr_scene_subsurface_tree_create(popup->tree, surface_popup->surface)) {
		if (popup->tree) {
			wlr_scene_node_destroy(&popup->tree->node);
		}
		free(popup);
		wl_resource_post_no_memory(surface_popup->resource);
		return;
	}
	wlr_scene_node_set_enabled(&popup->tree->node, false);
	popup->surface_map.notify = handle_popup_surface_map;
	wl_signal_add(&surface_popup->surface->events.map, &popup->surface_map);
	popup->surface_unmap.notify = handle_popup_surface_unmap;
	wl_signal_add(&surface_popup->surface->events.unmap, &popup->surface_unmap);
	popup->surface_commit.notify = handle_popup_surface_commit;
	wl_signal_add(&surface_popup->surface->events.commit, &popup->surface_commit);
	popup->destroy.notify = handle_popup_destroy;
	wl_signal_add(&surface_popup->events.destroy, &popup->destroy);
	wl_list_insert(&relay->popups, &popup->link);
	place_popup(popup);
}

static void handle_input_method_destroy(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay =
		wl_container_of(listener, relay, input_method_destroy);
	wl_list_remove(&relay->input_method_commit.link);
	wl_list_remove(&relay->input_method_grab_keyboard.link);
	wl_list_remove(&relay->input_method_new_popup_surface.link);
	wl_list_remove(&relay->input_method_destroy.link);
	wl_list_init(&relay->input_method_commit.link);
	wl_list_init(&relay->input_method_grab_keyboard.link);
	wl_list_init(&relay->input_method_new_popup_surface.link);
	wl_list_init(&relay->input_method_destroy.link);
	relay->input_method = NULL;
	/* Whatever it was composing is dropped: the field is told so. */
	if (relay->active) {
		wlr_text_input_v3_send_preedit_string(relay->active->input, NULL, 0, 0);
		wlr_text_input_v3_send_done(relay->active->input);
	}
	relay->active = NULL;
}

static void handle_new_input_method(struct wl_listener *listener, void *data) {
	struct cordon_text_input_relay *relay = wl_container_of(listener, relay, new_input_method);
	struct wlr_input_method_v2 *input_method = data;
	if (input_method->seat != relay_seat(relay) || relay->input_method) {
		wlr_log(WLR_INFO,
			"Input method: one is running already; the new one is unavailable");
		wlr_input_method_v2_send_unavailable(input_method);
		return;
	}
	relay->input_method = input_method;
	relay->input_method_commit.notify = handle_input_method_commit;
	wl_signal_add(&input_method->events.commit, &relay->input_method_commit);
	relay->input_method_grab_keyboard.notify = handle_input_method_grab_keyboard;
	wl_signal_add(&input_method->events.grab_keyboard, &relay->input_method_grab_keyboard);
	relay->input_method_new_popup_surface.notify = handle_input_method_new_popup_surface;
	wl_signal_add(
		&input_method->events.new_popup_surface, &relay->input_method_new_popup_surface);
	relay->input_method_destroy.notify = handle_input_method_destroy;
	wl_signal_add(&input_method->events.destroy, &relay->input_method_destroy);
	relay->active = NULL;
	update_active(relay);
}

/* The input method's own virtual keyboard: what it sends back must reach the app. */
static bool from_input_method(
	struct cordon_text_input_relay *relay, struct wlr_keyboard *keyboard) {
	struct wlr_virtual_keyboard_v1 *virtual =
		wlr_input_device_get_virtual_keyboard(&keyboard->base);
	return virtual && relay->grab &&
		wl_resource_get_client(virtual->resource) ==
		wl_resource_get_client(relay->grab->resource);
}

static bool grab_applies(struct cordon_text_input_relay *relay, struct cordon_keyboard *keyboard) {
	return relay->grab && relay->active && relay->active == focused_enabled(relay) &&
		!from_input_method(relay, keyboard->wlr_keyboard);
}

bool cordon_text_input_relay_takes_keys(
	struct cordon_text_input_relay *relay, struct cordon_keyboard *keyboard) {
	return relay && grab_applies(relay, keyboard);
}

bool cordon_text_input_relay_key(struct cordon_text_input_relay *relay,
	struct cordon_keyboard *keyboard, const struct wlr_keyboard_key_event *event) {
	if (!relay || !relay->grab) {
		return false;
	}
	wlr_input_method_keyboard_grab_v2_set_keyboard(relay->grab, keyboard->wlr_keyboard);
	wlr_input_method_keyboard_grab_v2_send_key(
		relay->grab, event->time_msec, event->keycode, event->state);
	return true;
}

bool cordon_text_input_relay_modifiers(
	struct cordon_text_input_relay *relay, struct cordon_keyboard *keyboard) {
	if (!grab_applies(relay, keyboard)) {
		return false;
	}
	wlr_input_method_keyboard_grab_v2_set_keyboard(relay->grab, keyboard->wlr_keyboard);
	wlr_input_method_keyboard_grab_v2_send_modifiers(
		relay->grab, &keyboard->wlr_keyboard->modifiers);
	return true;
}

struct cordon_text_input_relay *cordon_text_input_relay_of(struct cordon_server *server) {
	return server->globals ? server->globals->text_input : NULL;
}

struct cordon_text_input_relay *cordon_text_input_relay_create(struct cordon_server *server) {
	struct cordon_text_input_relay *relay = calloc(1, sizeof(*relay));
	if (!relay) {
		return NULL;
	}
	relay->server = server;
	wl_list_init(&relay->text_inputs);
	wl_list_init(&relay->popups);
	wl_list_init(&relay->input_method_commit.link);
	wl_list_init(&relay->input_method_new_popup_surface.link);
	wl_list_init(&relay->input_method_grab_keyboard.link);
	wl_list_init(&relay->input_method_destroy.link);
	wl_list_init(&relay->grab_destroy.link);
	relay->text_input_manager = wlr_text_input_manager_v3_create(server->display);
	relay->input_method_manager = wlr_input_method_manager_v2_create(server->display);
	if (!relay->text_input_manager || !relay->input_method_manager) {
		free(relay);
		return NULL;
	}
	relay->new_text_input.notify = handle_new_text_input;
	wl_signal_add(&relay->text_input_manager->events.new_text_input, &relay->new_text_input);
	relay->new_input_method.notify = handle_new_input_method;
	wl_signal_add(
		&relay->input_method_manager->events.new_input_method, &relay->new_input_method);
	relay->keyboard_focus_change.notify = handle_keyboard_focus_change;
	wl_signal_add(&server->seat->wlr_seat->keyboard_state.events.focus_change,
		&relay->keyboard_focus_change);
	return relay;
}

void cordon_text_input_relay_destroy(struct cordon_text_input_relay *relay) {
	if (!relay) {
		return;
	}
	wl_list_remove(&relay->new_text_input.link);
	wl_list_remove(&relay->new_input_method.link);
	wl_list_remove(&relay->keyboard_focus_change.link);
	wl_list_remove(&relay->input_method_commit.link);
	wl_list_remove(&relay->input_method_grab_keyboard.link);
	wl_list_remove(&relay->input_method_new_popup_surface.link);
	wl_list_remove(&relay->input_method_destroy.link);
	wl_list_remove(&relay->grab_destroy.link);
	struct cordon_input_popup *popup, *popup_tmp;
	wl_list_for_each_safe(popup, popup_tmp, &relay->popups, link) {
		destroy_popup(popup);
	}
	struct cordon_text_input *text_input, *tmp;
	wl_list_for_each_safe(text_input, tmp, &relay->text_inputs, link) {
		free_text_input(text_input);
	}
	free(relay);
}
