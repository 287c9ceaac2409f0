#include "common.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

static int64_t now_ms(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* One poll of the display for at most timeout_ms and what it read: false when it failed. */
static bool read_display_for(struct wl_display *display, int timeout_ms) {
	/* Events another call queued are dispatched before poll blocks. */
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return false;
		}
	}
	if (wl_display_flush(display) < 0 && errno != EAGAIN) {
		wl_display_cancel_read(display);
		return false;
	}
	struct pollfd fd = {.fd = wl_display_get_fd(display), .events = POLLIN};
	int ready = poll(&fd, 1, timeout_ms);
	if (ready <= 0) {
		wl_display_cancel_read(display);
		return ready == 0 || errno == EINTR;
	}
	return wl_display_read_events(display) == 0;
}

int cordon_portal_cli_dispatch_until(struct wl_display *display, const bool *done, int timeout_ms) {
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		if (wl_display_dispatch_pending(display) < 0) {
			return -1;
		}
		if (*done) {
			return 1;
		}
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			return 0;
		}
		if (!read_display_for(display, (int)left)) {
			return -1;
		}
	}
}

static void handle_sync_done(void *data, struct wl_callback *callback, uint32_t serial) {
	*(bool *)data = true;
}

static const struct wl_callback_listener sync_listener = {
	.done = handle_sync_done,
};

int cordon_portal_cli_roundtrip(struct wl_display *display, int timeout_ms) {
	bool done = false;
	struct wl_callback *callback = wl_display_sync(display);
	if (!callback) {
		return -1;
	}
	wl_callback_add_listener(callback, &sync_listener, &done);
	int result = cordon_portal_cli_dispatch_until(display, &done, timeout_ms);
	wl_callback_destroy(callback);
	return result;
}

int cordon_portal_cli_wait(
	struct wl_display *display, struct cordon_portal_cli_answer *answer, int timeout_ms) {
	int result = cordon_portal_cli_dispatch_until(display, &answer->answered, timeout_ms);
	if (result == 0) {
		fprintf(stderr,
			"cordon-portal: no answer within %d s: the dialog may still wait for "
			"someone (--timeout SECONDS waits longer)\n",
			timeout_ms / 1000);
		return EXIT_FAILED;
	}
	if (result < 0) {
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
	struct wl_display **display, uint32_t version, const char *what, int timeout_ms) {
	return cordon_portal_cli_connect_range(display, version, version, what, timeout_ms);
}

struct cordon_portal_manager_v1 *cordon_portal_cli_connect_range(struct wl_display **display,
	uint32_t min_version, uint32_t max_version, const char *what, int timeout_ms) {
	*display = wl_display_connect(NULL);
	if (!*display) {
		fprintf(stderr, "cordon-portal: cannot connect to the Wayland display\n");
		return NULL;
	}
	struct binding binding = {.min_version = min_version, .max_version = max_version};
	struct wl_registry *registry = wl_display_get_registry(*display);
	wl_registry_add_listener(registry, &registry_listener, &binding);
	int listed = cordon_portal_cli_roundtrip(*display, timeout_ms);
	wl_registry_destroy(registry);
	if (listed <= 0) {
		fprintf(stderr, "cordon-portal: the compositor %s\n",
			listed == 0 ? "did not list its globals in time" : "went away");
		if (binding.manager) {
			cordon_portal_manager_v1_destroy(binding.manager);
			binding.manager = NULL;
		}
	} else if (!binding.manager) {
		fprintf(stderr, "cordon-portal: this compositor offers no %s portal\n", what);
	}
	if (!binding.manager) {
		wl_display_disconnect(*display);
		*display = NULL;
	}
	return binding.manager;
}
