/*
 * hidden-inhibitor: an app that wants the seat never to go idle (no screen locker, no
 * blanking) and itself never to be frozen, without showing anything: it maps an ordinary
 * toplevel (so that it looks like any app) and holds an idle inhibitor on a second
 * surface that has no role and is never mapped (a buffer committed to it all the same).
 * Prints "window-mapped" and then "inhibitor-on-unmapped-surface" once the compositor
 * has the inhibitor (after a round trip).
 *
 * With --offscreen the second surface is a subsurface of the window, mapped with it but
 * placed far outside every output ("inhibitor-on-offscreen-subsurface").
 */
#include "common.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct wl_subcompositor **subcompositor = data;
	if (strcmp(interface, wl_subcompositor_interface.name) == 0) {
		*subcompositor = wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"offscreen", no_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	bool offscreen = false;
	struct tc_window_options window = {
		.app_id = "hidden-inhibitor",
		.width = 240,
		.height = 160,
		.timeout = 120,
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 'o') {
			offscreen = true;
		} else if (!tc_window_option(opt, optarg, &window)) {
			tc_die("usage: hidden-inhibitor [--app-id ID] [--width W] [--height H] "
			       "[--offscreen]");
		}
	}
	struct tc_client *client = tc_client_connect();
	if (!client->idle_inhibit_manager) {
		tc_die("the compositor offers no zwp_idle_inhibit_manager_v1");
	}
	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, 0xff305070);
	while (!toplevel->configured) {
		if (wl_display_dispatch(client->display) < 0) {
			tc_die("disconnected before the first configure");
		}
	}
	tc_print("window-mapped");
	struct wl_surface *hidden = wl_compositor_create_surface(client->compositor);
	struct wl_subcompositor *subcompositor = NULL;
	struct wl_subsurface *subsurface = NULL;
	struct wl_registry *registry = wl_display_get_registry(client->display);
	if (offscreen) {
		wl_registry_add_listener(registry, &registry_listener, &subcompositor);
		wl_display_roundtrip(client->display);
		if (!subcompositor) {
			tc_die("the compositor offers no wl_subcompositor");
		}
		/* Mapped with its window, but where no output is. */
		subsurface =
			wl_subcompositor_get_subsurface(subcompositor, hidden, toplevel->surface);
		wl_subsurface_set_position(subsurface, 20000, 20000);
		wl_subsurface_set_desync(subsurface);
	}
	/* Without --offscreen, no role: nothing will ever show it. */
	struct wl_buffer *buffer = tc_buffer_create(client, 64, 64, 0xff000000);
	wl_surface_attach(hidden, buffer, 0, 0);
	wl_surface_damage(hidden, 0, 0, 64, 64);
	wl_surface_commit(hidden);
	if (offscreen) {
		/* The position is the parent's state: it applies on the parent's commit. */
		wl_surface_commit(toplevel->surface);
	}
	struct zwp_idle_inhibitor_v1 *inhibitor =
		zwp_idle_inhibit_manager_v1_create_inhibitor(client->idle_inhibit_manager, hidden);
	wl_display_roundtrip(client->display);
	tc_print(offscreen ? "inhibitor-on-offscreen-subsurface" : "inhibitor-on-unmapped-surface");

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, ret);
	zwp_idle_inhibitor_v1_destroy(inhibitor);
	if (subsurface) {
		wl_subsurface_destroy(subsurface);
	}
	if (subcompositor) {
		wl_subcompositor_destroy(subcompositor);
	}
	wl_registry_destroy(registry);
	wl_surface_destroy(hidden);
	tc_toplevel_destroy(toplevel);
	tc_client_destroy(client);
	return code;
}
