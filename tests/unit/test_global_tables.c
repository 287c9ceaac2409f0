/*
 * Every global cordon creates is in exactly one of the global filter's tables (offered to
 * sandboxes, host-only), and every grantable one is host-only. The globals are not taken
 * from a list kept beside the code: a headless cordon is created in-process and a client
 * asks its registry, with a filter in place that notes every global libwayland holds. A
 * global added anywhere (globals.c, server.c, a module) and classified nowhere fails here,
 * also where wlcs (and so tests/wlcs/descriptor-check.c, which checks the same) is absent.
 */
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server-core.h>

#include "check.h"
#include "common/policy.h"
#include "compositor/global_filter.h"
#include "compositor/server.h"

#define MAX_GLOBALS 128

struct census {
	const char *names[MAX_GLOBALS];
	size_t count;
	bool overflow;
};

/* Called by libwayland for every global, for the new registry: everything the display holds. */
static bool note_global(
	const struct wl_client *client, const struct wl_global *global, void *data) {
	struct census *census = data;
	const char *name = wl_global_get_interface(global)->name;
	for (size_t i = 0; i < census->count; i++) {
		if (strcmp(census->names[i], name) == 0) {
			return true;
		}
	}
	if (census->count == MAX_GLOBALS) {
		census->overflow = true;
		return true;
	}
	census->names[census->count++] = name;
	return true;
}

static bool census_holds(const struct census *census, const char *name) {
	for (size_t i = 0; i < census->count; i++) {
		if (strcmp(census->names[i], name) == 0) {
			return true;
		}
	}
	return false;
}

static void handle_done(void *data, struct wl_callback *callback, uint32_t serial) {
	*(bool *)data = true;
}

static const struct wl_callback_listener done_listener = {.done = handle_done};

/* Runs server and client in turn, in this thread, until the client's sync is answered. */
static bool roundtrip(struct cordon_server *server, struct wl_display *client) {
	bool done = false;
	struct wl_callback *callback = wl_display_sync(client);
	wl_callback_add_listener(callback, &done_listener, &done);
	for (int i = 0; i < 500 && !done; i++) {
		wl_display_flush(client);
		wl_event_loop_dispatch(server->event_loop, 10);
		wl_display_flush_clients(server->display);
		while (wl_display_prepare_read(client) != 0) {
			wl_display_dispatch_pending(client);
		}
		struct pollfd pfd = {.fd = wl_display_get_fd(client), .events = POLLIN};
		if (poll(&pfd, 1, 0) > 0) {
			wl_display_read_events(client);
		} else {
			wl_display_cancel_read(client);
		}
		wl_display_dispatch_pending(client);
	}
	wl_callback_destroy(callback);
	return done;
}

static void check_created_globals(void) {
	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{640, 480}},
	};
	struct cordon_server *server = cordon_server_create(&options);
	CHECK(server != NULL);
	if (!server) {
		return;
	}
	CHECK(cordon_server_start(server));

	struct census census = {0};
	wl_display_set_global_filter(server->display, note_global, &census);
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	CHECK(wl_client_create(server->display, fds[0]) != NULL);
	struct wl_display *client = wl_display_connect_to_fd(fds[1]);
	CHECK(client != NULL);
	if (client) {
		struct wl_registry *registry = wl_display_get_registry(client);
		CHECK(roundtrip(server, client));
		wl_registry_destroy(registry);
		wl_display_disconnect(client);
	}

	/* Not an empty census: the core globals and the output are there. */
	CHECK(census_holds(&census, "wl_compositor"));
	CHECK(census_holds(&census, "wl_output"));
	CHECK(census_holds(&census, "cordon_portal_manager_v1"));
	CHECK(!census.overflow);
	for (size_t i = 0; i < census.count; i++) {
		enum cordon_global_class class = cordon_global_class_of(census.names[i]);
		if (class != CORDON_GLOBAL_OFFERED && class != CORDON_GLOBAL_HOST_ONLY &&
			class != CORDON_GLOBAL_X_SERVER_ONLY) {
			fprintf(stderr,
				"cordon creates %s, which is in %s of global_filter.c's tables\n",
				census.names[i],
				class == CORDON_GLOBAL_IN_BOTH ? "both" : "neither");
			failures++;
		}
	}
	printf("%zu globals created\n", census.count);
	cordon_server_destroy(server);
}

/* What a policy may grant to a sandboxed app is host-only: the rest it has already. */
static void check_grantable(void) {
	const char *const *grantable = cordon_policy_key_words("globals");
	CHECK(grantable != NULL);
	for (size_t i = 0; grantable && grantable[i]; i++) {
		if (cordon_global_class_of(grantable[i]) != CORDON_GLOBAL_HOST_ONLY) {
			fprintf(stderr, "the grantable global %s is not host-only\n", grantable[i]);
			failures++;
		}
	}
}

int main(void) {
	check_grantable();
	check_created_globals();
	return check_result();
}
