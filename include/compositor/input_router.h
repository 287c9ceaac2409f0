/* The seat's input boundary: who sees each key and button, and which presses are the user's. */
#ifndef CORDON_COMPOSITOR_INPUT_ROUTER_H
#define CORDON_COMPOSITOR_INPUT_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>

struct cordon_keyboard;
struct cordon_seat;
struct cordon_view;
struct wlr_keyboard_key_event;
struct wlr_pointer_button_event;
struct wlr_surface;
struct wlr_xdg_activation_token_v1;

/*
 * What a press in a sandboxed app must land on to count as the user's action
 * (docs/security.md, "Focus, input and consent"): a window shown for at least
 * this long, with at least this much of it visible and opaque on an output.
 */
#define CORDON_CONSENT_MIN_SHOWN_MS 500
#define CORDON_CONSENT_MIN_SIZE 32 /* logical px, each way: a 32x32 area */
#define CORDON_CONSENT_MIN_OPAQUE_PERCENT 50 /* of the window's area, visible and opaque */
#define CORDON_CONSENT_ALPHA 128 /* a pixel at least this opaque is one the user sees */
/* An activation token proves a press only this long (also the tokens' lifetime). */
#define CORDON_ACTIVATION_MAX_AGE_MS 30000

/* Who took a press, in the order they are asked. */
enum cordon_input_taker {
	CORDON_INPUT_BINDING, /* a compositor binding */
	CORDON_INPUT_DIALOG, /* a trusted dialog that has the keyboard or the pointer */
	CORDON_INPUT_GRAB, /* a compositor grab (interactive move or resize) */
	CORDON_INPUT_CLIENT, /* the app with the focus */
	/* The input method's keyboard grab, while the focused app's text field is active: the
	 * app gets the text it commits (text_input.c). Not the app's press. */
	CORDON_INPUT_INPUT_METHOD,
	/* The session locker (or nobody, while locked without one): never an app, never consent. */
	CORDON_INPUT_LOCK,
};

/* An input event on its way to a client (data of the router's signals). */
struct cordon_input_event {
	struct wl_client *client; /* NULL: no client has the focus */
	struct wlr_surface *surface;
	uint32_t serial; /* input_delivered only: the serial the client was sent */
	bool pressed;
	bool button; /* a pointer button, not a key */
	/* The user acted in this client: a surface shown to them took it (surface_may_consent). */
	bool consent;
};

struct cordon_input_router {
	struct cordon_seat *seat;
	/* THE pressed-key ledger: where each held key's press went, so its release goes there. */
	struct {
		uint32_t keycode;
		enum cordon_input_taker taker;
	} keys[32];
	size_t key_count;
	/*
	 * The seat's last press, whoever took it (a binding or dialog press has no
	 * client and no serial): activation tokens must name this one.
	 */
	struct {
		bool valid;
		uint32_t serial;
		struct wl_client *client; /* compared only */
		struct timespec time;
	} last_press;

	struct {
		/* A press is about to reach its client (cordon_input_event, serial 0). */
		struct wl_signal press;
		/* A key or button event reached its client with this serial. */
		struct wl_signal input_delivered;
		/* Keyboard focus is about to move to this wlr_surface (NULL: nowhere). */
		struct wl_signal focus_will_change;
	} events;
};

struct cordon_input_router *cordon_input_router_create(struct cordon_seat *seat);
void cordon_input_router_destroy(struct cordon_input_router *router);

/* A key of KEYBOARD: bindings, then a dialog with the keyboard, then the focused client. */
void cordon_input_router_key(struct cordon_input_router *router, struct cordon_keyboard *keyboard,
	const struct wlr_keyboard_key_event *event);
/* A button: a dialog under the pointer, then compositor grabs, then the client (click focus). */
void cordon_input_router_button(
	struct cordon_input_router *router, const struct wlr_pointer_button_event *event);
/* Keyboard focus is about to move (seat.c calls this before every enter or clear). */
void cordon_input_router_focus_will_change(
	struct cordon_input_router *router, struct wlr_surface *surface);

/*
 * Whether a press on SURFACE (at SX, SY when AT_POINT) is the user's action: always for
 * host apps; for a sandboxed app only on a window shown for CORDON_CONSENT_MIN_SHOWN_MS
 * whose visible opaque part is large enough (and opaque at the point pressed).
 */
bool cordon_input_router_surface_may_consent(struct cordon_input_router *router,
	struct wlr_surface *surface, bool at_point, double sx, double sy);
/* The same for a view's own surface, for cordonctl windows. */
bool cordon_input_router_view_may_consent(struct cordon_view *view);

/*
 * Whether TOKEN may give the focus to VIEW: for a sandboxed view it must carry the serial
 * of the seat's last press, delivered to the token's client, at most
 * CORDON_ACTIVATION_MAX_AGE_MS ago. *REASON says why not.
 */
bool cordon_input_router_may_activate(struct cordon_input_router *router,
	struct wlr_xdg_activation_token_v1 *token, struct cordon_view *view, const char **reason);

#endif
