/*
 * x11-display-client: cordon-run's request for an X display, alone, with the arguments a
 * hostile or broken launcher might send. Binds cordon_x11_manager_v1 and sends
 * create_display(--app-id, --instance, close_fd) --count times (default once).
 *
 *   --close-kind K      what close_fd is: pipe (default; we keep its write end) or file
 *   --destroy-object    destroy each cordon_x11_display_v1 at once after its answer
 *
 * Prints "no-manager" (exit 1) when the global is not there, then for each display
 * "ready PATH N" or "failed REASON", or "protocol-error interface=I code=C" (exit 1). Then
 * it stays connected: SIGUSR1 closes the write ends of every close_fd (prints
 * "close-fd-closed"), SIGTERM ends it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"
#include "cordon-x11-v1-client-protocol.h"

#define MAX_DISPLAYS 64

struct state {
	struct wl_display *display;
	struct cordon_x11_manager_v1 *manager;
	int close_write_fds[MAX_DISPLAYS];
	struct cordon_x11_display_v1 *displays[MAX_DISPLAYS]; /* NULL once destroyed */
	int count;
	bool answered;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, cordon_x11_manager_v1_interface.name) == 0 && !state->manager) {
		state->manager =
			wl_registry_bind(registry, name, &cordon_x11_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_ready(
	void *data, struct cordon_x11_display_v1 *display, const char *path, int32_t number) {
	struct state *state = data;
	tc_print("ready %s %d", path, number);
	state->answered = true;
}

static void handle_failed(void *data, struct cordon_x11_display_v1 *display, const char *reason) {
	struct state *state = data;
	tc_print("failed %s", reason);
	state->answered = true;
}

static const struct cordon_x11_display_v1_listener display_listener = {
	.ready = handle_ready,
	.failed = handle_failed,
};

static void check_connection(struct state *state, int result) {
	if (result >= 0) {
		return;
	}
	int error = wl_display_get_error(state->display);
	if (error == EPROTO) {
		const struct wl_interface *interface;
		uint32_t id;
		uint32_t code = wl_display_get_protocol_error(state->display, &interface, &id);
		tc_print("protocol-error interface=%s code=%u",
			interface ? interface->name : "unknown", code);
	} else {
		tc_print("disconnected errno=%d", error);
	}
	exit(TC_EXIT_FAIL);
}

/* The close_fd to send, and (for a pipe) the end we keep in close_write_fds. */
static int make_close_fd(struct state *state, const char *kind) {
	if (strcmp(kind, "file") == 0) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			tc_die("/dev/null: %s", strerror(errno));
		}
		return fd;
	}
	if (strcmp(kind, "pipe") != 0) {
		tc_die("unknown --close-kind %s", kind);
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tc_die("pipe: %s", strerror(errno));
	}
	state->close_write_fds[state->count] = fds[1];
	return fds[0];
}

static int serve(struct state *state) {
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0) {
		tc_die("signalfd: %s", strerror(errno));
	}
	for (;;) {
		check_connection(state, wl_display_flush(state->display));
		struct pollfd fds[2] = {
			{.fd = wl_display_get_fd(state->display), .events = POLLIN},
			{.fd = sfd, .events = POLLIN},
		};
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR) {
				continue;
			}
			tc_die("poll: %s", strerror(errno));
		}
		if (fds[0].revents) {
			check_connection(state, wl_display_dispatch(state->display));
		}
		if (!fds[1].revents) {
			continue;
		}
		struct signalfd_siginfo info;
		if (read(sfd, &info, sizeof(info)) != sizeof(info)) {
			continue;
		}
		if (info.ssi_signo != SIGUSR1) {
			return TC_EXIT_OK;
		}
		for (int i = 0; i < state->count; i++) {
			if (state->close_write_fds[i] >= 0) {
				close(state->close_write_fds[i]);
				state->close_write_fds[i] = -1;
			}
		}
		tc_print("close-fd-closed");
	}
}

int main(int argc, char **argv) {
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	static const struct option options[] = {
		{"app-id", required_argument, NULL, 'a'},
		{"instance", required_argument, NULL, 'i'},
		{"close-kind", required_argument, NULL, 'c'},
		{"count", required_argument, NULL, 'n'},
		{"destroy-object", no_argument, NULL, 'd'},
		{0},
	};
	const char *app_id = "org.example.X", *instance = "1", *close_kind = "pipe";
	int count = 1;
	bool destroy_object = false;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'a':
			app_id = optarg;
			break;
		case 'i':
			instance = optarg;
			break;
		case 'c':
			close_kind = optarg;
			break;
		case 'n':
			count = tc_parse_int("--count", optarg, 1, MAX_DISPLAYS);
			break;
		case 'd':
			destroy_object = true;
			break;
		default:
			tc_die("usage: x11-display-client [--app-id S] [--instance S] [--close-kind "
			       "pipe|file] [--count N] [--destroy-object]");
		}
	}
	struct state state = {0};
	for (int i = 0; i < MAX_DISPLAYS; i++) {
		state.close_write_fds[i] = -1;
	}
	state.display = wl_display_connect(NULL);
	if (!state.display) {
		tc_die("cannot connect to the Wayland display");
	}
	struct wl_registry *registry = wl_display_get_registry(state.display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	check_connection(&state, wl_display_roundtrip(state.display));
	if (!state.manager) {
		tc_print("no-manager");
		return TC_EXIT_FAIL;
	}
	for (int i = 0; i < count; i++) {
		int close_fd = make_close_fd(&state, close_kind);
		struct cordon_x11_display_v1 *display = cordon_x11_manager_v1_create_display(
			state.manager, app_id, instance, close_fd);
		close(close_fd);
		state.count++;
		cordon_x11_display_v1_add_listener(display, &display_listener, &state);
		state.answered = false;
		while (!state.answered) {
			check_connection(&state, wl_display_dispatch(state.display));
		}
		if (destroy_object) {
			cordon_x11_display_v1_destroy(display);
			display = NULL;
		}
		state.displays[i] = display;
	}
	int code = serve(&state);
	for (int i = 0; i < state.count; i++) {
		if (state.displays[i]) {
			cordon_x11_display_v1_destroy(state.displays[i]);
		}
	}
	cordon_x11_manager_v1_destroy(state.manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(state.display);
	return code;
}
