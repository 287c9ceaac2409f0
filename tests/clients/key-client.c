/*
 * key-client: a toplevel that decodes keys with the keymap the compositor
 * sent, as a real client does, so a test sees what the user would get.
 *
 * Prints "keymap size=N layout=NAME", "repeat-info rate=R delay=D",
 * "keyboard-enter", "keyboard-leave" and, for each key,
 * "key sym=NAME utf8=TEXT state=pressed|released code=EVDEV". TEXT is empty
 * when the key types nothing and U+XXXX when it is a space or control
 * character, so that a line always splits on spaces. With --modifiers, also
 * "modifiers depressed=D latched=L locked=K group=G" for each wl_keyboard.modifiers and,
 * after "keyboard-enter", "keys-held count=N" for the keys the enter said were down.
 */
#include "common.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

struct key_client {
	struct tc_client *client;
	struct wl_keyboard *keyboard;
	struct xkb_context *context;
	struct xkb_keymap *keymap;
	struct xkb_state *state;
	bool print_modifiers;
};

/*
 * Prints a layout name with the spaces made underscores ("German" is one
 * word, "English (US)" is not).
 */
static void print_keymap(const struct key_client *kc, uint32_t size) {
	const char *name = xkb_keymap_layout_get_name(kc->keymap, 0);
	char word[128];
	snprintf(word, sizeof(word), "%s", name ? name : "unknown");
	for (char *c = word; *c; c++) {
		if (*c == ' ') {
			*c = '_';
		}
	}
	tc_print("keymap size=%u layout=%s", size, word);
}

static void handle_keymap(
	void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
	struct key_client *kc = data;
	if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0) {
		close(fd);
		tc_print("keymap format=%u unusable", format);
		return;
	}
	/* Since wl_keyboard v7 the fd must be mapped MAP_PRIVATE; it may be shared read-only. */
	char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		tc_die("mmap keymap: %s", strerror(errno));
	}
	struct xkb_keymap *keymap = xkb_keymap_new_from_buffer(kc->context, map, strnlen(map, size),
		XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
	munmap(map, size);
	if (!keymap) {
		tc_die("the compositor's keymap does not compile");
	}
	struct xkb_state *state = xkb_state_new(keymap);
	if (!state) {
		tc_die("xkb_state_new failed");
	}
	xkb_state_unref(kc->state);
	xkb_keymap_unref(kc->keymap);
	kc->keymap = keymap;
	kc->state = state;
	print_keymap(kc, size);
}

static void handle_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	struct wl_surface *surface, struct wl_array *keys) {
	struct key_client *kc = data;
	tc_print("keyboard-enter");
	if (kc->print_modifiers) {
		tc_print("keys-held count=%zu", keys->size / sizeof(uint32_t));
	}
}

static void handle_leave(
	void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
	tc_print("keyboard-leave");
}

static void format_utf8(const char *utf8, char *out, size_t out_size) {
	unsigned char first = (unsigned char)utf8[0];
	if (first == '\0') {
		out[0] = '\0';
	} else if (first <= 0x20 || first == 0x7f) {
		snprintf(out, out_size, "U+%04X", first);
	} else {
		snprintf(out, out_size, "%s", utf8);
	}
}

static void handle_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t state) {
	struct key_client *kc = data;
	const char *pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED ? "pressed" : "released";
	if (!kc->state) {
		tc_print("key sym=none utf8= state=%s code=%u", pressed, key);
		return;
	}
	/* Wayland sends evdev codes; XKB keycodes are offset by 8 (the X11 legacy). */
	xkb_keycode_t keycode = key + 8;
	char name[64], utf8[64], shown[64];
	xkb_keysym_t sym = xkb_state_key_get_one_sym(kc->state, keycode);
	if (xkb_keysym_get_name(sym, name, sizeof(name)) < 0) {
		snprintf(name, sizeof(name), "unknown");
	}
	xkb_state_key_get_utf8(kc->state, keycode, utf8, sizeof(utf8));
	format_utf8(utf8, shown, sizeof(shown));
	tc_print("key sym=%s utf8=%s state=%s code=%u", name, shown, pressed, key);
}

static void handle_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
	struct key_client *kc = data;
	if (kc->print_modifiers) {
		tc_print("modifiers depressed=%u latched=%u locked=%u group=%u", depressed, latched,
			locked, group);
	}
	/* The compositor owns the modifier state; clients mirror it rather than track keys. */
	if (kc->state) {
		xkb_state_update_mask(kc->state, depressed, latched, locked, 0, 0, group);
	}
}

static void handle_repeat_info(
	void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
	tc_print("repeat-info rate=%d delay=%d", rate, delay);
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = handle_keymap,
	.enter = handle_enter,
	.leave = handle_leave,
	.key = handle_key,
	.modifiers = handle_modifiers,
	.repeat_info = handle_repeat_info,
};

static void usage(void) {
	tc_die("usage: key-client [--app-id ID] [--width W] [--height H] [--timeout SECONDS] "
	       "[--modifiers]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"modifiers", no_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "key-client",
		.width = 300,
		.height = 200,
		.timeout = 120,
	};
	bool print_modifiers = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			print_modifiers = true;
			break;
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc) {
		usage();
	}

	struct key_client kc = {.print_modifiers = print_modifiers};
	kc.context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!kc.context) {
		tc_die("xkb_context_new failed");
	}
	kc.client = tc_client_connect();
	if (!kc.client->seat || !(kc.client->seat_caps & WL_SEAT_CAPABILITY_KEYBOARD)) {
		tc_die("the seat has no keyboard");
	}
	kc.keyboard = wl_seat_get_keyboard(kc.client->seat);
	wl_keyboard_add_listener(kc.keyboard, &keyboard_listener, &kc);
	struct tc_toplevel *toplevel = tc_toplevel_create(
		kc.client, window.app_id, window.width, window.height, 0xff5050a0);

	int code = tc_exit_code(kc.client, tc_run(kc.client, tc_timeout_ms(window.timeout)));
	tc_toplevel_destroy(toplevel);
	if (wl_keyboard_get_version(kc.keyboard) >= WL_KEYBOARD_RELEASE_SINCE_VERSION) {
		wl_keyboard_release(kc.keyboard);
	} else {
		wl_keyboard_destroy(kc.keyboard);
	}
	tc_client_destroy(kc.client);
	xkb_state_unref(kc.state);
	xkb_keymap_unref(kc.keymap);
	xkb_context_unref(kc.context);
	return code;
}
