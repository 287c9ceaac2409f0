#include "common.h"

#include <stdio.h>
#include <string.h>

void cordon_portal_cli_chosen(struct cordon_portal_cli_answer *answer) {
	answer->answered = true;
	answer->status = EXIT_CHOSEN;
}

void cordon_portal_cli_cancelled(struct cordon_portal_cli_answer *answer) {
	answer->answered = true;
	answer->status = EXIT_CANCELLED;
	snprintf(answer->reason, sizeof(answer->reason), "cancelled");
}

void cordon_portal_cli_failed(
	struct cordon_portal_cli_answer *answer, uint32_t failure, const char *reason) {
	/* The failure enums share their values; print's go on past the file chooser's. */
	static const char *const names[] = {"denied", "busy", "i/o error", "unavailable",
		"too large", "bad document", "printing failed"};
	const char *name = failure < sizeof(names) / sizeof(names[0]) ? names[failure] : "failed";
	answer->answered = true;
	answer->status = EXIT_FAILED;
	snprintf(answer->reason, sizeof(answer->reason), "%s: %s", name, reason);
}

int cordon_portal_cli_wait(struct wl_display *display, struct cordon_portal_cli_answer *answer) {
	while (!answer->answered && wl_display_dispatch(display) != -1) {
	}
	if (!answer->answered) {
		fprintf(stderr, "cordon-portal: the compositor went away or refused the request\n");
		return EXIT_FAILED;
	}
	if (answer->status != EXIT_CHOSEN) {
		fprintf(stderr, "cordon-portal: %s\n", answer->reason);
	}
	return answer->status;
}

struct binding {
	uint32_t min_version, max_version;
	struct cordon_portal_manager_v1 *manager;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct binding *binding = data;
	if (strcmp(interface, cordon_portal_manager_v1_interface.name) == 0 &&
		version >= binding->min_version && !binding->manager) {
		/* Never above what this client was written for: newer versions may mean more. */
		uint32_t bind = version < binding->max_version ? version : binding->max_version;
		binding->manager =
			wl_registry_bind(registry, name, &cordon_portal_manager_v1_interface, bind);
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
	return cordon_portal_cli_connect_range(display, version, version, what);
}

struct cordon_portal_manager_v1 *cordon_portal_cli_connect_range(
	struct wl_display **display, uint32_t min_version, uint32_t max_version, const char *what) {
	*display = wl_display_connect(NULL);
	if (!*display) {
		fprintf(stderr, "cordon-portal: cannot connect to the Wayland display\n");
		return NULL;
	}
	struct binding binding = {.min_version = min_version, .max_version = max_version};
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
