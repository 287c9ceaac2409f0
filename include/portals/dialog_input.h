/* Keyboard and pointer input for portal dialogs, taken before any app sees it. */
#ifndef CORDON_PORTALS_DIALOG_INPUT_H
#define CORDON_PORTALS_DIALOG_INPUT_H

#include <stdbool.h>
#include <stdint.h>

struct cordon_portals;
struct wlr_box;
struct wlr_keyboard;

/*
 * A key (evdev code) of KEYBOARD, after compositor bindings: true when a dialog
 * is shown and took the press; the focused app must then not see it. The seat's
 * input router remembers which presses a dialog took and sends only their
 * releases here.
 */
bool cordon_portals_handle_key(struct cordon_portals *portals, struct wlr_keyboard *keyboard,
	uint32_t keycode, bool pressed);
/*
 * True when a dialog has the keyboard: the modifiers (a change of them, or those held
 * as an app gets the focus) are the dialog's, and the app must not see them. The app is
 * sent them once the dialog gives the keyboard back (cordon_portals_keyboard_may_return).
 */
bool cordon_portals_withhold_modifiers(struct cordon_portals *portals);
/* Called where a dialog may lose the keyboard (answered, closed). */
void cordon_portals_keyboard_may_return(struct cordon_portals *portals);
/* The pointer at LX, LY (layout): true when it is over a dialog (apps lose pointer focus). */
bool cordon_portals_handle_motion(struct cordon_portals *portals, double lx, double ly);
/* A button: true when it belongs to a dialog (pressed over it, or released after that). */
bool cordon_portals_handle_button(
	struct cordon_portals *portals, double lx, double ly, uint32_t button, bool pressed);
/*
 * Whether BOX (layout) overlaps a shown dialog or the camera indicator: cordon's
 * trusted UI, over which nothing an app draws may be shown (the seat's cursor check).
 */
bool cordon_portals_overlaps_trusted_ui(struct cordon_portals *portals, const struct wlr_box *box);

#endif
