/*
 * storm-client: opens COUNT connections at once (every connect before any round trip),
 * then on each a wl_registry and one round trip, and keeps them all open until SIGTERM.
 * Prints "storm count=N us=T" (from the first connect to the last round trip) and
 * "ready". --display NAME connects there instead of $WAYLAND_DISPLAY.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"

static int64_t now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv) {
	static const struct option options[] = {
		{"count", required_argument, NULL, 'c'},
		{"display", required_argument, NULL, 'd'},
		{0},
	};
	int count = 100;
	const char *name = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			count = tc_parse_int("--count", optarg, 1, 4000);
			break;
		case 'd':
			name = optarg;
			break;
		default:
			tc_die("usage: storm-client [--count N] [--display NAME]");
		}
	}
	struct wl_display **displays = calloc((size_t)count, sizeof(*displays));
	struct wl_registry **registries = calloc((size_t)count, sizeof(*registries));
	if (!displays || !registries) {
		tc_die("out of memory");
	}
	int64_t start = now_us();
	for (int i = 0; i < count; i++) {
		displays[i] = wl_display_connect(name);
		if (!displays[i]) {
			tc_die("connection %d of %d failed", i + 1, count);
		}
	}
	for (int i = 0; i < count; i++) {
		registries[i] = wl_display_get_registry(displays[i]);
		wl_display_flush(displays[i]);
	}
	for (int i = 0; i < count; i++) {
		if (wl_display_roundtrip(displays[i]) < 0) {
			tc_die("round trip %d of %d failed", i + 1, count);
		}
	}
	int64_t elapsed = now_us() - start;
	tc_print("storm count=%d us=%lld", count, (long long)elapsed);
	tc_print("ready");

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sig;
	sigwait(&set, &sig);
	for (int i = 0; i < count; i++) {
		wl_registry_destroy(registries[i]);
		wl_display_disconnect(displays[i]);
	}
	free(registries);
	free(displays);
	return TC_EXIT_OK;
}
