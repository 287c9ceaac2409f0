/*
 * dnd-snoop: a hostile drop target. It reads a drag's data from every offer it is
 * given, the way an app that only wants to look at what the user drags past it would:
 * on enter, on the first motion, and later (on a click in its window) from the offer
 * of a drag that only passed over it and was dropped elsewhere. It also takes a real
 * drop, as any target does. One line per attempt:
 *
 *   dnd-enter types=A,B       an offer arrived with the pointer
 *   snooped-enter bytes=N     what a receive on enter gave (N = 0: refused)
 *   snooped-motion bytes=N    the same on the first motion
 *   dnd-leave
 *   snooped-stale bytes=N     a receive on the kept offer after the drag ended elsewhere
 *   dropped bytes=N           the drop (data into --out)
 *
 *   --type T     the type to ask for (default text/plain;charset=utf-8)
 *   --out FILE   where the dropped data goes
 */
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct offer {
	struct wl_data_offer *offer;
	char types[512];
};

struct state {
	struct tc_client *client;
	struct wl_data_device_manager *manager;
	struct wl_data_device *device;
	const char *type;
	const char *out_path;
	struct offer *pending; /* announced by data_offer, not yet entered */
	struct offer *current; /* the offer of the drag over us */
	struct offer *stale; /* an offer kept after its drag left */
	bool motion_seen;
};

static void offer_free(struct offer *offer) {
	if (!offer) {
		return;
	}
	wl_data_offer_destroy(offer->offer);
	free(offer);
}

static void handle_offer_offer(void *data, struct wl_data_offer *wl_offer, const char *type) {
	struct offer *offer = data;
	size_t used = strlen(offer->types);
	snprintf(offer->types + used, sizeof(offer->types) - used, "%s%s", used ? "," : "", type);
}

static void handle_offer_source_actions(void *data, struct wl_data_offer *offer, uint32_t actions) {
}

static void handle_offer_action(void *data, struct wl_data_offer *offer, uint32_t action) {
}

static const struct wl_data_offer_listener offer_listener = {
	.offer = handle_offer_offer,
	.source_actions = handle_offer_source_actions,
	.action = handle_offer_action,
};

/*
 * Receives the type from the offer and reads to the end (at most 5 s), dispatching
 * meanwhile. Prints "WORD bytes=N"; out (may be NULL) gets the data.
 */
static void receive(struct state *state, struct offer *offer, const char *word, const char *out) {
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tc_die("pipe: %s", strerror(errno));
	}
	wl_data_offer_receive(offer->offer, state->type, fds[1]);
	close(fds[1]);
	int out_fd = -1;
	if (out) {
		out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (out_fd < 0) {
			tc_die("%s: %s", out, strerror(errno));
		}
	}
	long total = 0;
	char buffer[4096];
	int display_fd = wl_display_get_fd(state->client->display);
	for (;;) {
		struct pollfd pfds[2] = {{fds[0], POLLIN, 0}, {display_fd, POLLIN, 0}};
		wl_display_flush(state->client->display);
		if (poll(pfds, 2, 5000) <= 0) {
			tc_print("%s-timeout bytes=%ld", word, total);
			break;
		}
		if ((pfds[1].revents & POLLIN) && wl_display_dispatch(state->client->display) < 0) {
			break;
		}
		if (!(pfds[0].revents & (POLLIN | POLLHUP))) {
			continue;
		}
		ssize_t n = read(fds[0], buffer, sizeof(buffer));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		if (out_fd >= 0 && write(out_fd, buffer, (size_t)n) != n) {
			tc_die("write: %s", strerror(errno));
		}
		total += n;
	}
	if (out_fd >= 0) {
		close(out_fd);
	}
	close(fds[0]);
	tc_print("%s bytes=%ld", word, total);
}

static void handle_device_data_offer(
	void *data, struct wl_data_device *device, struct wl_data_offer *wl_offer) {
	struct state *state = data;
	struct offer *offer = calloc(1, sizeof(*offer));
	if (!offer) {
		tc_die("out of memory");
	}
	offer->offer = wl_offer;
	wl_data_offer_add_listener(wl_offer, &offer_listener, offer);
	offer_free(state->pending);
	state->pending = offer;
}

static void handle_device_enter(void *data, struct wl_data_device *device, uint32_t serial,
	struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y, struct wl_data_offer *wl_offer) {
	struct state *state = data;
	offer_free(state->current);
	state->current = NULL;
	if (wl_offer && state->pending && state->pending->offer == wl_offer) {
		state->current = state->pending;
		state->pending = NULL;
	}
	state->motion_seen = false;
	tc_print("dnd-enter types=%s", state->current ? state->current->types : "");
	if (!state->current) {
		return;
	}
	/* As a real target: accept, so that a drop can happen here. */
	wl_data_offer_accept(state->current->offer, serial, state->type);
	wl_data_offer_set_actions(state->current->offer, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY,
		WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	/* The attack: the data, now, with no drop. */
	receive(state, state->current, "snooped-enter", NULL);
}

static void handle_device_motion(
	void *data, struct wl_data_device *device, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	struct state *state = data;
	if (state->motion_seen || !state->current) {
		return;
	}
	state->motion_seen = true;
	receive(state, state->current, "snooped-motion", NULL);
}

static void handle_device_leave(void *data, struct wl_data_device *device) {
	struct state *state = data;
	tc_print("dnd-leave");
	/* Kept, not destroyed: its source lives on until the drop elsewhere is finished. */
	offer_free(state->stale);
	state->stale = state->current;
	state->current = NULL;
}

static void handle_device_drop(void *data, struct wl_data_device *device) {
	struct state *state = data;
	if (!state->current) {
		tc_print("dropped bytes=0 (no offer)");
		return;
	}
	receive(state, state->current, "dropped", state->out_path);
	wl_data_offer_finish(state->current->offer);
	offer_free(state->current);
	state->current = NULL;
}

static void handle_device_selection(
	void *data, struct wl_data_device *device, struct wl_data_offer *wl_offer) {
	struct state *state = data;
	/* A selection offer is not what this client attacks. */
	if (wl_offer && state->pending && state->pending->offer == wl_offer) {
		offer_free(state->pending);
		state->pending = NULL;
	}
}

static const struct wl_data_device_listener device_listener = {
	.data_offer = handle_device_data_offer,
	.enter = handle_device_enter,
	.leave = handle_device_leave,
	.motion = handle_device_motion,
	.drop = handle_device_drop,
	.selection = handle_device_selection,
};

static void handle_button(
	struct tc_input *input, uint32_t serial, uint32_t button, uint32_t button_state) {
	struct state *state = input->data;
	if (button_state == WL_POINTER_BUTTON_STATE_PRESSED && state->stale) {
		receive(state, state->stale, "snooped-stale", NULL);
	}
}

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wl_data_device_manager_interface.name) == 0) {
		state->manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface,
			version < 3 ? version : 3);
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
		{"type", required_argument, NULL, 'T'},
		{"out", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "dnd-snoop",
		.width = 200,
		.height = 400,
		.timeout = 120,
	};
	struct state state = {.type = "text/plain;charset=utf-8"};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'T':
			state.type = optarg;
			break;
		case 'o':
			state.out_path = optarg;
			break;
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				tc_die("usage: dnd-snoop [--app-id ID] [--type T] [--out FILE]");
			}
		}
	}
	signal(SIGPIPE, SIG_IGN);
	struct tc_client *client = tc_client_connect();
	state.client = client;
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	wl_display_roundtrip(client->display);
	if (!client->seat || !state.manager) {
		tc_die("the compositor offers no wl_seat or wl_data_device_manager");
	}
	state.device = wl_data_device_manager_get_data_device(state.manager, client->seat);
	wl_data_device_add_listener(state.device, &device_listener, &state);
	struct tc_input *input = tc_input_create(client, false);
	input->on_button = handle_button;
	input->data = &state;
	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, 0xff603020);

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, ret);
	offer_free(state.pending);
	offer_free(state.current);
	offer_free(state.stale);
	wl_data_device_release(state.device);
	tc_toplevel_destroy(toplevel);
	tc_input_destroy(input);
	wl_data_device_manager_destroy(state.manager);
	wl_registry_destroy(registry);
	tc_client_destroy(client);
	return code;
}
