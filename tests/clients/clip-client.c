/*
 * clip-client: a window that copies or pastes when a key is pressed in it,
 * for the mediation tests. Prints "keyboard-enter", "key serial=N",
 * "selection types=A,B" (or "selection none") for each selection event,
 * "copied serial=N", "source-cancelled", "source-send type=T",
 * "pasted bytes=N", "paste-none" and, with --frames, "frames=N" every 10 frames.
 * "reader-pipe ino=N" and "source-pipe ino=N" name the pipe each side holds: the
 * same inode means the reader's fd reached the source itself.
 *
 *   --copy TEXT          on a key press, offer TEXT (set_selection with the key's serial)
 *   --copy-on-enter      set the selection with the keyboard-enter serial instead (refused
 *                        for a sandbox: an enter is not user input)
 *   --copy-type T        offer type T (repeatable; default text/plain;charset=utf-8, text/plain)
 *   --copy-endless       serve endless data (for the size limit)
 *   --copy-die-after N   write N bytes of the text then exit without closing properly
 *   --paste TYPE         on a key press, receive TYPE from the current offer into --out
 *                        (and print "pasted-us=N": microseconds from the receive to the end)
 *   --paste-on-offer     with --paste: receive as soon as an offer arrives, as a clipboard
 *                        snooper does, not on a key press
 *   --out FILE           where pasted data goes (default: discard, count only)
 *   --no-read            receive, but never read the pipe (a stuck reader)
 *   --primary            the primary selection instead of the clipboard
 *   --frames             redraw on every frame callback
 *   --drag TEXT          on a button press, start a drag of TEXT from this window (its press
 *                        serial); prints "drag-started", "source-target type=T",
 *                        "dnd-drop-performed", "dnd-finished"
 *   --drag-on-key        start the drag on a key press instead (no button down: refused)
 *   --drop TYPE          accept drops of TYPE: prints "dnd-enter types=A,B", "dnd-leave",
 *                        "dnd-motion", "dropped bytes=N" (data into --out)
 */
#include "common.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_TYPES 8

struct offer {
	struct wl_data_offer *offer;
	struct zwp_primary_selection_offer_v1 *primary;
	char types[512];
};

struct state {
	struct tc_client *client;
	struct tc_toplevel *toplevel;
	struct wl_data_device_manager *manager;
	struct wl_data_device *device;
	struct zwp_primary_selection_device_manager_v1 *primary_manager;
	struct zwp_primary_selection_device_v1 *primary_device;
	struct wl_keyboard *keyboard;
	bool primary;

	const char *copy_text;
	const char *copy_types[MAX_TYPES];
	int copy_type_count;
	bool copy_on_enter, copy_endless;
	long copy_die_after;
	struct wl_data_source *source;
	struct zwp_primary_selection_source_v1 *primary_source;

	const char *paste_type;
	bool paste_on_offer;
	const char *out_path;
	bool no_read;
	struct offer *current; /* the selection now offered, or NULL */
	/* Offers announced, not yet the selection: [0] clipboard, [1] primary. */
	struct offer *pending[2];
	int stuck_fds[64];
	int stuck_count;

	bool frames;
	unsigned frame_count;

	const char *drag_text;
	bool drag_on_key;
	struct wl_data_source *drag_source;
	const char *drop_type;
	struct offer *dnd_offer;
	uint32_t dnd_serial;
	bool dnd_motion_seen;
};

static void serve(struct state *state, int fd) {
	/* Blocking writes: the test clients are the slow side, never cordon. */
	int flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	size_t len = strlen(state->copy_text);
	long written = 0;
	for (;;) {
		if (state->copy_die_after > 0 && written >= state->copy_die_after) {
			tc_print("dying mid-transfer");
			_exit(0);
		}
		size_t chunk = len;
		if (state->copy_die_after > 0 && written + (long)chunk > state->copy_die_after) {
			chunk = (size_t)(state->copy_die_after - written);
		}
		ssize_t n = write(fd, state->copy_text, chunk);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		written += n;
		if (!state->copy_endless && state->copy_die_after <= 0) {
			break;
		}
	}
	close(fd);
}

/* The pipe's inode: the same on both sides only when the reader's fd came straight here. */
static unsigned long long pipe_inode(int fd) {
	struct stat st;
	return fstat(fd, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

static void handle_source_send(
	void *data, struct wl_data_source *source, const char *type, int32_t fd) {
	struct state *state = data;
	tc_print("source-send type=%s", type);
	tc_print("source-pipe ino=%llu", pipe_inode(fd));
	serve(state, fd);
}

static void handle_source_cancelled(void *data, struct wl_data_source *source) {
	struct state *state = data;
	tc_print("source-cancelled");
	wl_data_source_destroy(source);
	if (state->source == source) {
		state->source = NULL;
	}
	if (state->drag_source == source) {
		state->drag_source = NULL;
	}
}

static void handle_source_target(void *data, struct wl_data_source *source, const char *type) {
	tc_print("source-target type=%s", type ? type : "(none)");
}

static void handle_source_dnd_drop_performed(void *data, struct wl_data_source *source) {
	tc_print("dnd-drop-performed");
}

static void handle_source_dnd_finished(void *data, struct wl_data_source *source) {
	struct state *state = data;
	tc_print("dnd-finished");
	if (state->drag_source == source) {
		state->drag_source = NULL;
	}
	wl_data_source_destroy(source);
}

static void handle_source_action(void *data, struct wl_data_source *source, uint32_t action) {
}

static const struct wl_data_source_listener source_listener = {
	.target = handle_source_target,
	.send = handle_source_send,
	.cancelled = handle_source_cancelled,
	.dnd_drop_performed = handle_source_dnd_drop_performed,
	.dnd_finished = handle_source_dnd_finished,
	.action = handle_source_action,
};

static void start_drag(struct state *state, uint32_t serial) {
	struct wl_data_source *source = wl_data_device_manager_create_data_source(state->manager);
	wl_data_source_add_listener(source, &source_listener, state);
	for (int i = 0; i < state->copy_type_count; i++) {
		wl_data_source_offer(source, state->copy_types[i]);
	}
	wl_data_source_set_actions(source, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	state->copy_text = state->drag_text;
	state->drag_source = source;
	wl_data_device_start_drag(state->device, source, state->toplevel->surface, NULL, serial);
	tc_print("drag-started serial=%u", serial);
}

static void handle_primary_source_send(
	void *data, struct zwp_primary_selection_source_v1 *source, const char *type, int32_t fd) {
	tc_print("source-send type=%s", type);
	tc_print("source-pipe ino=%llu", pipe_inode(fd));
	serve(data, fd);
}

static void handle_primary_source_cancelled(
	void *data, struct zwp_primary_selection_source_v1 *source) {
	struct state *state = data;
	tc_print("source-cancelled");
	zwp_primary_selection_source_v1_destroy(source);
	if (state->primary_source == source) {
		state->primary_source = NULL;
	}
}

static const struct zwp_primary_selection_source_v1_listener primary_source_listener = {
	.send = handle_primary_source_send,
	.cancelled = handle_primary_source_cancelled,
};

static void copy(struct state *state, uint32_t serial) {
	if (state->primary) {
		state->primary_source = zwp_primary_selection_device_manager_v1_create_source(
			state->primary_manager);
		zwp_primary_selection_source_v1_add_listener(
			state->primary_source, &primary_source_listener, state);
		for (int i = 0; i < state->copy_type_count; i++) {
			zwp_primary_selection_source_v1_offer(
				state->primary_source, state->copy_types[i]);
		}
		zwp_primary_selection_device_v1_set_selection(
			state->primary_device, state->primary_source, serial);
	} else {
		state->source = wl_data_device_manager_create_data_source(state->manager);
		wl_data_source_add_listener(state->source, &source_listener, state);
		for (int i = 0; i < state->copy_type_count; i++) {
			wl_data_source_offer(state->source, state->copy_types[i]);
		}
		wl_data_device_set_selection(state->device, state->source, serial);
	}
	tc_print("copied serial=%u", serial);
}

/* Paste */

static void offer_free(struct offer *offer) {
	if (!offer) {
		return;
	}
	if (offer->offer) {
		wl_data_offer_destroy(offer->offer);
	}
	if (offer->primary) {
		zwp_primary_selection_offer_v1_destroy(offer->primary);
	}
	free(offer);
}

static void offer_add_type(struct offer *offer, const char *type) {
	size_t used = strlen(offer->types);
	snprintf(offer->types + used, sizeof(offer->types) - used, "%s%s", used ? "," : "", type);
}

static void handle_offer_offer(void *data, struct wl_data_offer *wl_offer, const char *type) {
	offer_add_type(data, type);
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

static void handle_primary_offer_offer(
	void *data, struct zwp_primary_selection_offer_v1 *o, const char *type) {
	offer_add_type(data, type);
}

static const struct zwp_primary_selection_offer_v1_listener primary_offer_listener = {
	.offer = handle_primary_offer_offer,
};

static void new_offer(struct state *state, struct wl_data_offer *wl_offer,
	struct zwp_primary_selection_offer_v1 *primary) {
	struct offer *offer = calloc(1, sizeof(*offer));
	if (!offer) {
		tc_die("out of memory");
	}
	offer->offer = wl_offer;
	offer->primary = primary;
	if (wl_offer) {
		wl_data_offer_add_listener(wl_offer, &offer_listener, offer);
	} else {
		zwp_primary_selection_offer_v1_add_listener(
			primary, &primary_offer_listener, offer);
	}
	int kind = primary != NULL;
	offer_free(state->pending[kind]);
	state->pending[kind] = offer;
}

static void paste(struct state *state);

static void set_selection(struct state *state, bool primary, bool some) {
	int kind = primary;
	if (primary != state->primary) {
		/* The other kind of selection: not what this client reports on. */
		offer_free(state->pending[kind]);
		state->pending[kind] = NULL;
		return;
	}
	offer_free(state->current);
	state->current = some ? state->pending[kind] : NULL;
	state->pending[kind] = NULL;
	if (state->current) {
		tc_print("selection types=%s", state->current->types);
		if (state->paste_on_offer) {
			paste(state);
		}
	} else {
		tc_print("selection none");
	}
}

static void handle_device_data_offer(
	void *data, struct wl_data_device *device, struct wl_data_offer *offer) {
	new_offer(data, offer, NULL);
}

static void handle_device_selection(
	void *data, struct wl_data_device *device, struct wl_data_offer *offer) {
	set_selection(data, false, offer != NULL);
}

static void read_to_end(struct state *state, int fd, const char *done_word);

static bool offer_has_type(const struct offer *offer, const char *type) {
	size_t len = strlen(type);
	const char *p = offer->types;
	while (*p) {
		if (strncmp(p, type, len) == 0 && (p[len] == ',' || p[len] == '\0')) {
			return true;
		}
		p = strchr(p, ',');
		if (!p) {
			break;
		}
		p++;
	}
	return false;
}

static void handle_device_enter(void *data, struct wl_data_device *device, uint32_t serial,
	struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y, struct wl_data_offer *offer) {
	struct state *state = data;
	offer_free(state->dnd_offer);
	state->dnd_offer = NULL;
	if (offer && state->pending[0] && state->pending[0]->offer == offer) {
		state->dnd_offer = state->pending[0];
		state->pending[0] = NULL;
	}
	state->dnd_serial = serial;
	state->dnd_motion_seen = false;
	tc_print("dnd-enter types=%s", state->dnd_offer ? state->dnd_offer->types : "");
	if (!state->dnd_offer || !state->drop_type) {
		return;
	}
	bool ok = offer_has_type(state->dnd_offer, state->drop_type);
	wl_data_offer_accept(state->dnd_offer->offer, serial, ok ? state->drop_type : NULL);
	wl_data_offer_set_actions(state->dnd_offer->offer, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY,
		WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
}

static void handle_device_leave(void *data, struct wl_data_device *device) {
	struct state *state = data;
	tc_print("dnd-leave");
	offer_free(state->dnd_offer);
	state->dnd_offer = NULL;
}

static void handle_device_motion(
	void *data, struct wl_data_device *device, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	struct state *state = data;
	if (!state->dnd_motion_seen) {
		state->dnd_motion_seen = true;
		tc_print("dnd-motion");
	}
}

static void handle_device_drop(void *data, struct wl_data_device *device) {
	struct state *state = data;
	if (!state->dnd_offer || !state->drop_type) {
		tc_print("dropped bytes=0 (no offer)");
		return;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tc_die("pipe: %s", strerror(errno));
	}
	wl_data_offer_receive(state->dnd_offer->offer, state->drop_type, fds[1]);
	close(fds[1]);
	read_to_end(state, fds[0], "dropped");
	if (wl_data_offer_get_version(state->dnd_offer->offer) >=
		WL_DATA_OFFER_FINISH_SINCE_VERSION) {
		wl_data_offer_finish(state->dnd_offer->offer);
	}
	offer_free(state->dnd_offer);
	state->dnd_offer = NULL;
}

static const struct wl_data_device_listener device_listener = {
	.data_offer = handle_device_data_offer,
	.enter = handle_device_enter,
	.leave = handle_device_leave,
	.motion = handle_device_motion,
	.drop = handle_device_drop,
	.selection = handle_device_selection,
};

static void handle_primary_device_data_offer(void *data,
	struct zwp_primary_selection_device_v1 *device,
	struct zwp_primary_selection_offer_v1 *offer) {
	new_offer(data, NULL, offer);
}

static void handle_primary_device_selection(void *data,
	struct zwp_primary_selection_device_v1 *device,
	struct zwp_primary_selection_offer_v1 *offer) {
	set_selection(data, true, offer != NULL);
}

static const struct zwp_primary_selection_device_v1_listener primary_device_listener = {
	.data_offer = handle_primary_device_data_offer,
	.selection = handle_primary_device_selection,
};

static void paste(struct state *state) {
	if (!state->current) {
		tc_print("paste-none");
		return;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		tc_die("pipe: %s", strerror(errno));
	}
	if (state->current->offer) {
		wl_data_offer_receive(state->current->offer, state->paste_type, fds[1]);
	} else {
		zwp_primary_selection_offer_v1_receive(
			state->current->primary, state->paste_type, fds[1]);
	}
	tc_print("reader-pipe ino=%llu", pipe_inode(fds[0]));
	close(fds[1]);
	wl_display_flush(state->client->display);
	if (state->no_read) {
		if (state->stuck_count < 64) {
			state->stuck_fds[state->stuck_count++] = fds[0];
		}
		tc_print("receiving, not reading");
		return;
	}
	read_to_end(state, fds[0], "pasted");
}

/*
 * Reads to the end while still dispatching, since the source may be this
 * client's own (same-app copy and paste). Prints "WORD bytes=N".
 */
static void read_to_end(struct state *state, int fd, const char *done_word) {
	int fds[1] = {fd};
	int out = -1;
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (state->out_path) {
		out = open(state->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (out < 0) {
			tc_die("%s: %s", state->out_path, strerror(errno));
		}
	}
	long total = 0;
	char buffer[65536];
	int display_fd = wl_display_get_fd(state->client->display);
	for (;;) {
		struct pollfd pfds[2] = {{fds[0], POLLIN, 0}, {display_fd, POLLIN, 0}};
		wl_display_flush(state->client->display);
		if (poll(pfds, 2, 20000) <= 0) {
			tc_print("paste-timeout bytes=%ld", total);
			break;
		}
		if (pfds[1].revents & POLLIN) {
			if (wl_display_dispatch(state->client->display) < 0) {
				break;
			}
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
		if (out >= 0 && write(out, buffer, (size_t)n) != n) {
			tc_die("write: %s", strerror(errno));
		}
		total += n;
	}
	if (out >= 0) {
		close(out);
	}
	close(fds[0]);
	clock_gettime(CLOCK_MONOTONIC, &end);
	tc_print("%s bytes=%ld", done_word, total);
	/* For bench numbers: from the receive request to the end of the data. */
	tc_print("%s-us=%lld", done_word,
		(long long)(end.tv_sec - start.tv_sec) * 1000000 +
			(end.tv_nsec - start.tv_nsec) / 1000);
}

/* Keyboard */

static void handle_keymap(
	void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
}

static void handle_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	struct wl_surface *surface, struct wl_array *keys) {
	struct state *state = data;
	tc_print("keyboard-enter");
	if (state->copy_on_enter && state->copy_text) {
		copy(state, serial);
	}
}

static void handle_leave(
	void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
	tc_print("keyboard-leave");
}

static void handle_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t key_state) {
	struct state *state = data;
	if (key_state != WL_KEYBOARD_KEY_STATE_PRESSED) {
		return;
	}
	tc_print("key serial=%u", serial);
	if (state->drag_text && state->drag_on_key) {
		start_drag(state, serial);
		return;
	}
	if (state->copy_text && !state->copy_on_enter) {
		copy(state, serial);
	}
	if (state->paste_type && !state->paste_on_offer) {
		paste(state);
	}
}

static void handle_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
	uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group) {
}

static void handle_repeat_info(
	void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = handle_keymap,
	.enter = handle_enter,
	.leave = handle_leave,
	.key = handle_key,
	.modifiers = handle_modifiers,
	.repeat_info = handle_repeat_info,
};

/* Frames */

static void request_frame(struct state *state);

static void handle_frame_done(void *data, struct wl_callback *callback, uint32_t time) {
	struct state *state = data;
	wl_callback_destroy(callback);
	if (++state->frame_count % 10 == 0) {
		tc_print("frames=%u", state->frame_count);
	}
	request_frame(state);
}

static const struct wl_callback_listener frame_listener = {
	.done = handle_frame_done,
};

static void request_frame(struct state *state) {
	struct tc_toplevel *toplevel = state->toplevel;
	struct wl_callback *callback = wl_surface_frame(toplevel->surface);
	wl_callback_add_listener(callback, &frame_listener, state);
	struct wl_buffer *buffer = tc_buffer_create(state->client, toplevel->width,
		toplevel->height, (state->frame_count & 1) ? 0xff204060 : 0xff604020);
	wl_surface_attach(toplevel->surface, buffer, 0, 0);
	wl_surface_damage(toplevel->surface, 0, 0, toplevel->width, toplevel->height);
	wl_surface_commit(toplevel->surface);
}

/* Set-up */

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wl_data_device_manager_interface.name) == 0) {
		state->manager = wl_registry_bind(registry, name, &wl_data_device_manager_interface,
			version < 3 ? version : 3);
	} else if (strcmp(interface, zwp_primary_selection_device_manager_v1_interface.name) == 0) {
		state->primary_manager = wl_registry_bind(
			registry, name, &zwp_primary_selection_device_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_button(
	struct tc_input *input, uint32_t serial, uint32_t button, uint32_t button_state) {
	struct state *state = input->data;
	if (state->drag_text && !state->drag_on_key &&
		button_state == WL_POINTER_BUTTON_STATE_PRESSED) {
		start_drag(state, serial);
	}
}

static void usage(void) {
	tc_die("usage: clip-client [--app-id ID] [--copy TEXT [--copy-type T]... [--copy-on-enter]\n"
	       "       [--copy-endless] [--copy-die-after N]]\n"
	       "       [--paste TYPE [--paste-on-offer] [--out FILE] [--no-read]]\n"
	       "       [--primary] [--frames] [--drag TEXT [--drag-on-key]] [--drop TYPE]\n"
	       "       [--timeout SECONDS]");
}

int main(int argc, char *argv[]) {
	static const struct option options[] = {
		TC_WINDOW_LONG_OPTIONS,
		{"copy", required_argument, NULL, 'c'},
		{"copy-type", required_argument, NULL, 'T'},
		{"copy-on-enter", no_argument, NULL, 'E'},
		{"copy-endless", no_argument, NULL, 'L'},
		{"copy-die-after", required_argument, NULL, 'D'},
		{"paste", required_argument, NULL, 'p'},
		{"paste-on-offer", no_argument, NULL, 'O'},
		{"out", required_argument, NULL, 'o'},
		{"no-read", no_argument, NULL, 'N'},
		{"primary", no_argument, NULL, 'P'},
		{"frames", no_argument, NULL, 'F'},
		{"drag", required_argument, NULL, 'g'},
		{"drag-on-key", no_argument, NULL, 'k'},
		{"drop", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	struct tc_window_options window = {
		.app_id = "clip-client",
		.width = 300,
		.height = 200,
		.timeout = 120,
	};
	struct state state = {0};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			state.copy_text = optarg;
			break;
		case 'T':
			if (state.copy_type_count == MAX_TYPES) {
				usage();
			}
			state.copy_types[state.copy_type_count++] = optarg;
			break;
		case 'E':
			state.copy_on_enter = true;
			break;
		case 'L':
			state.copy_endless = true;
			break;
		case 'D':
			state.copy_die_after = tc_parse_int("--copy-die-after", optarg, 1, 1 << 30);
			break;
		case 'p':
			state.paste_type = optarg;
			break;
		case 'O':
			state.paste_on_offer = true;
			break;
		case 'o':
			state.out_path = optarg;
			break;
		case 'N':
			state.no_read = true;
			break;
		case 'P':
			state.primary = true;
			break;
		case 'F':
			state.frames = true;
			break;
		case 'g':
			state.drag_text = optarg;
			break;
		case 'k':
			state.drag_on_key = true;
			break;
		case 'r':
			state.drop_type = optarg;
			break;
		default:
			if (!tc_window_option(opt, optarg, &window)) {
				usage();
			}
		}
	}
	if (optind != argc || (state.paste_on_offer && !state.paste_type)) {
		usage();
	}
	if (state.copy_type_count == 0) {
		state.copy_types[state.copy_type_count++] = "text/plain;charset=utf-8";
		state.copy_types[state.copy_type_count++] = "text/plain";
	}
	/* A reader that went away is an EPIPE for the writer, not its death. */
	signal(SIGPIPE, SIG_IGN);

	struct tc_client *client = tc_client_connect();
	state.client = client;
	struct wl_registry *registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	wl_display_roundtrip(client->display);
	if (!client->seat || !state.manager) {
		tc_die("the compositor offers no wl_seat or wl_data_device_manager");
	}
	if (state.primary && !state.primary_manager) {
		tc_die("the compositor offers no zwp_primary_selection_device_manager_v1");
	}
	state.device = wl_data_device_manager_get_data_device(state.manager, client->seat);
	wl_data_device_add_listener(state.device, &device_listener, &state);
	if (state.primary_manager) {
		state.primary_device = zwp_primary_selection_device_manager_v1_get_device(
			state.primary_manager, client->seat);
		zwp_primary_selection_device_v1_add_listener(
			state.primary_device, &primary_device_listener, &state);
	}
	struct tc_input *input = tc_input_create(client, false);
	input->on_button = handle_button;
	input->data = &state;
	state.keyboard = wl_seat_get_keyboard(client->seat);
	wl_keyboard_add_listener(state.keyboard, &keyboard_listener, &state);
	state.toplevel =
		tc_toplevel_create(client, window.app_id, window.width, window.height, 0xff406080);
	if (state.frames) {
		wl_display_roundtrip(client->display);
		request_frame(&state);
	}

	int ret = tc_run(client, tc_timeout_ms(window.timeout));
	int code = tc_exit_code(client, ret);
	for (int i = 0; i < state.stuck_count; i++) {
		close(state.stuck_fds[i]);
	}
	offer_free(state.current);
	offer_free(state.dnd_offer);
	if (state.drag_source) {
		wl_data_source_destroy(state.drag_source);
	}
	offer_free(state.pending[0]);
	offer_free(state.pending[1]);
	if (state.source) {
		wl_data_source_destroy(state.source);
	}
	if (state.primary_source) {
		zwp_primary_selection_source_v1_destroy(state.primary_source);
	}
	wl_keyboard_destroy(state.keyboard);
	wl_data_device_destroy(state.device);
	if (state.primary_device) {
		zwp_primary_selection_device_v1_destroy(state.primary_device);
	}
	tc_toplevel_destroy(state.toplevel);
	tc_input_destroy(input);
	wl_registry_destroy(registry);
	tc_client_destroy(client);
	return code;
}
