/*
 * pointer and key: injected through the seat's virtual devices, so that
 * bindings, grabs and clients see exactly what a real device would give.
 */
#include "commands.h"

#include <errno.h>
#include <linux/input-event-codes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor/seat.h"
#include "compositor/server.h"

#define MAX_KEY_PARTS 8

/*
 * A coordinate or an amount: finite and within a million (strtod also takes "nan", "inf" and
 * 1e308, which wlroots' cursor asserts on; no layout is a million pixels wide).
 */
#define INPUT_VALUE_MAX 1e6

static bool parse_double(const char *text, double *value) {
	char *end;
	errno = 0;
	*value = strtod(text, &end);
	return *text && *end == '\0' && errno == 0 && isfinite(*value) &&
		*value >= -INPUT_VALUE_MAX && *value <= INPUT_VALUE_MAX;
}

static bool parse_button(const char *name, uint32_t *button) {
	static const struct {
		const char *name;
		uint32_t code;
	} buttons[] = {
		{"left", BTN_LEFT},
		{"right", BTN_RIGHT},
		{"middle", BTN_MIDDLE},
		{"side", BTN_SIDE},
		{"extra", BTN_EXTRA},
	};
	for (size_t i = 0; i < sizeof(buttons) / sizeof(buttons[0]); i++) {
		if (strcasecmp(name, buttons[i].name) == 0) {
			*button = buttons[i].code;
			return true;
		}
	}
	char *end;
	unsigned long code = strtoul(name, &end, 0);
	if (*name && *end == '\0' && code >= BTN_MISC && code <= KEY_MAX) {
		*button = (uint32_t)code;
		return true;
	}
	return false;
}

enum press_mode { PRESS, RELEASE, CLICK };

static bool parse_press_mode(const char *word, enum press_mode *mode) {
	if (strcmp(word, "press") == 0) {
		*mode = PRESS;
	} else if (strcmp(word, "release") == 0) {
		*mode = RELEASE;
	} else if (strcmp(word, "click") == 0) {
		*mode = CLICK;
	} else {
		return false;
	}
	return true;
}

CORDON_IPC_HANDLER(cordon_ipc_pointer) {
	struct cordon_seat *seat = server->seat;
	const char *usage =
		"usage: pointer move X Y | motion DX DY | "
		"button NAME|CODE [press|release|click] | axis vertical|horizontal VALUE";
	if (argc < 2) {
		return cordon_ipc_fail(error, "%s", usage);
	}
	double x, y;
	if (strcmp(argv[0], "move") == 0 || strcmp(argv[0], "motion") == 0) {
		if (argc != 3 || !parse_double(argv[1], &x) || !parse_double(argv[2], &y)) {
			return cordon_ipc_fail(error, "%s", usage);
		}
		if (argv[0][1] == 'o' && argv[0][2] == 'v') {
			cordon_seat_inject_pointer_warp(seat, x, y);
		} else {
			cordon_seat_inject_pointer_motion(seat, x, y);
		}
		return true;
	}
	if (strcmp(argv[0], "button") == 0) {
		uint32_t button;
		enum press_mode mode = CLICK;
		if (argc > 3 || !parse_button(argv[1], &button) ||
			(argc == 3 && !parse_press_mode(argv[2], &mode))) {
			return cordon_ipc_fail(error, "%s", usage);
		}
		if (mode != RELEASE) {
			cordon_seat_inject_button(seat, button, true);
		}
		if (mode != PRESS) {
			cordon_seat_inject_button(seat, button, false);
		}
		return true;
	}
	if (strcmp(argv[0], "axis") == 0) {
		bool horizontal = argc == 3 && strcmp(argv[1], "horizontal") == 0;
		bool vertical = argc == 3 && strcmp(argv[1], "vertical") == 0;
		if ((!horizontal && !vertical) || !parse_double(argv[2], &x)) {
			return cordon_ipc_fail(error, "%s", usage);
		}
		cordon_seat_inject_axis(seat, horizontal, x);
		return true;
	}
	return cordon_ipc_fail(error, "%s", usage);
}

/* Modifier names, and the physical key that gives each. */
static bool modifier_keycode(const char *name, uint32_t *keycode) {
	static const struct {
		const char *name;
		uint32_t code;
	} modifiers[] = {
		{"shift", KEY_LEFTSHIFT},
		{"ctrl", KEY_LEFTCTRL},
		{"control", KEY_LEFTCTRL},
		{"alt", KEY_LEFTALT},
		{"super", KEY_LEFTMETA},
		{"logo", KEY_LEFTMETA},
		{"altgr", KEY_RIGHTALT},
	};
	for (size_t i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++) {
		if (strcasecmp(name, modifiers[i].name) == 0) {
			*keycode = modifiers[i].code;
			return true;
		}
	}
	return false;
}

struct keysym_search {
	struct xkb_keymap *keymap;
	xkb_keysym_t keysym;
	xkb_keycode_t found;
	xkb_level_index_t level;
};

static void search_key(struct xkb_keymap *keymap, xkb_keycode_t keycode, void *data) {
	struct keysym_search *search = data;
	if (search->found) {
		return;
	}
	xkb_level_index_t levels = xkb_keymap_num_levels_for_key(keymap, keycode, 0);
	/* Levels beyond AltGr+Shift need modifiers we cannot press reliably. */
	for (xkb_level_index_t level = 0; level < levels && level < 4; level++) {
		const xkb_keysym_t *syms;
		int count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, level, &syms);
		for (int i = 0; i < count; i++) {
			if (syms[i] == search->keysym) {
				search->found = keycode;
				search->level = level;
				return;
			}
		}
	}
}

/*
 * Resolves one KEY word ("ctrl+shift+a", "Return", "code:30") into the
 * evdev keycodes to press in order.
 */
static bool resolve_key(
	struct cordon_seat *seat, const char *word, uint32_t *codes, size_t *count, char **error) {
	char *copy = strdup(word);
	if (!copy) {
		return cordon_ipc_fail(error, "out of memory");
	}
	char *parts[MAX_KEY_PARTS];
	size_t n = 0;
	char *saveptr = NULL;
	for (char *part = strtok_r(copy, "+", &saveptr); part;
		part = strtok_r(NULL, "+", &saveptr)) {
		if (n == MAX_KEY_PARTS) {
			free(copy);
			return cordon_ipc_fail(error, "too many parts in key \"%s\"", word);
		}
		parts[n++] = part;
	}
	if (n == 0) {
		free(copy);
		return cordon_ipc_fail(error, "empty key");
	}
	*count = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (!modifier_keycode(parts[i], &codes[(*count)++])) {
			cordon_ipc_fail(error, "unknown modifier \"%s\" in \"%s\"", parts[i], word);
			free(copy);
			return false;
		}
	}

	const char *last = parts[n - 1];
	uint32_t code;
	bool ok = true;
	if (strncmp(last, "code:", 5) == 0) {
		char *end;
		unsigned long raw = strtoul(last + 5, &end, 10);
		ok = last[5] && *end == '\0' && raw <= KEY_MAX;
		codes[(*count)++] = (uint32_t)raw;
		if (!ok) {
			cordon_ipc_fail(error, "bad key code \"%s\"", last);
		}
	} else if (modifier_keycode(last, &code)) {
		codes[(*count)++] = code;
	} else {
		xkb_keysym_t keysym = xkb_keysym_from_name(last, XKB_KEYSYM_NO_FLAGS);
		if (keysym == XKB_KEY_NoSymbol) {
			keysym = xkb_keysym_from_name(last, XKB_KEYSYM_CASE_INSENSITIVE);
		}
		struct keysym_search search = {.keymap = seat->keymap, .keysym = keysym};
		if (keysym != XKB_KEY_NoSymbol) {
			xkb_keymap_key_for_each(seat->keymap, search_key, &search);
		}
		if (!search.found) {
			ok = cordon_ipc_fail(error, "no key gives \"%s\" in this keymap", last);
		} else {
			/* Levels 2 and 4 are Shift; 3 and 4 are AltGr, as in most layouts. */
			if (search.level >= 2) {
				codes[(*count)++] = KEY_RIGHTALT;
			}
			if (search.level % 2 == 1) {
				codes[(*count)++] = KEY_LEFTSHIFT;
			}
			codes[(*count)++] = search.found - 8;
		}
	}
	free(copy);
	return ok;
}

CORDON_IPC_HANDLER(cordon_ipc_key) {
	enum press_mode mode = CLICK;
	int first = 0;
	if (argc > 0 && parse_press_mode(argv[0], &mode)) {
		first = 1;
	}
	if (argc - first < 1) {
		return cordon_ipc_fail(error, "usage: key [press|release|click] KEY...");
	}
	/* Resolve everything first: a bad word must not leave keys half pressed. */
	uint32_t codes[64][MAX_KEY_PARTS + 2];
	size_t counts[64];
	if (argc - first > 64) {
		return cordon_ipc_fail(error, "at most 64 keys per command");
	}
	for (int i = first; i < argc; i++) {
		if (!resolve_key(
			    server->seat, argv[i], codes[i - first], &counts[i - first], error)) {
			return false;
		}
	}
	for (int i = 0; i < argc - first; i++) {
		if (mode != RELEASE) {
			for (size_t k = 0; k < counts[i]; k++) {
				cordon_seat_inject_key(server->seat, codes[i][k], true);
			}
		}
		if (mode != PRESS) {
			for (size_t k = counts[i]; k-- > 0;) {
				cordon_seat_inject_key(server->seat, codes[i][k], false);
			}
		}
	}
	return true;
}
