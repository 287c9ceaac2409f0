/*
 * Input for portal dialogs. The shown dialog has the keyboard while it is up:
 * what the user types into it (a file name, a confirmation) never reaches an app,
 * so an app cannot read it or answer in the user's place. The pointer goes to a
 * dialog while it is over it.
 */
#include "portals/dialog_input.h"

#include <wlr/types/wlr_keyboard.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor/seat.h"
#include "compositor/server.h"
#include "cordon/portal-ui.h"
#include "portals/camera_indicator.h"
#include "portals/portals.h"
#include "portals/ui_plugin.h"

static uint32_t plugin_modifiers(struct wlr_keyboard *keyboard) {
	uint32_t mods = wlr_keyboard_get_modifiers(keyboard);
	uint32_t out = 0;
	if (mods & WLR_MODIFIER_SHIFT) {
		out |= CORDON_PORTAL_UI_MOD_SHIFT;
	}
	if (mods & WLR_MODIFIER_CTRL) {
		out |= CORDON_PORTAL_UI_MOD_CTRL;
	}
	if (mods & WLR_MODIFIER_ALT) {
		out |= CORDON_PORTAL_UI_MOD_ALT;
	}
	return out;
}

/* Whether KEYCODE was pressed into a dialog (and forgets it: this is its release). */
static bool take_dialog_key(struct cordon_portals *portals, uint32_t keycode) {
	for (size_t i = 0; i < portals->dialog_key_count; i++) {
		if (portals->dialog_keys[i] == keycode) {
			portals->dialog_keys[i] = portals->dialog_keys[--portals->dialog_key_count];
			return true;
		}
	}
	return false;
}

bool cordon_portals_handle_key(struct cordon_portals *portals, struct wlr_keyboard *keyboard,
	uint32_t keycode, bool pressed) {
	if (!portals) {
		return false;
	}
	bool focus = cordon_portal_ui_has_focus(portals->ui);
	if (!pressed) {
		/*
		 * A release belongs where its press went. One pressed into a dialog is
		 * not the app's, even once the dialog is gone; one pressed in the app
		 * before the dialog came (the key that opened it) goes to the app, which
		 * would otherwise repeat it.
		 */
		if (!take_dialog_key(portals, keycode)) {
			return false;
		}
	} else if (!focus) {
		return false;
	} else {
		size_t max = sizeof(portals->dialog_keys) / sizeof(portals->dialog_keys[0]);
		if (portals->dialog_key_count < max) {
			portals->dialog_keys[portals->dialog_key_count++] = keycode;
		}
	}
	if (focus) {
		xkb_keycode_t xkb_code = keycode + 8;
		xkb_keysym_t keysym = xkb_state_key_get_one_sym(keyboard->xkb_state, xkb_code);
		uint32_t codepoint = xkb_state_key_get_utf32(keyboard->xkb_state, xkb_code);
		cordon_portal_ui_send_key(
			portals->ui, keysym, codepoint, pressed, plugin_modifiers(keyboard));
	}
	return true;
}

/*
 * Modifiers are typed too: Shift while a file name gets its capitals, Caps Lock, a
 * Ctrl shortcut. An app that saw them would learn when the user types into the
 * dialog, so they stay with it (its plugin gets them with each key).
 */
bool cordon_portals_withhold_modifiers(struct cordon_portals *portals) {
	if (!portals || !cordon_portal_ui_has_focus(portals->ui)) {
		return false;
	}
	portals->modifiers_withheld = true;
	return true;
}

void cordon_portals_keyboard_may_return(struct cordon_portals *portals) {
	if (!portals->modifiers_withheld || cordon_portal_ui_has_focus(portals->ui)) {
		return;
	}
	/* The app's modifiers are those from before the dialog (Caps Lock may have changed). */
	portals->modifiers_withheld = false;
	cordon_seat_send_modifiers(portals->server->seat);
}

bool cordon_portals_handle_motion(struct cordon_portals *portals, double lx, double ly) {
	if (!portals) {
		return false;
	}
	/* Both see the motion: a dialog's hover ends when the pointer moves onto the indicator. */
	bool dialog = cordon_portal_ui_send_motion(portals->ui, lx, ly);
	return cordon_camera_indicator_handle_motion(portals->camera_indicator, lx, ly) || dialog;
}

bool cordon_portals_handle_button(
	struct cordon_portals *portals, double lx, double ly, uint32_t button, bool pressed) {
	if (!portals) {
		return false;
	}
	/* The indicator is drawn over any dialog, so it is asked first. */
	if (cordon_camera_indicator_handle_button(
		    portals->camera_indicator, lx, ly, button, pressed)) {
		return true;
	}
	return cordon_portal_ui_send_button(portals->ui, lx, ly, button, pressed);
}
