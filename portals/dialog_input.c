/*
 * Input for portal dialogs. The shown dialog has the keyboard while it is up:
 * what the user types into it (a file name, a confirmation) never reaches an app,
 * so an app cannot read it or answer in the user's place. The pointer goes to a
 * dialog while it is over it.
 */
#include "portals/dialog_input.h"

#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/box.h>
#include <xkbcommon/xkbcommon.h>

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

bool cordon_portals_handle_key(struct cordon_portals *portals, struct wlr_keyboard *keyboard,
	uint32_t keycode, bool pressed) {
	if (!portals) {
		return false;
	}
	bool focus = cordon_portal_ui_has_focus(portals->ui);
	/*
	 * A release comes here only when its press did (the seat's one key ledger,
	 * compositor/input_router.c): it is the dialog's even once the dialog is gone.
	 */
	if (pressed && !focus) {
		return false;
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
	portals->host.keyboard_returned(portals->host.data);
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

/* Whether NODE (at X, Y, its parent's layout position) or a child of it overlaps BOX. */
static bool node_overlaps(struct wlr_scene_node *node, int x, int y, const struct wlr_box *box) {
	if (!node->enabled) {
		return false;
	}
	x += node->x;
	y += node->y;
	struct wlr_box node_box = {.x = x, .y = y};
	switch (node->type) {
	case WLR_SCENE_NODE_TREE: {
		struct wlr_scene_node *child;
		wl_list_for_each(child, &wlr_scene_tree_from_node(node)->children, link) {
			if (node_overlaps(child, x, y, box)) {
				return true;
			}
		}
		return false;
	}
	case WLR_SCENE_NODE_RECT: {
		struct wlr_scene_rect *rect = wlr_scene_rect_from_node(node);
		node_box.width = rect->width;
		node_box.height = rect->height;
		break;
	}
	case WLR_SCENE_NODE_BUFFER: {
		struct wlr_scene_buffer *buffer = wlr_scene_buffer_from_node(node);
		node_box.width = buffer->dst_width;
		node_box.height = buffer->dst_height;
		if ((node_box.width == 0 || node_box.height == 0) && buffer->buffer) {
			node_box.width = buffer->buffer->width;
			node_box.height = buffer->buffer->height;
		}
		break;
	}
	}
	struct wlr_box overlap;
	return wlr_box_intersection(&overlap, &node_box, box);
}

bool cordon_portals_overlaps_trusted_ui(struct cordon_portals *portals, const struct wlr_box *box) {
	if (!portals || !portals->layer) {
		return false;
	}
	/* Dialogs and the camera indicator all live in the portal layer, at the scene's origin. */
	return node_overlaps(&portals->layer->node, 0, 0, box);
}
