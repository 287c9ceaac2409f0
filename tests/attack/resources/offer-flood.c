/*
 * offer-flood --count N --length L [--sources K] [--keep]: what a hostile app does to grow
 * cordon's memory. Makes K wl_data_sources and offers N mime types of L bytes each on them,
 * round-robin (so that a per-source cap alone would not stop it), as fast as the socket
 * takes them. Prints "ok offered=N" once cordon answered a round trip after the last offer,
 * or "protocol-error interface=I code=C offered=M" when cordon refused (libwayland prints
 * the error's message to stderr itself), or "disconnected offered=M". With --keep it then
 * holds the sources until SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

static struct wl_data_device_manager *manager;

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	if (strcmp(interface, wl_data_device_manager_interface.name) == 0) {
		manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

/* Empties libwayland's 4 KiB buffer before the next request, waiting for cordon to read. */
static int flush(struct wl_display *display) {
	while (wl_display_flush(display) < 0) {
		if (errno != EAGAIN) {
			return -1;
		}
		struct pollfd pfd = {.fd = wl_display_get_fd(display), .events = POLLOUT};
		poll(&pfd, 1, 1000);
	}
	return 0;
}

static int report_error(struct wl_display *display, long offered) {
	/* A write refused (EPIPE) comes before the error event cordon sent is read: read it. */
	while (wl_display_get_error(display) == 0 && wl_display_dispatch(display) >= 0) {
	}
	const struct wl_interface *interface = NULL;
	uint32_t id;
	int code = wl_display_get_error(display) == EPROTO
		? (int)wl_display_get_protocol_error(display, &interface, &id)
		: -1;
	if (code >= 0) {
		printf("protocol-error interface=%s code=%d offered=%ld\n",
			interface ? interface->name : "?", code, offered);
	} else {
		printf("disconnected offered=%ld\n", offered);
	}
	/* Before a sanitizer's exit-time report, which ends the process without flushing. */
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv) {
	static const struct option options[] = {
		{"count", required_argument, NULL, 'c'},
		{"length", required_argument, NULL, 'l'},
		{"sources", required_argument, NULL, 's'},
		{"keep", no_argument, NULL, 'k'},
		{0},
	};
	long count = 100, length = 64, sources = 1;
	int keep = 0, opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			count = atol(optarg);
			break;
		case 'l':
			length = atol(optarg);
			break;
		case 's':
			sources = atol(optarg);
			break;
		case 'k':
			keep = 1;
			break;
		default:
			fprintf(stderr,
				"usage: offer-flood --count N --length L [--sources K] [--keep]\n");
			return 2;
		}
	}
	if (count < 1 || length < 16 || length > 4000 || sources < 1 || sources > 10000) {
		fprintf(stderr, "offer-flood: bad arguments\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "offer-flood: cannot connect\n");
		return 2;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	if (wl_display_roundtrip(display) < 0 || !manager) {
		fprintf(stderr, "offer-flood: no wl_data_device_manager\n");
		return 2;
	}
	struct wl_data_source **list = calloc((size_t)sources, sizeof(*list));
	char *type = malloc((size_t)length + 1);
	if (!list || !type) {
		return 1;
	}
	for (long i = 0; i < sources; i++) {
		list[i] = wl_data_device_manager_create_data_source(manager);
	}
	memset(type, 'a', (size_t)length);
	type[length] = '\0';
	long offered = 0;
	int status = -1;
	for (; offered < count; offered++) {
		/* Each type is different, as a real flood's would be: nothing to share. */
		int n = snprintf(type, (size_t)length + 1, "x-flood/%ld-", offered);
		type[n] = 'a';
		if (flush(display) < 0) {
			status = report_error(display, offered);
			break;
		}
		wl_data_source_offer(list[offered % sources], type);
	}
	if (status < 0 && (flush(display) < 0 || wl_display_roundtrip(display) < 0)) {
		status = report_error(display, offered);
	}
	if (status < 0) {
		printf("ok offered=%ld\n", offered);
		fflush(stdout);
		status = 0;
	}
	if (status == 0 && keep && wl_display_get_error(display) == 0) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGINT);
		sigprocmask(SIG_BLOCK, &set, NULL);
		int sig;
		sigwait(&set, &sig);
	}
	for (long i = 0; i < sources; i++) {
		wl_data_source_destroy(list[i]);
	}
	free(list);
	free(type);
	wl_data_device_manager_destroy(manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return status;
}
