/*
 * text-input-thief: a sandboxed app that wants what the user types elsewhere through the
 * input method. It maps a window and enables a text input at once and again and again,
 * without waiting to be told enter, hoping for the text the input method commits into
 * another app's field. Prints "enter", "leave", "preedit TEXT", "commit-string TEXT",
 * "delete-surrounding", "done"; a "commit-string" while another window has the keyboard
 * is the leak.
 *
 *	text-input-thief --app-id ID [--timeout S]
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "text-input-unstable-v3-client-protocol.h"

struct thief {
	struct tc_client *client;
	struct zwp_text_input_manager_v3 *manager;
	struct zwp_text_input_v3 *text_input;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct thief *thief = data;
	if (strcmp(interface, zwp_text_input_manager_v3_interface.name) == 0) {
		thief->manager =
			wl_registry_bind(registry, name, &zwp_text_input_manager_v3_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

/* Enabled, with a field's worth of state, whatever the compositor said. */
static void enable(struct thief *thief) {
	zwp_text_input_v3_enable(thief->text_input);
	zwp_text_input_v3_set_surrounding_text(thief->text_input, "", 0, 0);
	zwp_text_input_v3_set_content_type(thief->text_input, 0, 0);
	zwp_text_input_v3_commit(thief->text_input);
	wl_display_flush(thief->client->display);
}

static void handle_enter(
	void *data, struct zwp_text_input_v3 *text_input, struct wl_surface *surface) {
	tc_print("enter");
	enable(data);
}

static void handle_leave(
	void *data, struct zwp_text_input_v3 *text_input, struct wl_surface *surface) {
	tc_print("leave");
	enable(data);
}

static void handle_preedit(void *data, struct zwp_text_input_v3 *text_input, const char *text,
	int32_t begin, int32_t end) {
	tc_print("preedit %s", text ? text : "");
}

static void handle_commit_string(
	void *data, struct zwp_text_input_v3 *text_input, const char *text) {
	tc_print("commit-string %s", text ? text : "");
}

static void handle_delete_surrounding(
	void *data, struct zwp_text_input_v3 *text_input, uint32_t before, uint32_t after) {
	tc_print("delete-surrounding");
}

static void handle_done(void *data, struct zwp_text_input_v3 *text_input, uint32_t serial) {
	tc_print("done");
	enable(data);
}

static const struct zwp_text_input_v3_listener text_input_listener = {
	.enter = handle_enter,
	.leave = handle_leave,
	.preedit_string = handle_preedit,
	.commit_string = handle_commit_string,
	.delete_surrounding_text = handle_delete_surrounding,
	.done = handle_done,
};

int main(int argc, char *argv[]) {
	struct tc_window_options window = {.app_id = "org.example.TextThief", 320, 200, 0};
	static const struct option options[] = {TC_WINDOW_LONG_OPTIONS, {0}};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (!tc_window_option(opt, optarg, &window)) {
			tc_die("usage: text-input-thief [--app-id ID] [--timeout S]");
		}
	}
	struct thief thief = {.client = tc_client_connect()};
	struct wl_registry *registry = wl_display_get_registry(thief.client->display);
	wl_registry_add_listener(registry, &registry_listener, &thief);
	wl_display_roundtrip(thief.client->display);
	if (!thief.manager || !thief.client->seat) {
		tc_print("no-text-input-manager");
		return TC_EXIT_FAIL;
	}
	struct tc_toplevel *toplevel = tc_toplevel_create(
		thief.client, window.app_id, window.width, window.height, 0xff206020);
	struct tc_input *input = tc_input_create(thief.client, true);
	thief.text_input =
		zwp_text_input_manager_v3_get_text_input(thief.manager, thief.client->seat);
	zwp_text_input_v3_add_listener(thief.text_input, &text_input_listener, &thief);
	enable(&thief);
	tc_print("ready");
	int result = tc_run(thief.client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(thief.client, result);
	zwp_text_input_v3_destroy(thief.text_input);
	zwp_text_input_manager_v3_destroy(thief.manager);
	tc_input_destroy(input);
	tc_toplevel_destroy(toplevel);
	wl_registry_destroy(registry);
	tc_client_destroy(thief.client);
	return code;
}
