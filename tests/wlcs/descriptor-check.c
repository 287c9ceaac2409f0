/*
 * Checks that cordon-wlcs.so's extension descriptor is true: it loads the module as
 * wlcs does, starts the server, connects a client through create_client_socket and
 * compares every global the client sees (name and version) with the descriptor, both
 * ways. wlcs skips the tests of what the descriptor leaves out, so a stale entry would
 * hide tests or fail them for the wrong reason.
 *
 * The client is unsandboxed, so it sees every global cordon creates: each must also be in
 * exactly one of the global filter's tables (offered to sandboxed apps, or host-only), so
 * that a new global is classified on purpose (compositor/global_filter.c).
 *
 *	descriptor-check MODULE
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>
#include <wlcs/display_server.h>

#include "compositor/global_filter.h"

#define MAX_GLOBALS 64

struct seen {
	char *names[MAX_GLOBALS];
	uint32_t versions[MAX_GLOBALS];
	size_t count;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct seen *seen = data;
	if (seen->count < MAX_GLOBALS) {
		seen->names[seen->count] = strdup(interface);
		seen->versions[seen->count] = version;
		seen->count++;
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr, "usage: descriptor-check MODULE\n");
		return 2;
	}
	void *module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	const WlcsServerIntegration *integration =
		module ? dlsym(module, "wlcs_server_integration") : NULL;
	if (!integration) {
		fprintf(stderr, "descriptor-check: %s\n", dlerror());
		return 1;
	}
	enum cordon_global_class (*class_of)(const char *) =
		(enum cordon_global_class (*)(const char *))dlsym(module, "cordon_global_class_of");
	if (!class_of) {
		fprintf(stderr, "descriptor-check: %s\n", dlerror());
		return 1;
	}
	const char *server_argv[] = {"descriptor-check", NULL};
	WlcsDisplayServer *server = integration->create_server(1, server_argv);
	server->start(server);
	const WlcsIntegrationDescriptor *descriptor = server->get_descriptor(server);

	struct wl_display *display = wl_display_connect_to_fd(server->create_client_socket(server));
	if (!display) {
		fprintf(stderr, "descriptor-check: cannot connect\n");
		return 1;
	}
	struct seen seen = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &seen);
	wl_display_roundtrip(display);

	int wrong = 0;
	for (size_t i = 0; i < seen.count; i++) {
		bool found = false;
		for (size_t j = 0; j < descriptor->num_extensions; j++) {
			const WlcsExtensionDescriptor *extension =
				&descriptor->supported_extensions[j];
			if (strcmp(extension->name, seen.names[i]) == 0) {
				found = true;
				if (extension->version != seen.versions[i]) {
					printf("%s: version %u offered, %u in the descriptor\n",
						seen.names[i], seen.versions[i],
						extension->version);
					wrong++;
				}
			}
		}
		if (!found) {
			printf("%s (version %u) offered but missing from the descriptor\n",
				seen.names[i], seen.versions[i]);
			wrong++;
		}
		enum cordon_global_class class = class_of(seen.names[i]);
		if (class == CORDON_GLOBAL_UNCLASSIFIED || class == CORDON_GLOBAL_IN_BOTH) {
			printf("%s is in %s of global_filter.c's tables (offered, host-only)\n",
				seen.names[i], class == CORDON_GLOBAL_IN_BOTH ? "both" : "neither");
			wrong++;
		}
	}
	for (size_t j = 0; j < descriptor->num_extensions; j++) {
		const char *name = descriptor->supported_extensions[j].name;
		bool found = false;
		for (size_t i = 0; i < seen.count; i++) {
			found = found || strcmp(name, seen.names[i]) == 0;
		}
		if (!found) {
			printf("%s in the descriptor but not offered\n", name);
			wrong++;
		}
	}
	printf("%zu globals offered, %zu in the descriptor, %d mismatches\n", seen.count,
		descriptor->num_extensions, wrong);

	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	for (size_t i = 0; i < seen.count; i++) {
		free(seen.names[i]);
	}
	server->stop(server);
	integration->destroy_server(server);
	return wrong ? 1 : 0;
}
