/*
 * The seat: one wlr_seat with every keyboard and the cursor. Keys go through
 * the bindings first; pointer events drive click focus, compositor grabs
 * (interactive move and resize) and otherwise reach the surface under the
 * cursor.
 */
#include "compositor/seat.h"

#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/backend.h>
#include <wlr/backend/session.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/interfaces/wlr_pointer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/edges.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor/attention.h"
#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/freeze.h"
#include "compositor/globals.h"
#include "compositor/input_router.h"
#include "compositor/seat_protocols.h"
#include "compositor/selection.h"
#include "compositor/server.h"
#include "compositor/session_lock.h"
#include "compositor/text_input.h"
#include "compositor/view.h"
#include "portals/dialog_input.h"

/*
 * The largest cursor image a client may show (logical px): the largest xcursor size
 * themes ship. A bigger one could cover trusted UI, or an indicator, far from the pointer.
 */
#define CORDON_CURSOR_MAX_SIZE 256
#define CORDON_CURSOR_MAX_SIZE_TEXT "256x256"

static uint32_t now_msec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

/* A frozen client cannot read: input or focus would fill its buffer (docs/freeze.md). */
static bool surface_is_frozen(struct cordon_seat *seat, struct wlr_surface *surface) {
	struct wl_client *client = wl_resource_get_client(surface->resource);
	return cordon_freeze_client_is_frozen(seat->server, client);
}

/* While the session is locked, only the locker gets input (none while it has no locker). */
bool cordon_seat_surface_may_get_input(struct cordon_seat *seat, struct wlr_surface *surface) {
	return !seat->lock.locked || !surface ||
		(seat->lock.locker &&
			wl_resource_get_client(surface->resource) == seat->lock.locker);
}

void cordon_seat_set_lock(struct cordon_seat *seat, bool locked, struct wl_client *locker) {
	bool was_locked = seat->lock.locked;
	seat->lock.locked = locked;
	seat->lock.locker = locked ? locker : NULL;
	if (locked && !was_locked) {
		/* What the overlay lists is not for whoever finds the screen locked. */
		cordon_attention_close(seat->server->attention);
		/* The lock screen takes over: nobody keeps focus, no move or resize goes on. */
		cordon_seat_end_grab(seat, NULL);
		/* A drag an app started is cancelled, not dropped into the lock screen. */
		wlr_seat_pointer_end_grab(seat->wlr_seat);
		wlr_seat_keyboard_end_grab(seat->wlr_seat);
		cordon_input_router_focus_will_change(seat->router, NULL);
		wlr_seat_keyboard_notify_clear_focus(seat->wlr_seat);
		wlr_seat_pointer_clear_focus(seat->wlr_seat);
	} else if (!locked && was_locked && seat->focused_view) {
		cordon_seat_focus_surface(seat, seat->focused_view->surface);
	}
	cordon_seat_update_pointer_focus(seat, 0);
}

/* Bindings */

static void run_action(struct cordon_seat *seat, const struct cordon_binding *binding) {
	struct cordon_server *server = seat->server;
	struct cordon_view *focused = seat->focused_view;
	switch (binding->action) {
	case CORDON_ACTION_EXEC:
		cordon_spawn(server, binding->command);
		break;
	case CORDON_ACTION_QUIT:
		cordon_server_terminate(server);
		break;
	case CORDON_ACTION_CLOSE:
		if (focused) {
			cordon_view_close(focused);
		}
		break;
	case CORDON_ACTION_FOCUS_NEXT:
		cordon_view_cycle_focus(server, true);
		break;
	case CORDON_ACTION_FOCUS_PREV:
		cordon_view_cycle_focus(server, false);
		break;
	case CORDON_ACTION_MINIMIZE:
		if (focused) {
			cordon_view_set_minimized(focused, true);
		}
		break;
	case CORDON_ACTION_MAXIMIZE:
		if (focused) {
			cordon_view_set_maximized(focused, !focused->maximized);
		}
		break;
	case CORDON_ACTION_FULLSCREEN:
		if (focused) {
			cordon_view_set_fullscreen(focused, !focused->fullscreen);
		}
		break;
	case CORDON_ACTION_PASTE_ACROSS:
		/* The chord is consent for the focused app only if the user could see that app. */
		if (!cordon_input_router_surface_may_consent(seat->router,
			    seat->wlr_seat->keyboard_state.focused_surface, false, 0, 0)) {
			wlr_log(WLR_ERROR,
				"Paste-across refused: the focused window is not shown "
				"to the user (too new, too small or transparent)");
			break;
		}
		cordon_selection_paste_across(seat->selection);
		break;
	}
}

bool cordon_seat_handle_binding(struct cordon_seat *seat, uint32_t modifiers, uint32_t keysym) {
	/* Caps Lock and Num Lock (mod2) never change what a binding means. */
	modifiers &= ~(WLR_MODIFIER_CAPS | WLR_MODIFIER_MOD2);
	keysym = xkb_keysym_to_lower(keysym);
	struct cordon_binding *binding;
	wl_list_for_each(binding, &seat->server->config->bindings, link) {
		if (binding->modifiers == modifiers && binding->keysym == keysym) {
			run_action(seat, binding);
			return true;
		}
	}
	return false;
}

static bool handle_vt_switch(struct cordon_seat *seat, xkb_keysym_t keysym) {
	if (keysym < XKB_KEY_XF86Switch_VT_1 || keysym > XKB_KEY_XF86Switch_VT_12) {
		return false;
	}
	struct wlr_session *session = seat->server->session;
	if (session) {
		wlr_session_change_vt(session, keysym - XKB_KEY_XF86Switch_VT_1 + 1);
	}
	return true;
}

/* Keyboards */

bool cordon_seat_key_binding(struct cordon_keyboard *keyboard, uint32_t keycode) {
	struct cordon_seat *seat = keyboard->seat;
	struct wlr_keyboard *wlr_keyboard = keyboard->wlr_keyboard;
	xkb_keycode_t xkb_code = keycode + 8;

	/* VT switching uses the translated keysyms (Ctrl+Alt+F1 gives XF86Switch_VT_1). */
	const xkb_keysym_t *syms;
	int count = xkb_state_key_get_syms(wlr_keyboard->xkb_state, xkb_code, &syms);
	for (int i = 0; i < count; i++) {
		if (handle_vt_switch(seat, syms[i])) {
			return true;
		}
	}

	/*
	 * A host app that inhibits shortcuts (a virtual machine) gets them, and a locked
	 * session runs none (they could close, start or quit behind the lock); VT switches stay.
	 */
	if (seat->lock.locked || cordon_seat_protocols_shortcuts_inhibited(seat->protocols)) {
		return false;
	}
	/*
	 * Bindings match the key's level-one keysym, so that Logo+Shift+q is
	 * found whatever Shift does to q.
	 */
	uint32_t modifiers = wlr_keyboard_get_modifiers(wlr_keyboard);
	xkb_layout_index_t layout = xkb_state_key_get_layout(wlr_keyboard->xkb_state, xkb_code);
	count = xkb_keymap_key_get_syms_by_level(wlr_keyboard->keymap, xkb_code, layout, 0, &syms);
	for (int i = 0; i < count; i++) {
		if (cordon_seat_handle_binding(seat, modifiers, syms[i])) {
			return true;
		}
	}
	return false;
}

static void handle_keyboard_key(struct wl_listener *listener, void *data) {
	struct cordon_keyboard *keyboard = wl_container_of(listener, keyboard, key);
	struct cordon_seat *seat = keyboard->seat;
	cordon_globals_notify_activity(seat->server->globals);
	/* Bindings, a dialog, then the focused app: the router decides (input_router.c). */
	cordon_input_router_key(seat->router, keyboard, data);
}

static void handle_keyboard_modifiers(struct wl_listener *listener, void *data) {
	struct cordon_keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
	/* Like the keys, modifiers go to a shown dialog only (none shows while locked). */
	if (!keyboard->seat->lock.locked &&
		cordon_portals_withhold_modifiers(keyboard->seat->server->portals)) {
		return;
	}
	/* The input method composing for the focused field gets them instead of the app. */
	if (!keyboard->seat->lock.locked &&
		cordon_text_input_relay_modifiers(
			cordon_text_input_relay_of(keyboard->seat->server), keyboard)) {
		return;
	}
	wlr_seat_set_keyboard(keyboard->seat->wlr_seat, keyboard->wlr_keyboard);
	wlr_seat_keyboard_notify_modifiers(
		keyboard->seat->wlr_seat, &keyboard->wlr_keyboard->modifiers);
}

static void handle_keyboard_destroy(struct wl_listener *listener, void *data) {
	struct cordon_keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
	wl_list_remove(&keyboard->key.link);
	wl_list_remove(&keyboard->modifiers.link);
	wl_list_remove(&keyboard->destroy.link);
	wl_list_remove(&keyboard->link);
	free(keyboard);
}

static void add_keyboard(
	struct cordon_seat *seat, struct wlr_keyboard *wlr_keyboard, bool own_keymap) {
	struct cordon_keyboard *keyboard = calloc(1, sizeof(*keyboard));
	if (!keyboard) {
		return;
	}
	keyboard->seat = seat;
	keyboard->wlr_keyboard = wlr_keyboard;
	if (!own_keymap) {
		wlr_keyboard_set_keymap(wlr_keyboard, seat->keymap);
	}
	const struct cordon_config *config = seat->server->config;
	wlr_keyboard_set_repeat_info(wlr_keyboard, config->repeat_rate, config->repeat_delay);

	keyboard->key.notify = handle_keyboard_key;
	wl_signal_add(&wlr_keyboard->events.key, &keyboard->key);
	keyboard->modifiers.notify = handle_keyboard_modifiers;
	wl_signal_add(&wlr_keyboard->events.modifiers, &keyboard->modifiers);
	keyboard->destroy.notify = handle_keyboard_destroy;
	wl_signal_add(&wlr_keyboard->base.events.destroy, &keyboard->destroy);
	wl_list_insert(&seat->keyboards, &keyboard->link);
	wlr_seat_set_keyboard(seat->wlr_seat, wlr_keyboard);
}

void cordon_seat_add_client_keyboard(struct cordon_seat *seat, struct wlr_keyboard *keyboard) {
	add_keyboard(seat, keyboard, true);
}

void cordon_seat_add_pointer(struct cordon_seat *seat, struct wlr_pointer *pointer) {
	wlr_cursor_attach_input_device(seat->cursor, &pointer->base);
}

void cordon_seat_add_device(struct cordon_seat *seat, struct wlr_input_device *device) {
	switch (device->type) {
	case WLR_INPUT_DEVICE_KEYBOARD:
		add_keyboard(seat, wlr_keyboard_from_input_device(device), false);
		break;
	case WLR_INPUT_DEVICE_POINTER:
		cordon_seat_add_pointer(seat, wlr_pointer_from_input_device(device));
		break;
	default:
		wlr_log(WLR_DEBUG, "Ignoring input device %s of type %d", device->name,
			device->type);
		break;
	}
}

static const struct wlr_keyboard_impl virtual_keyboard_impl = {
	.name = "cordon-virtual-keyboard",
};

static const struct wlr_pointer_impl virtual_pointer_impl = {
	.name = "cordon-virtual-pointer",
};

bool cordon_seat_add_virtual_devices(struct cordon_seat *seat) {
	seat->virtual_keyboard = calloc(1, sizeof(*seat->virtual_keyboard));
	seat->virtual_pointer = calloc(1, sizeof(*seat->virtual_pointer));
	if (!seat->virtual_keyboard || !seat->virtual_pointer) {
		free(seat->virtual_keyboard);
		free(seat->virtual_pointer);
		seat->virtual_keyboard = NULL;
		seat->virtual_pointer = NULL;
		return false;
	}
	wlr_keyboard_init(
		seat->virtual_keyboard, &virtual_keyboard_impl, virtual_keyboard_impl.name);
	add_keyboard(seat, seat->virtual_keyboard, false);
	wlr_pointer_init(seat->virtual_pointer, &virtual_pointer_impl, virtual_pointer_impl.name);
	cordon_seat_add_pointer(seat, seat->virtual_pointer);
	return true;
}

/* The virtual devices go first: their destroy signal takes them off the seat and cursor. */
static void destroy_virtual_devices(struct cordon_seat *seat) {
	if (seat->virtual_keyboard) {
		wlr_keyboard_finish(seat->virtual_keyboard);
		free(seat->virtual_keyboard);
		seat->virtual_keyboard = NULL;
	}
	if (seat->virtual_pointer) {
		wlr_pointer_finish(seat->virtual_pointer);
		free(seat->virtual_pointer);
		seat->virtual_pointer = NULL;
	}
}

/* Focus */

void cordon_seat_focus_surface(struct cordon_seat *seat, struct wlr_surface *surface) {
	if (!surface) {
		cordon_input_router_focus_will_change(seat->router, NULL);
		wlr_seat_keyboard_notify_clear_focus(seat->wlr_seat);
		return;
	}
	if (!cordon_seat_surface_may_get_input(seat, surface) || surface_is_frozen(seat, surface)) {
		return;
	}
	cordon_input_router_focus_will_change(seat->router, surface);
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat->wlr_seat);
	/*
	 * While a portal dialog has the keyboard, what is held down is being typed into it: the
	 * app enters with no keys and no modifiers, and is sent the modifiers when the dialog
	 * gives the keyboard back.
	 */
	if (keyboard &&
		(seat->lock.locked || !cordon_portals_withhold_modifiers(seat->server->portals))) {
		wlr_seat_keyboard_notify_enter(seat->wlr_seat, surface, keyboard->keycodes,
			keyboard->num_keycodes, &keyboard->modifiers);
	} else {
		wlr_seat_keyboard_notify_enter(seat->wlr_seat, surface, NULL, 0, NULL);
	}
}

void cordon_seat_send_modifiers(struct cordon_seat *seat) {
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat->wlr_seat);
	if (keyboard) {
		wlr_seat_keyboard_notify_modifiers(seat->wlr_seat, &keyboard->modifiers);
	}
}

static struct wlr_surface *surface_at(
	struct cordon_seat *seat, double lx, double ly, double *sx, double *sy) {
	struct wlr_scene_node *node =
		wlr_scene_node_at(&seat->server->scene->tree.node, lx, ly, sx, sy);
	if (!node || node->type != WLR_SCENE_NODE_BUFFER) {
		return NULL;
	}
	struct wlr_scene_surface *scene_surface =
		wlr_scene_surface_try_from_buffer(wlr_scene_buffer_from_node(node));
	return scene_surface ? scene_surface->surface : NULL;
}

/* The surface under the cursor if it may have the pointer now (not hidden by policy, not frozen).
 */
static struct wlr_surface *input_surface_at_cursor(
	struct cordon_seat *seat, double *sx, double *sy) {
	struct wlr_surface *surface = surface_at(seat, seat->cursor->x, seat->cursor->y, sx, sy);
	if (surface &&
		(!cordon_seat_surface_may_get_input(seat, surface) ||
			surface_is_frozen(seat, surface))) {
		return NULL;
	}
	return surface;
}

/*
 * The cursor theme is read on first use, not at start-up: wlr_xcursor_manager_load
 * reads every cursor of the theme (124 files for Adwaita), 11-15 ms of a ~40 ms
 * start-up here, and until a pointer moves there is no cursor to draw. Loading a
 * scale that is already loaded returns at once.
 */
static void set_cursor_image(struct cordon_seat *seat, const char *name) {
	if (!wlr_xcursor_manager_load(seat->xcursor_manager, 1)) {
		wlr_log(WLR_ERROR, "Cannot load the cursor theme");
		return;
	}
	wlr_cursor_set_xcursor(seat->cursor, seat->xcursor_manager, name);
}

/*
 * Gives the pointer to the surface under it. True when a motion was sent that still needs
 * its wl_pointer.frame: an enter or a leave comes with one from wlroots, and a device's own
 * motion is followed by the device's frame.
 */
static bool pointer_focus_at_cursor(struct cordon_seat *seat, uint32_t time_msec) {
	if (seat->cursor_mode != CORDON_CURSOR_PASSTHROUGH) {
		return false;
	}
	if (time_msec == 0) {
		time_msec = now_msec();
	}
	struct wlr_seat *wlr_seat = seat->wlr_seat;
	struct wlr_seat_pointer_state *state = &wlr_seat->pointer_state;
	/*
	 * A held button is the client's implicit grab: the surface that took the press keeps
	 * the pointer wherever it goes (a selection dragged out of a window) until the last
	 * button is up. Trusted dialogs still take the pointer first (process_motion).
	 */
	if (state->button_count > 0 && state->focused_surface &&
		!wlr_seat_pointer_has_grab(wlr_seat)) {
		wlr_seat_pointer_notify_motion(wlr_seat, time_msec,
			seat->cursor->x - seat->implicit_grab_x,
			seat->cursor->y - seat->implicit_grab_y);
		return true;
	}
	double sx, sy;
	struct wlr_surface *surface = input_surface_at_cursor(seat, &sx, &sy);
	if (!surface) {
		/*
		 * Nobody sets the image over the background: cordon does, once a
		 * pointer has moved. Until then there is no cursor to draw, and
		 * outputs can scan a fullscreen client's buffer out directly.
		 */
		if (seat->pointer_moved) {
			set_cursor_image(seat, "left_ptr");
		}
		/* Through the grab: a drag's target must see the pointer leave. */
		wlr_seat_pointer_notify_clear_focus(seat->wlr_seat);
		return false;
	}
	cordon_selection_drag_will_enter(seat->selection, surface);
	/* The enter carries the position; a grab (a drag) is told of the motion itself. */
	bool entering = state->focused_surface != surface;
	wlr_seat_pointer_notify_enter(wlr_seat, surface, sx, sy);
	if (entering && !wlr_seat_pointer_has_grab(wlr_seat)) {
		return false;
	}
	wlr_seat_pointer_notify_motion(wlr_seat, time_msec, sx, sy);
	return true;
}

void cordon_seat_begin_implicit_grab(struct cordon_seat *seat) {
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	seat->implicit_grab_x = seat->cursor->x - state->sx;
	seat->implicit_grab_y = seat->cursor->y - state->sy;
}

/* The scene changed under the pointer: what it now points at hears of it, in one frame. */
void cordon_seat_update_pointer_focus(struct cordon_seat *seat, uint32_t time_msec) {
	if (pointer_focus_at_cursor(seat, time_msec)) {
		wlr_seat_pointer_notify_frame(seat->wlr_seat);
	}
}

/* Compositor grabs: interactive move and resize */

static void begin_grab(struct cordon_seat *seat, struct cordon_view *view,
	enum cordon_cursor_mode mode, uint32_t edges) {
	if (view->fullscreen || view->maximized) {
		return;
	}
	seat->cursor_mode = mode;
	seat->grabbed_view = view;
	seat->grab_x = seat->cursor->x;
	seat->grab_y = seat->cursor->y;
	cordon_view_get_box(view, &seat->grab_box);
	seat->resize_edges = edges;
	/* The client must not see the drag as its own pointer motion. */
	wlr_seat_pointer_clear_focus(seat->wlr_seat);
	if (mode == CORDON_CURSOR_RESIZE) {
		view->impl->set_resizing(view, true);
	}
}

void cordon_seat_begin_move(struct cordon_seat *seat, struct cordon_view *view) {
	begin_grab(seat, view, CORDON_CURSOR_MOVE, 0);
	set_cursor_image(seat, "grabbing");
}

void cordon_seat_begin_resize(struct cordon_seat *seat, struct cordon_view *view, uint32_t edges) {
	begin_grab(seat, view, CORDON_CURSOR_RESIZE, edges);
}

void cordon_seat_end_grab(struct cordon_seat *seat, struct cordon_view *view) {
	if (seat->cursor_mode == CORDON_CURSOR_PASSTHROUGH ||
		(view && seat->grabbed_view != view)) {
		return;
	}
	struct cordon_view *grabbed = seat->grabbed_view;
	if (seat->cursor_mode == CORDON_CURSOR_RESIZE && grabbed) {
		grabbed->impl->set_resizing(grabbed, false);
	}
	seat->cursor_mode = CORDON_CURSOR_PASSTHROUGH;
	seat->grabbed_view = NULL;
}

static void process_move(struct cordon_seat *seat) {
	struct cordon_view *view = seat->grabbed_view;
	cordon_view_move_to(view, seat->grab_box.x + (int)(seat->cursor->x - seat->grab_x),
		seat->grab_box.y + (int)(seat->cursor->y - seat->grab_y));
}

static void process_resize(struct cordon_seat *seat) {
	struct cordon_view *view = seat->grabbed_view;
	struct wlr_box box = seat->grab_box;
	int dx = (int)(seat->cursor->x - seat->grab_x);
	int dy = (int)(seat->cursor->y - seat->grab_y);
	int width = box.width, height = box.height;
	if (seat->resize_edges & WLR_EDGE_LEFT) {
		width -= dx;
	} else if (seat->resize_edges & WLR_EDGE_RIGHT) {
		width += dx;
	}
	if (seat->resize_edges & WLR_EDGE_TOP) {
		height -= dy;
	} else if (seat->resize_edges & WLR_EDGE_BOTTOM) {
		height += dy;
	}
	/* Respect the client's limits; the commit handler keeps the fixed edges still. */
	int min_width, min_height, max_width, max_height;
	view->impl->get_size_limits(view, &min_width, &min_height, &max_width, &max_height);
	min_width = min_width > 0 ? min_width : 1;
	min_height = min_height > 0 ? min_height : 1;
	width = width < min_width ? min_width : width;
	height = height < min_height ? min_height : height;
	if (max_width > 0 && width > max_width) {
		width = max_width;
	}
	if (max_height > 0 && height > max_height) {
		height = max_height;
	}
	view->impl->configure(view, width, height);
}

static void update_drag_icon(struct cordon_seat *seat) {
	if (seat->drag_icon) {
		wlr_scene_node_set_position(
			&seat->drag_icon->node, (int)seat->cursor->x, (int)seat->cursor->y);
	}
}

/* Client cursors, below: the image follows the pointer. */
static void apply_cursor(struct cordon_seat *seat, bool force);

static void process_motion(struct cordon_seat *seat, uint32_t time_msec) {
	seat->pointer_moved = true;
	cordon_globals_notify_activity(seat->server->globals);
	update_drag_icon(seat);
	apply_cursor(seat, false);
	switch (seat->cursor_mode) {
	case CORDON_CURSOR_MOVE:
		process_move(seat);
		return;
	case CORDON_CURSOR_RESIZE:
		process_resize(seat);
		return;
	case CORDON_CURSOR_PASSTHROUGH:
		/* Dialogs are hidden under a lock: the pointer is the locker's there. */
		if (!seat->lock.locked &&
			cordon_portals_handle_motion(
				seat->server->portals, seat->cursor->x, seat->cursor->y)) {
			/* Over a portal dialog: the app beneath must not follow the pointer. */
			wlr_seat_pointer_clear_focus(seat->wlr_seat);
			return;
		}
		/* The device's frame follows. */
		pointer_focus_at_cursor(seat, time_msec);
		return;
	}
}

static void handle_cursor_motion(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, cursor_motion);
	struct wlr_pointer_motion_event *event = data;
	/* A locked pointer still reports how the device moved (games, 3D views). */
	cordon_seat_protocols_relative_motion(seat->protocols, event);
	double dx = event->delta_x, dy = event->delta_y;
	cordon_seat_protocols_constrain_motion(seat->protocols, &dx, &dy);
	wlr_cursor_move(seat->cursor, &event->pointer->base, dx, dy);
	process_motion(seat, event->time_msec);
}

static void handle_cursor_motion_absolute(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, cursor_motion_absolute);
	struct wlr_pointer_motion_absolute_event *event = data;
	wlr_cursor_warp_absolute(seat->cursor, &event->pointer->base, event->x, event->y);
	process_motion(seat, event->time_msec);
}

static void handle_cursor_button(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, cursor_button);
	cordon_globals_notify_activity(seat->server->globals);
	/* A dialog, compositor grabs, then the app with click focus (input_router.c). */
	cordon_input_router_button(seat->router, data);
}

static void handle_cursor_axis(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, cursor_axis);
	struct wlr_pointer_axis_event *event = data;
	cordon_globals_notify_activity(seat->server->globals);
	wlr_seat_pointer_notify_axis(seat->wlr_seat, event->time_msec, event->orientation,
		event->delta, event->delta_discrete, event->source, event->relative_direction);
}

static void handle_cursor_frame(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, cursor_frame);
	wlr_seat_pointer_notify_frame(seat->wlr_seat);
}

/* Requests from clients */

/* Client cursors */

static void forget_client_cursor(struct cordon_seat *seat) {
	wl_list_remove(&seat->client_cursor_commit.link);
	wl_list_init(&seat->client_cursor_commit.link);
	wl_list_remove(&seat->client_cursor_destroy.link);
	wl_list_init(&seat->client_cursor_destroy.link);
	seat->client_cursor.surface = NULL;
	seat->client_cursor.shape = NULL;
	seat->client_cursor.set = false;
	seat->client_cursor.shown = false;
}

/* Why the client's cursor image may not be shown as it is (NULL: it may). */
static const char *client_cursor_fault(struct cordon_seat *seat) {
	struct wlr_surface *surface = seat->client_cursor.surface;
	if (!surface) {
		return NULL;
	}
	int width = surface->current.width, height = surface->current.height;
	int32_t x = seat->client_cursor.hotspot_x, y = seat->client_cursor.hotspot_y;
	if (width > CORDON_CURSOR_MAX_SIZE || height > CORDON_CURSOR_MAX_SIZE) {
		return "image larger than " CORDON_CURSOR_MAX_SIZE_TEXT;
	}
	/* The hotspot is where the click lands: drawn elsewhere, the arrow would lie. */
	if (width > 0 && height > 0 && (x < 0 || y < 0 || x >= width || y >= height)) {
		return "hotspot outside the image";
	}
	return NULL;
}

/*
 * The box the client's image covers, drawn where it would be. A shape is an image of
 * cordon's theme: bounded, its hotspot true, but still the app's choice of what the
 * pointer says (a "wait" or "not-allowed" drawn over a dialog would lie as well).
 */
static struct wlr_box client_cursor_box(struct cordon_seat *seat) {
	struct wlr_box box = {
		.x = (int)seat->cursor->x - seat->client_cursor.hotspot_x,
		.y = (int)seat->cursor->y - seat->client_cursor.hotspot_y,
	};
	struct wlr_surface *surface = seat->client_cursor.surface;
	if (surface) {
		box.width = surface->current.width;
		box.height = surface->current.height;
		return box;
	}
	struct wlr_xcursor *xcursor = seat->client_cursor.shape
		? wlr_xcursor_manager_get_xcursor(
			  seat->xcursor_manager, seat->client_cursor.shape, 1)
		: NULL;
	if (xcursor && xcursor->image_count > 0) {
		struct wlr_xcursor_image *image = xcursor->images[0];
		box.x = (int)seat->cursor->x - (int)image->hotspot_x;
		box.y = (int)seat->cursor->y - (int)image->hotspot_y;
		box.width = (int)image->width;
		box.height = (int)image->height;
	}
	return box;
}

/* Whether the client's image, drawn where it would be, covers a dialog or the indicator. */
static bool client_cursor_over_trusted_ui(struct cordon_seat *seat) {
	struct wlr_box box = client_cursor_box(seat);
	/* The hotspot pixel itself counts: over a dialog the pointer is cordon's. */
	struct wlr_box hotspot = {(int)seat->cursor->x, (int)seat->cursor->y, 1, 1};
	return cordon_portals_overlaps_trusted_ui(seat->server->portals, &box) ||
		cordon_portals_overlaps_trusted_ui(seat->server->portals, &hotspot);
}

static void log_cursor_refusal(struct cordon_seat *seat, const char *fault) {
	if (seat->client_cursor.refusal_logged) {
		return;
	}
	struct wlr_surface *surface = seat->client_cursor.surface;
	struct wl_client *client = wl_resource_get_client(surface->resource);
	pid_t pid = 0;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	const struct cordon_tag *tag = cordon_client_get_tag(cordon_client_from_wl(client));
	wlr_log(WLR_ERROR,
		"Refusing the cursor image of client pid %d (sandbox app '%s'): %s (%dx%d, "
		"hotspot %d,%d)",
		(int)pid, tag && tag->sandboxed ? tag->app_id : "-", fault, surface->current.width,
		surface->current.height, seat->client_cursor.hotspot_x,
		seat->client_cursor.hotspot_y);
	seat->client_cursor.refusal_logged = true;
}

/* Shows the client's image or cordon's; FORCE: whatever is on screen now is unknown. */
static void apply_cursor(struct cordon_seat *seat, bool force) {
	if (!seat->client_cursor.set) {
		return;
	}
	const char *fault = client_cursor_fault(seat);
	if (fault) {
		log_cursor_refusal(seat, fault);
	}
	bool allowed = !fault && !client_cursor_over_trusted_ui(seat);
	if (allowed && (force || !seat->client_cursor.shown)) {
		if (seat->client_cursor.shape) {
			set_cursor_image(seat, seat->client_cursor.shape);
		} else {
			wlr_cursor_set_surface(seat->cursor, seat->client_cursor.surface,
				seat->client_cursor.hotspot_x, seat->client_cursor.hotspot_y);
		}
		seat->client_cursor.shown = true;
	} else if (!allowed && (force || seat->client_cursor.shown)) {
		set_cursor_image(seat, "left_ptr");
		seat->client_cursor.shown = false;
	}
}

/*
 * The scene changed under a still pointer (a window resized or moved, a subsurface placed,
 * an input region committed): the surface under it now gets the pointer, as if it had
 * moved there. Nothing is sent when nothing changed, so a frame costs clients nothing;
 * grabs and dialogs keep the pointer as they hold it.
 */
static void rebase_pointer(struct cordon_seat *seat) {
	if (!seat->pointer_moved || seat->cursor_mode != CORDON_CURSOR_PASSTHROUGH ||
		wlr_seat_pointer_has_grab(seat->wlr_seat)) {
		return;
	}
	struct wlr_box hotspot = {(int)seat->cursor->x, (int)seat->cursor->y, 1, 1};
	if (!seat->lock.locked &&
		cordon_portals_overlaps_trusted_ui(seat->server->portals, &hotspot)) {
		return;
	}
	double sx, sy;
	struct wlr_surface *surface = input_surface_at_cursor(seat, &sx, &sy);
	struct wlr_seat_pointer_state *state = &seat->wlr_seat->pointer_state;
	if (surface == state->focused_surface &&
		(!surface || (sx == state->sx && sy == state->sy))) {
		return;
	}
	cordon_seat_update_pointer_focus(seat, 0);
}

void cordon_seat_check_cursor(struct cordon_seat *seat) {
	rebase_pointer(seat);
	apply_cursor(seat, false);
}

static void handle_client_cursor_commit(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, client_cursor_commit);
	struct wlr_surface *surface = seat->client_cursor.surface;
	/* As wlr_cursor does: an attach offset moves the hotspot. */
	seat->client_cursor.hotspot_x -= surface->current.dx;
	seat->client_cursor.hotspot_y -= surface->current.dy;
	/* wlr_cursor may have shown the new buffer already: this takes it back before a frame. */
	apply_cursor(seat, client_cursor_fault(seat) != NULL);
}

static void handle_client_cursor_destroy(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, client_cursor_destroy);
	/* wlr_cursor forgets the surface itself; cordon's image comes back on the next motion. */
	forget_client_cursor(seat);
}

/*
 * The pointer left a client (for another, a dialog, a grab or the background): its
 * image must not stay on screen, in particular not over a dialog, where it could draw
 * the arrow away from where the click lands.
 */
static void handle_pointer_focus_change(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, pointer_focus_change);
	struct wlr_seat_pointer_focus_change_event *event = data;
	if (event->old_surface == event->new_surface) {
		return;
	}
	bool had_image = seat->client_cursor.set;
	forget_client_cursor(seat);
	if (had_image && seat->pointer_moved) {
		set_cursor_image(seat, "left_ptr");
	}
}

static void handle_request_set_cursor(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, request_set_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *event = data;
	/* Only the client under the pointer may choose its image. */
	if (event->seat_client != seat->wlr_seat->pointer_state.focused_client) {
		return;
	}
	forget_client_cursor(seat);
	seat->client_cursor.set = true;
	seat->client_cursor.surface = event->surface;
	seat->client_cursor.hotspot_x = event->hotspot_x;
	seat->client_cursor.hotspot_y = event->hotspot_y;
	seat->client_cursor.refusal_logged = false;
	if (event->surface) {
		seat->client_cursor_commit.notify = handle_client_cursor_commit;
		wl_signal_add(&event->surface->events.commit, &seat->client_cursor_commit);
		seat->client_cursor_destroy.notify = handle_client_cursor_destroy;
		wl_signal_add(&event->surface->events.destroy, &seat->client_cursor_destroy);
	}
	/* A NULL surface hides the pointer: the app's choice over its own window. */
	apply_cursor(seat, true);
}

void cordon_seat_set_client_cursor_shape(struct cordon_seat *seat, const char *shape) {
	forget_client_cursor(seat);
	seat->client_cursor.set = true;
	seat->client_cursor.shape = shape;
	seat->client_cursor.refusal_logged = false;
	apply_cursor(seat, true);
}

static void handle_request_set_selection(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, request_set_selection);
	cordon_selection_request_set(seat->selection, data);
}

static void handle_request_set_primary_selection(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, request_set_primary_selection);
	cordon_selection_request_set_primary(seat->selection, data);
}

static void handle_request_start_drag(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, request_start_drag);
	/* A drag starts from a held button on the origin surface: the policy checks the press. */
	cordon_selection_request_start_drag(seat->selection, data);
	/* A drag that starts takes the pointer from its surface, a refused one gives it back. */
	cordon_seat_update_pointer_focus(seat, 0);
}

static void handle_drag_icon_destroy(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, drag_icon_destroy);
	wl_list_remove(&seat->drag_icon_destroy.link);
	wl_list_init(&seat->drag_icon_destroy.link);
	/* The scene node goes with the surface; only forget it. */
	seat->drag_icon = NULL;
	cordon_seat_update_pointer_focus(seat, 0);
}

static void handle_start_drag(struct wl_listener *listener, void *data) {
	struct cordon_seat *seat = wl_container_of(listener, seat, start_drag);
	struct wlr_drag *drag = data;
	if (!drag->icon) {
		return;
	}
	/* The scene's drag icon follows the icon surface's offset and goes with the icon. */
	seat->drag_icon =
		wlr_scene_drag_icon_create(seat->server->layers[CORDON_LAYER_OVERLAY], drag->icon);
	if (!seat->drag_icon) {
		return;
	}
	update_drag_icon(seat);
	wl_list_remove(&seat->drag_icon_destroy.link);
	seat->drag_icon_destroy.notify = handle_drag_icon_destroy;
	wl_signal_add(&drag->icon->events.destroy, &seat->drag_icon_destroy);
}

/* Injection for the control socket: the virtual devices emit real events. */

void cordon_seat_inject_key(struct cordon_seat *seat, uint32_t keycode, bool pressed) {
	if (!seat->virtual_keyboard) {
		return;
	}
	struct wlr_keyboard_key_event event = {
		.time_msec = now_msec(),
		.keycode = keycode,
		.update_state = true,
		.state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
	};
	wlr_keyboard_notify_key(seat->virtual_keyboard, &event);
}

void cordon_seat_inject_pointer_warp(struct cordon_seat *seat, double lx, double ly) {
	if (!seat->virtual_pointer) {
		return;
	}
	wlr_cursor_warp_closest(seat->cursor, &seat->virtual_pointer->base, lx, ly);
	process_motion(seat, now_msec());
	wlr_seat_pointer_notify_frame(seat->wlr_seat);
}

void cordon_seat_inject_pointer_motion(struct cordon_seat *seat, double dx, double dy) {
	struct wlr_pointer *pointer = seat->virtual_pointer;
	if (!pointer) {
		return;
	}
	struct wlr_pointer_motion_event event = {
		.pointer = pointer,
		.time_msec = now_msec(),
		.delta_x = dx,
		.delta_y = dy,
		.unaccel_dx = dx,
		.unaccel_dy = dy,
	};
	wl_signal_emit_mutable(&pointer->events.motion, &event);
	wl_signal_emit_mutable(&pointer->events.frame, pointer);
}

void cordon_seat_inject_button(struct cordon_seat *seat, uint32_t button, bool pressed) {
	struct wlr_pointer *pointer = seat->virtual_pointer;
	if (!pointer) {
		return;
	}
	struct wlr_pointer_button_event event = {
		.pointer = pointer,
		.time_msec = now_msec(),
		.button = button,
		.state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED
				 : WL_POINTER_BUTTON_STATE_RELEASED,
	};
	/* Through wlroots' own path: the pointer keeps its set of held buttons. */
	wlr_pointer_notify_button(pointer, &event);
	wl_signal_emit_mutable(&pointer->events.frame, pointer);
}

void cordon_seat_inject_axis(struct cordon_seat *seat, bool horizontal, double value) {
	struct wlr_pointer *pointer = seat->virtual_pointer;
	if (!pointer) {
		return;
	}
	struct wlr_pointer_axis_event event = {
		.pointer = pointer,
		.time_msec = now_msec(),
		.source = WL_POINTER_AXIS_SOURCE_WHEEL,
		.orientation = horizontal ? WL_POINTER_AXIS_HORIZONTAL_SCROLL
					  : WL_POINTER_AXIS_VERTICAL_SCROLL,
		.relative_direction = WL_POINTER_AXIS_RELATIVE_DIRECTION_IDENTICAL,
		.delta = value,
		/* One wheel click is 15 units of motion, and WLR_POINTER_AXIS_DISCRETE_STEP. */
		.delta_discrete = (int32_t)(value / 15.0 * WLR_POINTER_AXIS_DISCRETE_STEP),
	};
	wl_signal_emit_mutable(&pointer->events.axis, &event);
	wl_signal_emit_mutable(&pointer->events.frame, pointer);
}

/* Life cycle */

static struct xkb_keymap *compile_keymap(const struct cordon_config *config) {
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!context) {
		return NULL;
	}
	/* NULL fields fall back to XKB_DEFAULT_* and then xkbcommon's defaults. */
	struct xkb_rule_names names = {
		.rules = config->xkb_rules,
		.model = config->xkb_model,
		.layout = config->xkb_layout,
		.variant = config->xkb_variant,
		.options = config->xkb_options,
	};
	struct xkb_keymap *keymap =
		xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	xkb_context_unref(context);
	return keymap;
}

struct cordon_seat *cordon_seat_create(struct cordon_server *server) {
	struct cordon_seat *seat = calloc(1, sizeof(*seat));
	if (!seat) {
		return NULL;
	}
	seat->server = server;
	wl_list_init(&seat->keyboards);
	wl_list_init(&seat->drag_icon_destroy.link);
	wl_list_init(&seat->client_cursor_commit.link);
	wl_list_init(&seat->client_cursor_destroy.link);
	wl_list_init(&seat->pointer_focus_change.link);
	const struct cordon_config *config = server->config;

	seat->keymap = compile_keymap(config);
	if (!seat->keymap) {
		wlr_log(WLR_ERROR,
			"Cannot compile the keymap (layout '%s', variant '%s', "
			"options '%s'): check the [keyboard] section or XKB_DEFAULT_*",
			config->xkb_layout ? config->xkb_layout : "",
			config->xkb_variant ? config->xkb_variant : "",
			config->xkb_options ? config->xkb_options : "");
		free(seat);
		return NULL;
	}

	seat->wlr_seat = wlr_seat_create(server->display, "seat0");
	seat->cursor = wlr_cursor_create();
	seat->xcursor_manager =
		wlr_xcursor_manager_create(config->xcursor_theme, config->xcursor_size);
	/* Only named here; the theme is loaded when a cursor is first shown. */
	if (!seat->wlr_seat || !seat->cursor || !seat->xcursor_manager) {
		wlr_log(WLR_ERROR, "Cannot create the seat and cursor");
		cordon_seat_destroy(seat);
		return NULL;
	}
	seat->router = cordon_input_router_create(seat);
	seat->selection =
		seat->router ? cordon_selection_create(server, seat->wlr_seat, seat->router) : NULL;
	if (!seat->selection) {
		wlr_log(WLR_ERROR, "Cannot set up clipboard mediation");
		cordon_seat_destroy(seat);
		return NULL;
	}
	seat->protocols = cordon_seat_protocols_create(seat);
	seat->session_lock = seat->protocols ? cordon_session_lock_create(seat) : NULL;
	if (!seat->session_lock) {
		wlr_log(WLR_ERROR, "Cannot create the seat's protocols");
		cordon_seat_destroy(seat);
		return NULL;
	}
	wlr_cursor_attach_output_layout(seat->cursor, server->output_layout);
	/* The virtual devices make both capabilities permanent. */
	wlr_seat_set_capabilities(
		seat->wlr_seat, WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD);

	seat->cursor_motion.notify = handle_cursor_motion;
	wl_signal_add(&seat->cursor->events.motion, &seat->cursor_motion);
	seat->cursor_motion_absolute.notify = handle_cursor_motion_absolute;
	wl_signal_add(&seat->cursor->events.motion_absolute, &seat->cursor_motion_absolute);
	seat->cursor_button.notify = handle_cursor_button;
	wl_signal_add(&seat->cursor->events.button, &seat->cursor_button);
	seat->cursor_axis.notify = handle_cursor_axis;
	wl_signal_add(&seat->cursor->events.axis, &seat->cursor_axis);
	seat->cursor_frame.notify = handle_cursor_frame;
	wl_signal_add(&seat->cursor->events.frame, &seat->cursor_frame);

	struct wlr_seat *wlr_seat = seat->wlr_seat;
	seat->request_set_cursor.notify = handle_request_set_cursor;
	wl_signal_add(&wlr_seat->events.request_set_cursor, &seat->request_set_cursor);
	seat->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&wlr_seat->events.request_set_selection, &seat->request_set_selection);
	seat->request_set_primary_selection.notify = handle_request_set_primary_selection;
	wl_signal_add(&wlr_seat->events.request_set_primary_selection,
		&seat->request_set_primary_selection);
	seat->request_start_drag.notify = handle_request_start_drag;
	wl_signal_add(&wlr_seat->events.request_start_drag, &seat->request_start_drag);
	seat->start_drag.notify = handle_start_drag;
	wl_signal_add(&wlr_seat->events.start_drag, &seat->start_drag);
	seat->pointer_focus_change.notify = handle_pointer_focus_change;
	wl_signal_add(&wlr_seat->pointer_state.events.focus_change, &seat->pointer_focus_change);
	return seat;
}

void cordon_seat_destroy(struct cordon_seat *seat) {
	if (!seat) {
		return;
	}
	if (seat->cursor_motion.notify) {
		wl_list_remove(&seat->cursor_motion.link);
		wl_list_remove(&seat->cursor_motion_absolute.link);
		wl_list_remove(&seat->cursor_button.link);
		wl_list_remove(&seat->cursor_axis.link);
		wl_list_remove(&seat->cursor_frame.link);
		wl_list_remove(&seat->request_set_cursor.link);
		wl_list_remove(&seat->request_set_selection.link);
		wl_list_remove(&seat->request_set_primary_selection.link);
		wl_list_remove(&seat->request_start_drag.link);
		wl_list_remove(&seat->start_drag.link);
	}
	wl_list_remove(&seat->drag_icon_destroy.link);
	wl_list_remove(&seat->pointer_focus_change.link);
	forget_client_cursor(seat);
	destroy_virtual_devices(seat);
	cordon_session_lock_destroy(seat->session_lock);
	cordon_seat_protocols_destroy(seat->protocols);
	/* Keyboards still listed belong to devices that outlive us (none normally). */
	struct cordon_keyboard *keyboard, *tmp;
	wl_list_for_each_safe(keyboard, tmp, &seat->keyboards, link) {
		handle_keyboard_destroy(&keyboard->destroy, NULL);
	}
	if (seat->xcursor_manager) {
		wlr_xcursor_manager_destroy(seat->xcursor_manager);
	}
	if (seat->cursor) {
		wlr_cursor_destroy(seat->cursor);
	}
	/* Before the seat, which destroys the views on it. */
	cordon_selection_destroy(seat->selection);
	cordon_input_router_destroy(seat->router);
	if (seat->wlr_seat) {
		wlr_seat_destroy(seat->wlr_seat);
	}
	xkb_keymap_unref(seat->keymap);
	free(seat);
}
