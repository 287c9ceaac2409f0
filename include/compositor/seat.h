/* The seat: keyboards, the pointer and cursor, focus, interactive move and resize. */
#ifndef CORDON_COMPOSITOR_SEAT_H
#define CORDON_COMPOSITOR_SEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct cordon_input_router;
struct cordon_selection;
struct cordon_seat_protocols;
struct cordon_session_lock;
struct cordon_server;
struct cordon_view;
struct wlr_input_device;
struct wlr_keyboard;
struct wlr_pointer;
struct wlr_surface;

enum cordon_cursor_mode {
	CORDON_CURSOR_PASSTHROUGH,
	CORDON_CURSOR_MOVE,
	CORDON_CURSOR_RESIZE,
};

struct cordon_keyboard {
	struct cordon_seat *seat;
	struct wlr_keyboard *wlr_keyboard;
	struct wl_list link; /* cordon_seat.keyboards */

	struct wl_listener modifiers;
	struct wl_listener key;
	struct wl_listener destroy;
};

struct cordon_seat {
	struct cordon_server *server;
	struct wlr_seat *wlr_seat;
	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *xcursor_manager;
	struct wl_list keyboards; /* cordon_keyboard.link */
	struct xkb_keymap *keymap; /* shared by every physical and virtual keyboard */
	struct cordon_view *focused_view; /* the view with keyboard focus */
	struct cordon_selection *selection; /* clipboard and drag mediation (selection.c) */
	struct wlr_scene_tree *drag_icon; /* NULL unless a drag shows an icon */
	/* Which input apps see and what counts as the user's action (input_router.c). */
	struct cordon_input_router *router;
	/* A session lock: while locked, only the locker's surfaces get input. */
	struct {
		bool locked;
		struct wl_client *locker; /* compared only; NULL: locked with no locker (it died) */
	} lock;
	/*
	 * Where the surface that took the first held button lies (layout coordinates of its
	 * origin): it keeps the pointer until the last button is up (the implicit grab).
	 */
	double implicit_grab_x, implicit_grab_y;
	/* Set when a compositor grab consumed a button press. */
	bool swallow_button_release;
	/* No cursor image is shown before the first motion. */
	bool pointer_moved;
	/*
	 * The image the pointer-focused client asked for (wl_pointer.set_cursor, or a
	 * cursor-shape name). It is the client's choice: shown only while bounded and away
	 * from trusted UI (seat.c).
	 */
	struct {
		struct wlr_surface
			*surface; /* NULL: none asked, a shape, or hidden by the client */
		const char *shape; /* a cursor-shape name from cordon's theme, or NULL */
		bool set; /* the client asked (a NULL surface and no shape hides the cursor) */
		int32_t hotspot_x, hotspot_y;
		bool shown; /* on screen now, rather than cordon's own image */
		bool refusal_logged;
	} client_cursor;
	struct wl_listener client_cursor_commit;
	struct wl_listener client_cursor_destroy;
	struct wl_listener pointer_focus_change;

	/*
	 * The virtual devices cordonctl drives, cordon's own (no backend has them): always
	 * present once cordon_seat_add_virtual_devices ran.
	 */
	struct wlr_keyboard *virtual_keyboard;
	struct wlr_pointer *virtual_pointer;
	/* The protocols that extend the seat (seat_protocols.c). */
	struct cordon_seat_protocols *protocols;
	/* ext-session-lock-v1 (session_lock.c): it sets the lock below. */
	struct cordon_session_lock *session_lock;

	enum cordon_cursor_mode cursor_mode;
	struct cordon_view *grabbed_view;
	double grab_x, grab_y; /* cursor position at grab start */
	struct wlr_box grab_box; /* view geometry at grab start */
	uint32_t resize_edges;

	struct wl_listener cursor_motion;
	struct wl_listener cursor_motion_absolute;
	struct wl_listener cursor_button;
	struct wl_listener cursor_axis;
	struct wl_listener cursor_frame;
	struct wl_listener request_set_cursor;
	struct wl_listener request_set_selection;
	struct wl_listener request_set_primary_selection;
	struct wl_listener request_start_drag;
	struct wl_listener start_drag;
	struct wl_listener drag_icon_destroy;
};

struct cordon_seat *cordon_seat_create(struct cordon_server *server);
void cordon_seat_destroy(struct cordon_seat *seat);
/* Creates the virtual keyboard and pointer cordonctl drives. */
bool cordon_seat_add_virtual_devices(struct cordon_seat *seat);
void cordon_seat_add_device(struct cordon_seat *seat, struct wlr_input_device *device);

/* Gives keyboard focus to a surface (NULL clears it). */
void cordon_seat_focus_surface(struct cordon_seat *seat, struct wlr_surface *surface);
/* Sends the focused client the keyboard's modifiers as they are now. */
void cordon_seat_send_modifiers(struct cordon_seat *seat);
/*
 * Shows the pointer-focused client's cursor image only while it is bounded and clear
 * of trusted UI, cordon's own otherwise. Called on motion and before each frame.
 */
void cordon_seat_check_cursor(struct cordon_seat *seat);
/* Re-evaluates pointer focus after the scene changed under the cursor. */
void cordon_seat_update_pointer_focus(struct cordon_seat *seat, uint32_t time_msec);
/* The first button goes down on the pointer-focused surface: it keeps the pointer. */
void cordon_seat_begin_implicit_grab(struct cordon_seat *seat);

void cordon_seat_begin_move(struct cordon_seat *seat, struct cordon_view *view);
void cordon_seat_begin_resize(struct cordon_seat *seat, struct cordon_view *view, uint32_t edges);
/* Ends a grab on this view (it is going away or changing state). */
void cordon_seat_end_grab(struct cordon_seat *seat, struct cordon_view *view);

/* Input injection for the control socket. */
void cordon_seat_inject_key(struct cordon_seat *seat, uint32_t keycode, bool pressed);
void cordon_seat_inject_pointer_warp(struct cordon_seat *seat, double lx, double ly);
void cordon_seat_inject_pointer_motion(struct cordon_seat *seat, double dx, double dy);
void cordon_seat_inject_button(struct cordon_seat *seat, uint32_t button, bool pressed);
void cordon_seat_inject_axis(struct cordon_seat *seat, bool horizontal, double value);

/* Adds a keyboard that brings its own keymap (virtual-keyboard protocol). */
void cordon_seat_add_client_keyboard(struct cordon_seat *seat, struct wlr_keyboard *keyboard);
/* Attaches a pointer device (also virtual-pointer protocol ones) to the cursor. */
void cordon_seat_add_pointer(struct cordon_seat *seat, struct wlr_pointer *pointer);
/* Shows the cursor-shape SHAPE the pointer-focused client asked for, under the same rules. */
void cordon_seat_set_client_cursor_shape(struct cordon_seat *seat, const char *shape);

/* Runs the binding for this combination; true when one matched. */
bool cordon_seat_handle_binding(struct cordon_seat *seat, uint32_t modifiers, uint32_t keysym);
/* Runs the binding (or VT switch) a press of KEYCODE on KEYBOARD makes; true when one did. */
bool cordon_seat_key_binding(struct cordon_keyboard *keyboard, uint32_t keycode);
/* False while the session is locked and SURFACE is not the locker's. */
bool cordon_seat_surface_may_get_input(struct cordon_seat *seat, struct wlr_surface *surface);
/*
 * Locks the seat for LOCKER's surfaces (the session-lock protocol's locker; NULL keeps it
 * locked for nobody, as when a locker dies), or unlocks it and gives the focus back.
 */
void cordon_seat_set_lock(struct cordon_seat *seat, bool locked, struct wl_client *locker);

#endif
