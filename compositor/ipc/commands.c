/* The command table, and the commands too small for a file of their own. */
#include "commands.h"

#include <string.h>

#include <stdio.h>
#include <stdlib.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_output.h>

#include "compositor/output.h"
#include "compositor/screenshot.h"
#include "compositor/server.h"

const struct cordon_ipc_command cordon_ipc_commands[] = {
	{"outputs", cordon_ipc_outputs, true},
	{"windows", cordon_ipc_windows, true},
	{"clients", cordon_ipc_clients, true},
	{"transfers", cordon_ipc_transfers, true},
	{"selection", cordon_ipc_selection, true},
	{"focus", cordon_ipc_focus, false},
	{"close", cordon_ipc_close, false},
	{"minimize", cordon_ipc_minimize, false},
	{"restore", cordon_ipc_restore, false},
	{"pointer", cordon_ipc_pointer, false},
	{"key", cordon_ipc_key, false},
	{"screenshot", cordon_ipc_screenshot, false},
	{"permissions", cordon_ipc_permissions, false},
	{"portal-requests", cordon_ipc_portal_requests, true},
	{"camera-streams", cordon_ipc_camera_streams, true},
	{"quit", cordon_ipc_quit, false},
	{"apps", cordon_ipc_apps, true},
	{"freeze", cordon_ipc_freeze, false},
	{"thaw", cordon_ipc_thaw, false},
	{"output-add", cordon_ipc_output_add, false},
	{"output-remove", cordon_ipc_output_remove, false},
	{"attention", cordon_ipc_attention, false},
	{"x11-servers", cordon_ipc_x11_servers, true},
	{NULL, NULL, false},
};

CORDON_IPC_HANDLER(cordon_ipc_screenshot) {
	/* "cursor": with the pointer's image drawn as the user sees it (tests of cursor rules). */
	bool with_cursor = argc == 3 && strcmp(argv[2], "cursor") == 0;
	if (argc != 2 && !with_cursor) {
		return cordon_ipc_fail(error, "usage: screenshot OUTPUT FILE [cursor]");
	}
	struct cordon_output *output = cordon_output_by_name(server, argv[0]);
	if (!output) {
		return cordon_ipc_fail(error, "no output named \"%s\"", argv[0]);
	}
	if (argv[1][0] != '/') {
		/* cordon's working directory means nothing to the caller. */
		return cordon_ipc_fail(error, "the file must be an absolute path");
	}
	int width, height;
	if (!cordon_screenshot_output(output, argv[1], with_cursor, &width, &height, error)) {
		return false;
	}
	*result = json_object_new_object();
	json_object_object_add(*result, "file", json_object_new_string(argv[1]));
	json_object_object_add(*result, "width", json_object_new_int(width));
	json_object_object_add(*result, "height", json_object_new_int(height));
	return true;
}

CORDON_IPC_HANDLER(cordon_ipc_quit) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: quit");
	}
	/* The reply is written before the loop returns. */
	cordon_server_terminate(server);
	return true;
}

/* Hot-plugs a headless output: for tests of what clients see when a global appears late. */
CORDON_IPC_HANDLER(cordon_ipc_output_add) {
	int width, height, end = 0;
	if (argc != 1 || sscanf(argv[0], "%dx%d%n", &width, &height, &end) != 2 ||
		argv[0][end] != '\0') {
		return cordon_ipc_fail(error, "usage: output-add WIDTHxHEIGHT");
	}
	if (width < 1 || height < 1 || width > 16384 || height > 16384) {
		return cordon_ipc_fail(
			error, "output size %dx%d is not within 1x1 to 16384x16384", width, height);
	}
	if (!server->headless_backend) {
		return cordon_ipc_fail(
			error, "output-add needs the headless backend (cordon --headless)");
	}
	struct wlr_output *output = wlr_headless_add_output(
		server->headless_backend, (unsigned)width, (unsigned)height);
	if (!output) {
		return cordon_ipc_fail(error, "cannot add a %dx%d headless output", width, height);
	}
	*result = json_object_new_object();
	json_object_object_add(*result, "name", json_object_new_string(output->name));
	return true;
}

/* Unplugs a headless output, as a monitor is unplugged: for tests of what lived on it. */
CORDON_IPC_HANDLER(cordon_ipc_output_remove) {
	if (argc != 1) {
		return cordon_ipc_fail(error, "usage: output-remove OUTPUT");
	}
	struct cordon_output *output = cordon_output_by_name(server, argv[0]);
	if (!output) {
		return cordon_ipc_fail(error, "no output named \"%s\"", argv[0]);
	}
	if (!wlr_output_is_headless(output->wlr_output)) {
		return cordon_ipc_fail(
			error, "only a headless output can be removed (cordon --headless)");
	}
	*result = json_object_new_object();
	json_object_object_add(*result, "name", json_object_new_string(argv[0]));
	/* Everything that lived on it is told through the output's destroy signal. */
	wlr_output_destroy(output->wlr_output);
	return true;
}
