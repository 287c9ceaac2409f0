/* Commands that act on one window, named by id or app_id. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "compositor/server.h"
#include "compositor/view.h"

/* A number is an id; anything else is the first app_id match, top first. */
static struct cordon_view *find_window(struct cordon_server *server, const char *name) {
	char *end;
	unsigned long id = strtoul(name, &end, 10);
	if (*name && *end == '\0') {
		return cordon_view_by_id(server, (uint32_t)id);
	}
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && strcmp(cordon_view_get_app_id(view), name) == 0) {
			return view;
		}
	}
	return NULL;
}

static struct cordon_view *window_argument(struct cordon_server *server, const char *command,
	int argc, const char *const *argv, char **error) {
	if (argc != 1) {
		cordon_ipc_fail(error, "usage: %s WINDOW", command);
		return NULL;
	}
	struct cordon_view *view = find_window(server, argv[0]);
	if (!view) {
		cordon_ipc_fail(error, "no window matches \"%s\"", argv[0]);
	}
	return view;
}

CORDON_IPC_HANDLER(cordon_ipc_focus) {
	struct cordon_view *view = window_argument(server, "focus", argc, argv, error);
	if (view) {
		cordon_view_focus(view);
	}
	return view != NULL;
}

CORDON_IPC_HANDLER(cordon_ipc_close) {
	struct cordon_view *view = window_argument(server, "close", argc, argv, error);
	if (view) {
		cordon_view_close(view);
	}
	return view != NULL;
}

CORDON_IPC_HANDLER(cordon_ipc_minimize) {
	struct cordon_view *view = window_argument(server, "minimize", argc, argv, error);
	if (view) {
		cordon_view_set_minimized(view, true);
	}
	return view != NULL;
}

CORDON_IPC_HANDLER(cordon_ipc_restore) {
	struct cordon_view *view = window_argument(server, "restore", argc, argv, error);
	if (view) {
		cordon_view_set_minimized(view, false);
		cordon_view_focus(view);
	}
	return view != NULL;
}
