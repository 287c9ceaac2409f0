/*
 * focus-client: a toplevel that reports where input goes. Prints
 * "keyboard-enter"/"keyboard-leave", "enter"/"leave" for the pointer,
 * "button ..." and "key code=C ..." lines (see tc_input in common.h).
 * With --inhibit-idle it holds an idle inhibitor on its surface.
 */
#include "common.h"
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>

static void usage(void) {
	tc_die("usage: focus-client [--app-id ID] [--width W] [--height H] [--color AARRGGBB]\n"
	       "       [--inhibit-idle] [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"color", required_argument, NULL, 'c'},
		{"inhibit-idle", no_argument, NULL, 'i'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "focus-client",
		.width = 300,
		.height = 200,
		.timeout = 120,
	};
	uint32_t color = 0xff808080;
	bool inhibit_idle = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			inhibit_idle = true;
			break;
		case 'c': {
			char *end;
			color = (uint32_t)strtoul(optarg, &end, 16);
			if (end == optarg || *end != '\0') {
				tc_die("--color: expected hex AARRGGBB, got \"%s\"", optarg);
			}
			break;
		}
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc) {
		usage();
	}

	struct tc_client *client = tc_client_connect();
	struct tc_input *input = tc_input_create(client, true);
	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, color);

	struct zwp_idle_inhibitor_v1 *inhibitor = NULL;
	if (inhibit_idle) {
		if (!client->idle_inhibit_manager) {
			tc_die("the compositor offers no zwp_idle_inhibit_manager_v1");
		}
		inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(
			client->idle_inhibit_manager, toplevel->surface);
		tc_print("idle-inhibited");
	}

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	if (inhibitor) {
		zwp_idle_inhibitor_v1_destroy(inhibitor);
	}
	int code = tc_exit_code(client, ret);
	tc_toplevel_destroy(toplevel);
	tc_input_destroy(input);
	tc_client_destroy(client);
	return code;
}
