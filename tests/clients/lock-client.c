/*
 * lock-client: a session locker (ext-session-lock-v1) whose unlock a test can drive
 * without a password. It locks, covers every output with a surface of one colour and
 * prints "locked" or "finished" (the compositor refused or ended the lock),
 * "configure width=W height=H" per surface, and its input as tests/clients/common.h's
 * tc_input prints it ("keyboard-enter", "key code=C state=S", "button name=N code=C ..."). With
 * --unlock-key CODE, a press of that evdev key unlocks (unlock_and_destroy, then
 * "unlocked" and exit 0), as a password and Return would in a real locker.
 * Prints "no-lock-manager" and exits 1 when the global is not offered to it.
 */
#include "common.h"
#include "ext-session-lock-v1-client-protocol.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OUTPUTS 8

struct lock_surface {
	struct lock_client *lc;
	struct wl_surface *surface;
	struct ext_session_lock_surface_v1 *lock_surface;
};

struct lock_client {
	struct tc_client *client;
	struct ext_session_lock_manager_v1 *manager;
	struct ext_session_lock_v1 *lock;
	struct wl_output *outputs[MAX_OUTPUTS];
	struct lock_surface surfaces[MAX_OUTPUTS];
	int output_count;
	struct tc_input *input;
	uint32_t color;
	int unlock_key; /* -1: never */
	bool finished;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct lock_client *lc = data;
	if (strcmp(interface, ext_session_lock_manager_v1_interface.name) == 0) {
		lc->manager =
			wl_registry_bind(registry, name, &ext_session_lock_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_output_interface.name) == 0 &&
		lc->output_count < MAX_OUTPUTS) {
		lc->outputs[lc->output_count++] =
			wl_registry_bind(registry, name, &wl_output_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_surface_configure(void *data, struct ext_session_lock_surface_v1 *lock_surface,
	uint32_t serial, uint32_t width, uint32_t height) {
	struct lock_surface *ls = data;
	ext_session_lock_surface_v1_ack_configure(lock_surface, serial);
	struct wl_buffer *buffer =
		tc_buffer_create(ls->lc->client, (int32_t)width, (int32_t)height, ls->lc->color);
	wl_surface_attach(ls->surface, buffer, 0, 0);
	wl_surface_damage_buffer(ls->surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(ls->surface);
	tc_print("configure width=%u height=%u", width, height);
}

static const struct ext_session_lock_surface_v1_listener surface_listener = {
	.configure = handle_surface_configure,
};

static void handle_locked(void *data, struct ext_session_lock_v1 *lock) {
	tc_print("locked");
}

static void handle_finished(void *data, struct ext_session_lock_v1 *lock) {
	struct lock_client *lc = data;
	tc_print("finished");
	lc->finished = true;
	lc->client->quit = true;
}

static const struct ext_session_lock_v1_listener lock_listener = {
	.locked = handle_locked,
	.finished = handle_finished,
};

/* A press of the unlock key unlocks, as a password and Return would in a real locker. */
static void handle_key(struct tc_input *input, uint32_t key, uint32_t state) {
	struct lock_client *lc = input->data;
	if (state == WL_KEYBOARD_KEY_STATE_PRESSED && (int)key == lc->unlock_key && lc->lock) {
		ext_session_lock_v1_unlock_and_destroy(lc->lock);
		lc->lock = NULL;
		wl_display_roundtrip(lc->client->display);
		tc_print("unlocked");
		lc->client->quit = true;
	}
}

static void usage(void) {
	tc_die("usage: lock-client [--color AARRGGBB] [--unlock-key EVDEV-CODE] [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		{"color", required_argument, NULL, 'c'},
		{"unlock-key", required_argument, NULL, 'u'},
		{"timeout", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	struct lock_client lc = {.color = 0xff2040a0, .unlock_key = -1};
	int timeout = 120;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c': {
			char *end;
			lc.color = (uint32_t)strtoul(optarg, &end, 16);
			if (end == optarg || *end != '\0') {
				tc_die("--color: expected hex AARRGGBB, got \"%s\"", optarg);
			}
			break;
		}
		case 'u':
			lc.unlock_key = tc_parse_int("--unlock-key", optarg, 1, 767);
			break;
		case 't':
			timeout = tc_parse_int("--timeout", optarg, 0, 3600);
			break;
		default:
			usage();
		}
	}
	if (optind != argc) {
		usage();
	}

	lc.client = tc_client_connect();
	struct wl_registry *registry = wl_display_get_registry(lc.client->display);
	wl_registry_add_listener(registry, &registry_listener, &lc);
	wl_display_roundtrip(lc.client->display);
	if (!lc.manager) {
		tc_print("no-lock-manager");
		return TC_EXIT_FAIL;
	}
	lc.input = tc_input_create(lc.client, true);
	lc.input->on_key = handle_key;
	lc.input->data = &lc;

	lc.lock = ext_session_lock_manager_v1_lock(lc.manager);
	ext_session_lock_v1_add_listener(lc.lock, &lock_listener, &lc);
	for (int i = 0; i < lc.output_count; i++) {
		struct lock_surface *ls = &lc.surfaces[i];
		ls->lc = &lc;
		ls->surface = wl_compositor_create_surface(lc.client->compositor);
		ls->lock_surface =
			ext_session_lock_v1_get_lock_surface(lc.lock, ls->surface, lc.outputs[i]);
		ext_session_lock_surface_v1_add_listener(ls->lock_surface, &surface_listener, ls);
	}

	int ret = tc_run(lc.client, tc_timeout_ms(timeout));
	int code = tc_exit_code(lc.client, ret);
	for (int i = 0; i < lc.output_count; i++) {
		ext_session_lock_surface_v1_destroy(lc.surfaces[i].lock_surface);
		wl_surface_destroy(lc.surfaces[i].surface);
		wl_output_destroy(lc.outputs[i]);
	}
	if (lc.lock && lc.finished) {
		/* Refused or ended by the compositor: the inert lock may be destroyed. */
		ext_session_lock_v1_destroy(lc.lock);
	} else if (lc.lock) {
		/* Still locked (timed out): destroying it would be a protocol error; it goes with
		 * the connection, and the session stays locked. */
		wl_proxy_destroy((struct wl_proxy *)lc.lock);
	}
	tc_input_destroy(lc.input);
	ext_session_lock_manager_v1_destroy(lc.manager);
	wl_registry_destroy(registry);
	tc_client_destroy(lc.client);
	return code;
}
