/*
 * input-method-client: a host input method (input-method-v2), as fcitx5 or ibus would be,
 * for tests/integration/text-input.sh and the text-input attack. Prints one line an event:
 * "activate", "deactivate", "surrounding text=T cursor=C anchor=A", "content-type
 * hint=H purpose=P", "done serial=N", "unavailable", "grab-keymap", "grab-key code=C
 * state=S", and "committed TEXT" after committing.
 *
 *	--commit TEXT   after each activation (at its done), commit TEXT into the field
 *	--grab          grab the keyboard: keys typed into an active field come here
 *	--popup         show a 120x40 candidate window (#00c0c0) while active; prints
 *	                "popup-rectangle x=X y=Y width=W height=H" (the field's cursor)
 *	--timeout S     give up after S seconds (exit 3)
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "input-method-unstable-v2-client-protocol.h"

struct ime {
	struct tc_client *client;
	struct zwp_input_method_manager_v2 *manager;
	struct zwp_input_method_v2 *input_method;
	struct zwp_input_method_keyboard_grab_v2 *grab;
	struct wl_surface *popup_surface;
	struct zwp_input_popup_surface_v2 *popup;
	const char *commit_text;
	bool activated; /* an activate since the last done */
	bool active;
	uint32_t done_count;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct ime *ime = data;
	if (strcmp(interface, zwp_input_method_manager_v2_interface.name) == 0) {
		ime->manager =
			wl_registry_bind(registry, name, &zwp_input_method_manager_v2_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_activate(void *data, struct zwp_input_method_v2 *input_method) {
	struct ime *ime = data;
	ime->activated = true;
	tc_print("activate");
}

static void handle_deactivate(void *data, struct zwp_input_method_v2 *input_method) {
	struct ime *ime = data;
	ime->activated = false;
	ime->active = false;
	tc_print("deactivate");
}

static void handle_surrounding_text(void *data, struct zwp_input_method_v2 *input_method,
	const char *text, uint32_t cursor, uint32_t anchor) {
	tc_print("surrounding text=%s cursor=%u anchor=%u", text, cursor, anchor);
}

static void handle_text_change_cause(
	void *data, struct zwp_input_method_v2 *input_method, uint32_t cause) {
}

static void handle_content_type(
	void *data, struct zwp_input_method_v2 *input_method, uint32_t hint, uint32_t purpose) {
	tc_print("content-type hint=%u purpose=%u", hint, purpose);
}

static void handle_done(void *data, struct zwp_input_method_v2 *input_method) {
	struct ime *ime = data;
	ime->done_count++;
	tc_print("done serial=%u", ime->done_count);
	if (ime->activated) {
		ime->activated = false;
		ime->active = true;
		if (ime->commit_text) {
			zwp_input_method_v2_commit_string(input_method, ime->commit_text);
			zwp_input_method_v2_commit(input_method, ime->done_count);
			wl_display_flush(ime->client->display);
			tc_print("committed %s", ime->commit_text);
		}
	}
}

static void handle_unavailable(void *data, struct zwp_input_method_v2 *input_method) {
	tc_print("unavailable");
}

static const struct zwp_input_method_v2_listener input_method_listener = {
	.activate = handle_activate,
	.deactivate = handle_deactivate,
	.surrounding_text = handle_surrounding_text,
	.text_change_cause = handle_text_change_cause,
	.content_type = handle_content_type,
	.done = handle_done,
	.unavailable = handle_unavailable,
};

static void handle_grab_keymap(void *data, struct zwp_input_method_keyboard_grab_v2 *grab,
	uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
	tc_print("grab-keymap");
}

static void handle_grab_key(void *data, struct zwp_input_method_keyboard_grab_v2 *grab,
	uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
	tc_print("grab-key code=%u state=%u", key, state);
}

static void handle_grab_modifiers(void *data, struct zwp_input_method_keyboard_grab_v2 *grab,
	uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
}

static void handle_grab_repeat_info(
	void *data, struct zwp_input_method_keyboard_grab_v2 *grab, int32_t rate, int32_t delay) {
}

static void handle_text_input_rectangle(void *data, struct zwp_input_popup_surface_v2 *popup,
	int32_t x, int32_t y, int32_t width, int32_t height) {
	tc_print("popup-rectangle x=%d y=%d width=%d height=%d", x, y, width, height);
}

static const struct zwp_input_popup_surface_v2_listener popup_listener = {
	.text_input_rectangle = handle_text_input_rectangle,
};

static const struct zwp_input_method_keyboard_grab_v2_listener grab_listener = {
	.keymap = handle_grab_keymap,
	.key = handle_grab_key,
	.modifiers = handle_grab_modifiers,
	.repeat_info = handle_grab_repeat_info,
};

int main(int argc, char *argv[]) {
	struct ime ime = {0};
	bool grab = false, popup = false;
	int timeout = 0;
	static const struct option options[] = {
		{"commit", required_argument, NULL, 'c'},
		{"grab", no_argument, NULL, 'g'},
		{"popup", no_argument, NULL, 'p'},
		{"timeout", required_argument, NULL, 't'},
		{0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			ime.commit_text = optarg;
			break;
		case 'g':
			grab = true;
			break;
		case 'p':
			popup = true;
			break;
		case 't':
			timeout = tc_parse_int("--timeout", optarg, 0, 3600);
			break;
		default:
			tc_die("usage: input-method-client [--commit TEXT] [--grab] [--popup] "
			       "[--timeout S]");
		}
	}

	ime.client = tc_client_connect();
	struct wl_registry *registry = wl_display_get_registry(ime.client->display);
	wl_registry_add_listener(registry, &registry_listener, &ime);
	wl_display_roundtrip(ime.client->display);
	if (!ime.manager || !ime.client->seat) {
		tc_print("no-input-method-manager");
		return TC_EXIT_FAIL;
	}
	ime.input_method =
		zwp_input_method_manager_v2_get_input_method(ime.manager, ime.client->seat);
	zwp_input_method_v2_add_listener(ime.input_method, &input_method_listener, &ime);
	if (grab) {
		ime.grab = zwp_input_method_v2_grab_keyboard(ime.input_method);
		zwp_input_method_keyboard_grab_v2_add_listener(ime.grab, &grab_listener, &ime);
	}
	if (popup) {
		/* Drawn once; wlroots shows it only while the input method is active. */
		ime.popup_surface = wl_compositor_create_surface(ime.client->compositor);
		ime.popup = zwp_input_method_v2_get_input_popup_surface(
			ime.input_method, ime.popup_surface);
		zwp_input_popup_surface_v2_add_listener(ime.popup, &popup_listener, &ime);
		wl_surface_attach(
			ime.popup_surface, tc_buffer_create(ime.client, 120, 40, 0xff00c0c0), 0, 0);
		wl_surface_commit(ime.popup_surface);
	}
	wl_display_roundtrip(ime.client->display);
	tc_print("ready");
	int result = tc_run(ime.client, tc_timeout_ms(timeout));
	int code = tc_exit_code(ime.client, result);
	if (ime.grab) {
		zwp_input_method_keyboard_grab_v2_release(ime.grab);
	}
	if (ime.popup) {
		zwp_input_popup_surface_v2_destroy(ime.popup);
		wl_surface_destroy(ime.popup_surface);
	}
	zwp_input_method_v2_destroy(ime.input_method);
	zwp_input_method_manager_v2_destroy(ime.manager);
	wl_registry_destroy(registry);
	tc_client_destroy(ime.client);
	return code;
}
