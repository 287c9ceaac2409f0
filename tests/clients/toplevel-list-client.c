/*
 * toplevel-list-client: prints the windows ext-foreign-toplevel-list names, one
 * "toplevel app_id=A title=T identifier=I" line each, and exits. Without the global
 * it ends with "the compositor offers no ext_foreign_toplevel_list_v1" (status 2).
 */
#include "common.h"
#include "ext-foreign-toplevel-list-v1-client-protocol.h"
#include <stdlib.h>
#include <string.h>

struct toplevel {
	struct ext_foreign_toplevel_handle_v1 *handle;
	char *app_id, *title, *identifier;
	struct wl_list link;
};

struct state {
	struct ext_foreign_toplevel_list_v1 *list;
	struct wl_list toplevels; /* toplevel.link */
};

static void replace(char **field, const char *value) {
	free(*field);
	*field = strdup(value);
}

static void handle_closed(void *data, struct ext_foreign_toplevel_handle_v1 *handle) {
}

static void handle_done(void *data, struct ext_foreign_toplevel_handle_v1 *handle) {
}

static void handle_title(
	void *data, struct ext_foreign_toplevel_handle_v1 *handle, const char *title) {
	replace(&((struct toplevel *)data)->title, title);
}

static void handle_app_id(
	void *data, struct ext_foreign_toplevel_handle_v1 *handle, const char *app_id) {
	replace(&((struct toplevel *)data)->app_id, app_id);
}

static void handle_identifier(
	void *data, struct ext_foreign_toplevel_handle_v1 *handle, const char *identifier) {
	replace(&((struct toplevel *)data)->identifier, identifier);
}

static const struct ext_foreign_toplevel_handle_v1_listener handle_listener = {
	.closed = handle_closed,
	.done = handle_done,
	.title = handle_title,
	.app_id = handle_app_id,
	.identifier = handle_identifier,
};

static void handle_toplevel(void *data, struct ext_foreign_toplevel_list_v1 *list,
	struct ext_foreign_toplevel_handle_v1 *handle) {
	struct state *state = data;
	struct toplevel *toplevel = calloc(1, sizeof(*toplevel));
	if (!toplevel) {
		tc_die("out of memory");
	}
	toplevel->handle = handle;
	ext_foreign_toplevel_handle_v1_add_listener(handle, &handle_listener, toplevel);
	wl_list_insert(state->toplevels.prev, &toplevel->link);
}

static void handle_finished(void *data, struct ext_foreign_toplevel_list_v1 *list) {
}

static const struct ext_foreign_toplevel_list_v1_listener list_listener = {
	.toplevel = handle_toplevel,
	.finished = handle_finished,
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, ext_foreign_toplevel_list_v1_interface.name) == 0) {
		state->list = wl_registry_bind(
			registry, name, &ext_foreign_toplevel_list_v1_interface, 1);
		ext_foreign_toplevel_list_v1_add_listener(state->list, &list_listener, state);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

int main(int argc, char *argv[]) {
	if (argc != 1) {
		tc_die("usage: toplevel-list-client");
	}
	struct tc_client *client = tc_client_connect();
	struct state state = {0};
	wl_list_init(&state.toplevels);
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	/* The global, then the list's toplevels, then each handle's properties. */
	for (int i = 0; i < 3; i++) {
		if (wl_display_roundtrip(client->display) < 0) {
			tc_die("the compositor went away");
		}
	}
	if (!state.list) {
		tc_die("the compositor offers no ext_foreign_toplevel_list_v1");
	}
	struct toplevel *toplevel, *tmp;
	wl_list_for_each_safe(toplevel, tmp, &state.toplevels, link) {
		tc_print("toplevel app_id=%s title=%s identifier=%s",
			toplevel->app_id ? toplevel->app_id : "",
			toplevel->title ? toplevel->title : "",
			toplevel->identifier ? toplevel->identifier : "");
		ext_foreign_toplevel_handle_v1_destroy(toplevel->handle);
		free(toplevel->app_id);
		free(toplevel->title);
		free(toplevel->identifier);
		wl_list_remove(&toplevel->link);
		free(toplevel);
	}
	ext_foreign_toplevel_list_v1_destroy(state.list);
	wl_registry_destroy(registry);
	tc_client_destroy(client);
	return 0;
}
