#include "common.h"

#include <stdio.h>
#include <string.h>

const char *cordon_portal_cli_failure_name(uint32_t failure) {
	/* The failure enums share their values; print's go on past the file chooser's. */
	static const char *const names[] = {"denied", "busy", "i/o error", "unavailable",
		"too large", "bad document", "printing failed"};
	return failure < sizeof(names) / sizeof(names[0]) ? names[failure] : "failed";
}

struct binding {
	uint32_t version;
	struct cordon_portal_manager_v1 *manager;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct binding *binding = data;
	if (strcmp(interface, cordon_portal_manager_v1_interface.name) == 0 &&
			version >= binding->version && !binding->manager) {
		binding->manager = wl_registry_bind(registry, name,
			&cordon_portal_manager_v1_interface, binding->version);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

struct cordon_portal_manager_v1 *cordon_portal_cli_connect(
		struct wl_display **display, uint32_t version, const char *what) {
	*display = wl_display_connect(NULL);
	if (!*display) {
		fprintf(stderr, "cordon-portal: cannot connect to the Wayland display\n");
		return NULL;
	}
	struct binding binding = {.version = version};
	struct wl_registry *registry = wl_display_get_registry(*display);
	wl_registry_add_listener(registry, &registry_listener, &binding);
	wl_display_roundtrip(*display);
	wl_registry_destroy(registry);
	if (!binding.manager) {
		fprintf(stderr, "cordon-portal: this compositor offers no %s portal\n", what);
		wl_display_disconnect(*display);
		*display = NULL;
	}
	return binding.manager;
}
