/*
 * The in-process cordon of the Wayland fuzzer (wayland_cordon.h). Made as the wlcs module
 * makes it (tests/wlcs/cordon_wlcs.c), but turned by hand from the fuzzer's one thread: no
 * compositor thread, so an input replays the same way each time. It lives in a scratch
 * folder of its own (config, policy, HOME, the XDG folders, and the runtime folder with its
 * sockets; removed at exit) and a session bus of its own (wayland_bus.c) with the real
 * document portal, so that files cross boundaries as grants and no request reaches the
 * user's desktop; its config binds no key to a command, so that no key the fuzzer types
 * starts a program.
 */
#include "wayland_cordon.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/file_grants.h"
#include "compositor/ipc.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/selection.h"
#include "compositor/selection_policy.h"
#include "compositor/server.h"
#include "compositor/transfer_log.h"
#include "compositor/view.h"
#include "wayland_bus.h"
#include "wayland_client.h"
#include "wayland_files.h"

/* How many turns of the event loop a connection or a round trip may take at start-up. */
#define SETUP_TURNS 2000
/* And a control request's answer (cordon answers on the turn that reads the request). */
#define CONTROL_TURNS 64
/* How long cordon may take to hear from the document portal at start-up (10 ms turns). */
#define GRANTS_TURNS 2000

struct fuzz_cordon {
	struct cordon_server *server;
	struct fuzz_bus *bus;
	char dir[256];
	struct sockaddr_un listeners[FUZZ_SANDBOX_COUNT];
	socklen_t listener_lengths[FUZZ_SANDBOX_COUNT];
	/* The listeners' close fds: kept open, so that the listeners stay. */
	int close_fds[FUZZ_SANDBOX_COUNT];
	/* The host client that made the listeners; stays connected. */
	struct fuzz_client setup;
	struct wl_listener client_created;
	struct wl_client *created; /* the last client cordon made */
	/* One above the highest global name at start-up (wayland_cordon.h). */
	uint32_t setup_global_limit;
};

static void die(const char *what) {
	fprintf(stderr, "fuzz-wayland: %s: %s\n", what, strerror(errno));
	abort();
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct fuzz_cordon *cordon = wl_container_of(listener, cordon, client_created);
	cordon->created = data;
}

enum fd_kind {
	FD_COUNTED,
	FD_SWAPCHAIN,
	FD_LIBRARY,
};

/*
 * What an fd is. The output's swapchain (wlroots' shm allocator, "/dev/shm/wlroots-*") grows
 * to up to four buffers as frames need them, on its own schedule; libraries open devices and
 * data files once, when first used, and keep them (/dev/urandom, fonts): both are counted
 * apart. Everything a client can cost cordon (sockets, pipes, memfds, pidfds, timers, files
 * elsewhere) is counted.
 */
static enum fd_kind fd_kind(const char *name) {
	char path[300], target[256];
	snprintf(path, sizeof(path), "/proc/self/fd/%s", name);
	ssize_t length = readlink(path, target, sizeof(target) - 1);
	if (length <= 0) {
		return FD_COUNTED;
	}
	target[length] = '\0';
	if (strncmp(target, "/dev/shm/wlroots-", strlen("/dev/shm/wlroots-")) == 0) {
		return FD_SWAPCHAIN;
	}
	if (strncmp(target, "/dev/shm/", strlen("/dev/shm/")) != 0 &&
		(strncmp(target, "/dev/", 5) == 0 || strncmp(target, "/usr/", 5) == 0 ||
			strncmp(target, "/etc/", 5) == 0)) {
		return FD_LIBRARY;
	}
	return FD_COUNTED;
}

int fuzz_cordon_fd_count(int *swapchain) {
	DIR *dir = opendir("/proc/self/fd");
	if (!dir) {
		die("/proc/self/fd");
	}
	int count = 0;
	*swapchain = 0;
	struct dirent *entry;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.' || atoi(entry->d_name) == dirfd(dir)) {
			continue;
		}
		switch (fd_kind(entry->d_name)) {
		case FD_COUNTED:
			count++;
			break;
		case FD_SWAPCHAIN:
			(*swapchain)++;
			break;
		case FD_LIBRARY:
			break;
		}
	}
	closedir(dir);
	return count;
}

void fuzz_cordon_dispatch(struct fuzz_cordon *cordon) {
	wl_event_loop_dispatch(cordon->server->event_loop, 0);
	wl_display_flush_clients(cordon->server->display);
}

static void write_file(const char *dir, const char *name, const char *text) {
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *file = fopen(path, "we");
	if (!file || fputs(text, file) < 0 || fclose(file) != 0) {
		die(path);
	}
}

/* The scratch folder, for its removal at exit (atexit takes no argument). */
static char scratch_at_exit[256];

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	remove(path);
	return 0;
}

static void remove_scratch(void) {
	nftw(scratch_at_exit, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void set_scratch_env(struct fuzz_cordon *cordon) {
	const char *tmp = getenv("TMPDIR");
	snprintf(cordon->dir, sizeof(cordon->dir), "%s/cordon-fuzz-wayland.XXXXXX",
		tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(cordon->dir)) {
		die("mkdtemp");
	}
	/* Its real path: a grant refuses a symlink on the way (TMPDIR may lead through one). */
	char real[PATH_MAX];
	if (!realpath(cordon->dir, real) || strlen(real) >= sizeof(cordon->dir)) {
		die("realpath");
	}
	memcpy(cordon->dir, real, strlen(real) + 1);
	snprintf(scratch_at_exit, sizeof(scratch_at_exit), "%s", cordon->dir);
	atexit(remove_scratch);
	setenv("HOME", cordon->dir, 1);
	setenv("XDG_CONFIG_HOME", cordon->dir, 1);
	setenv("XDG_DATA_HOME", cordon->dir, 1);
	setenv("XDG_STATE_HOME", cordon->dir, 1);
	setenv("XDG_CACHE_HOME", cordon->dir, 1);
	/* The Wayland and control sockets too: none of them in the user's runtime folder. */
	setenv("XDG_RUNTIME_DIR", cordon->dir, 1);
	unsetenv("WAYLAND_DISPLAY");
	setenv("WLR_RENDERER", "pixman", 1);
	/* Every binding that does not start a program, none that quits; no host X server (its
	 * display number would be taken from the machine while the fuzzer runs, and no X client
	 * of the fuzzer's connects). */
	write_file(cordon->dir, "cordon.ini",
		"[general]\n"
		"xwayland = no\n"
		"[bindings]\n"
		"clear-defaults = true\n"
		"Logo+Shift+q = close\n"
		"Alt+Tab = focus-next\n"
		"Alt+Shift+Tab = focus-prev\n"
		"Logo+m = minimize\n"
		"Logo+Up = maximize\n"
		"Logo+f = fullscreen\n"
		"Logo+Shift+v = paste-across\n");
	write_file(cordon->dir, "policy.ini", "");
}

/* Turns the loop until the setup client's sync is answered. */
static void setup_roundtrip(struct fuzz_cordon *cordon) {
	struct fuzz_client *client = &cordon->setup;
	struct fuzz_message message;
	client->sync_done = false;
	client->sync_id = fuzz_client_new_id(client, fuzz_wl_interface_find("wl_callback"), 1);
	fuzz_message_begin(&message, 1, 0); /* wl_display.sync */
	fuzz_message_put_u32(&message, client->sync_id);
	if (!fuzz_message_end(&message) ||
		!fuzz_client_send(client, message.bytes, message.length, NULL, 0)) {
		die("setup: sync");
	}
	for (int i = 0; i < SETUP_TURNS && !client->sync_done; i++) {
		fuzz_cordon_dispatch(cordon);
		fuzz_client_read(client);
	}
	if (!client->sync_done || client->errored) {
		fprintf(stderr, "fuzz-wayland: setup: cordon did not answer the setup client\n");
		abort();
	}
}

static void send_or_die(struct fuzz_client *client, struct fuzz_message *message) {
	if (!fuzz_message_end(message) ||
		!fuzz_client_send(
			client, message->bytes, message->length, message->fds, message->fd_count)) {
		die("setup: send");
	}
}

static void send_string(
	struct fuzz_client *client, uint32_t id, uint16_t opcode, const char *text) {
	struct fuzz_message message;
	fuzz_message_begin(&message, id, opcode);
	fuzz_message_put_string(&message, text, strlen(text));
	send_or_die(client, &message);
}

/* wp_security_context_v1's requests, in the XML's order. */
enum { CONTEXT_SET_ENGINE = 1, CONTEXT_SET_APP_ID, CONTEXT_SET_INSTANCE_ID, CONTEXT_COMMIT };

/* A listener tagged flatpak org.cordon.Fuzz<letter>, instance 1, made as flatpak makes it. */
static void make_listener(struct fuzz_cordon *cordon, uint32_t manager, enum fuzz_sandbox sandbox) {
	struct fuzz_client *client = &cordon->setup;
	int listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int close_pipe[2];
	if (listen_fd < 0 || pipe2(close_pipe, O_CLOEXEC) != 0) {
		die("setup: listener");
	}
	/* An abstract address: nothing to clean up on disk. */
	struct sockaddr_un *address = &cordon->listeners[sandbox];
	address->sun_family = AF_UNIX;
	int length = snprintf(address->sun_path + 1, sizeof(address->sun_path) - 1,
		"cordon-fuzz-wayland-%d-%d", (int)getpid(), (int)sandbox);
	cordon->listener_lengths[sandbox] =
		(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)length);
	if (bind(listen_fd, (struct sockaddr *)address, cordon->listener_lengths[sandbox]) != 0 ||
		listen(listen_fd, 64) != 0) {
		die("setup: bind");
	}
	struct fuzz_message message;
	uint32_t context =
		fuzz_client_new_id(client, fuzz_wl_interface_find("wp_security_context_v1"), 1);
	fuzz_message_begin(&message, manager, 1); /* create_listener */
	fuzz_message_put_u32(&message, context);
	fuzz_message_put_fd(&message, listen_fd);
	fuzz_message_put_fd(&message, close_pipe[0]);
	send_or_die(client, &message);
	close(listen_fd);
	close(close_pipe[0]);
	cordon->close_fds[sandbox] = close_pipe[1];
	send_string(client, context, CONTEXT_SET_ENGINE, "flatpak");
	send_string(client, context, CONTEXT_SET_APP_ID, fuzz_cordon_app_id(sandbox));
	send_string(client, context, CONTEXT_SET_INSTANCE_ID, "1");
	fuzz_message_begin(&message, context, CONTEXT_COMMIT);
	send_or_die(client, &message);
}

static void make_listeners(struct fuzz_cordon *cordon) {
	struct fuzz_client *client = &cordon->setup;
	struct fuzz_message message;
	uint32_t registry = fuzz_client_new_id(client, fuzz_wl_interface_find("wl_registry"), 1);
	fuzz_message_begin(&message, 1, 1); /* wl_display.get_registry */
	fuzz_message_put_u32(&message, registry);
	send_or_die(client, &message);
	setup_roundtrip(cordon);

	int interface = fuzz_wl_interface_find("wp_security_context_manager_v1");
	const struct fuzz_global *global = NULL;
	for (int i = 0; i < client->global_count; i++) {
		if (client->globals[i].interface == interface) {
			global = &client->globals[i];
		}
	}
	if (!global) {
		fprintf(stderr,
			"fuzz-wayland: setup: the host client was not offered "
			"wp_security_context_manager_v1: is this process tagged as a sandbox?\n");
		abort();
	}
	uint32_t manager = fuzz_client_new_id(client, interface, 1);
	fuzz_message_begin(&message, registry, 0); /* bind */
	fuzz_message_put_u32(&message, global->name);
	fuzz_message_put_string(&message, fuzz_wl_interfaces[interface].name,
		strlen(fuzz_wl_interfaces[interface].name));
	fuzz_message_put_u32(&message, 1);
	fuzz_message_put_u32(&message, manager);
	send_or_die(client, &message);
	for (int i = 0; i < client->global_count; i++) {
		if (client->globals[i].name >= cordon->setup_global_limit) {
			cordon->setup_global_limit = client->globals[i].name + 1;
		}
	}
	make_listener(cordon, manager, FUZZ_SANDBOX_A);
	make_listener(cordon, manager, FUZZ_SANDBOX_B);
	setup_roundtrip(cordon);
}

static struct fuzz_cordon *create(void) {
	struct fuzz_cordon *cordon = calloc(1, sizeof(*cordon));
	if (!cordon) {
		die("calloc");
	}
	set_scratch_env(cordon);
	const char *debug = getenv("CORDON_FUZZ_DEBUG");
	wlr_log_init(debug && *debug ? WLR_DEBUG : WLR_SILENT, NULL);
	/* Before cordon: it connects to the bus in DBUS_SESSION_BUS_ADDRESS as it starts. */
	cordon->bus = fuzz_bus_start(cordon->dir);
	fuzz_files_create(cordon->dir);

	char config[512], policy[512];
	snprintf(config, sizeof(config), "%s/cordon.ini", cordon->dir);
	snprintf(policy, sizeof(policy), "%s/policy.ini", cordon->dir);
	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{1280, 720}},
		.config_path = config,
		.policy_path = policy,
	};
	cordon->server = cordon_server_create(&options);
	if (!cordon->server || !cordon_server_start(cordon->server)) {
		fprintf(stderr,
			"fuzz-wayland: cannot start cordon (CORDON_FUZZ_DEBUG=1 says why)\n");
		abort();
	}
	cordon->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(cordon->server->display, &cordon->client_created);

	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0 ||
		!wl_client_create(cordon->server->display, fds[0])) {
		die("setup client");
	}
	fuzz_client_init(&cordon->setup, fds[1], NULL, NULL);
	make_listeners(cordon);
	for (int i = 0; i < 16; i++) {
		fuzz_cordon_dispatch(cordon);
	}
	/* The portal is up (fuzz_bus_start): cordon hears from it within its first turns. */
	struct cordon_selection *selection = cordon->server->seat->selection;
	for (int i = 0; i < GRANTS_TURNS &&
		!cordon_file_grants_ready(cordon_selection_get_file_grants(selection));
		i++) {
		fuzz_cordon_wait(cordon, 10);
	}
	if (!cordon_file_grants_ready(cordon_selection_get_file_grants(selection))) {
		fprintf(stderr,
			"fuzz-wayland: setup: cordon did not turn file grants on "
			"(CORDON_FUZZ_DEBUG=1 says why)\n");
		abort();
	}
	return cordon;
}

struct fuzz_cordon *fuzz_cordon_get(void) {
	/* libFuzzer's entry point has no context to carry it in. */
	static struct fuzz_cordon *cordon;
	if (!cordon) {
		cordon = create();
	}
	return cordon;
}

int fuzz_cordon_connect(
	struct fuzz_cordon *cordon, enum fuzz_sandbox sandbox, struct wl_client **wl_client) {
	cordon->created = NULL;
	*wl_client = NULL;
	if (sandbox == FUZZ_HOST) {
		int fds[2];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
			return -1;
		}
		*wl_client = wl_client_create(cordon->server->display, fds[0]);
		if (!*wl_client) {
			close(fds[0]);
			close(fds[1]);
			return -1;
		}
		return fds[1];
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&cordon->listeners[sandbox],
		    cordon->listener_lengths[sandbox]) != 0) {
		close(fd);
		return -1;
	}
	/* cordon accepts on its own schedule: turn the loop until it has. */
	for (int i = 0; i < 64 && !cordon->created; i++) {
		fuzz_cordon_dispatch(cordon);
	}
	*wl_client = cordon->created;
	if (!*wl_client) {
		close(fd);
		return -1;
	}
	return fd;
}

void fuzz_cordon_wait(struct fuzz_cordon *cordon, int ms) {
	wl_event_loop_dispatch(cordon->server->event_loop, ms);
	wl_display_flush_clients(cordon->server->display);
}

uint64_t fuzz_cordon_transfer_mark(struct fuzz_cordon *cordon) {
	return cordon_selection_get_log(cordon->server->seat->selection)->next_id;
}

bool fuzz_cordon_granted_since(struct fuzz_cordon *cordon, uint64_t mark) {
	const struct cordon_transfer_log *log =
		cordon_selection_get_log(cordon->server->seat->selection);
	if (log->next_id - mark > CORDON_TRANSFER_LOG_SIZE) {
		/* Some left the ring unseen: any of them may have been a grant. */
		return true;
	}
	for (int i = 0; i < CORDON_TRANSFER_LOG_SIZE; i++) {
		const struct cordon_transfer_entry *entry = &log->entries[i];
		/* Whatever its outcome: a grant the reader left in the middle of was still asked.
		 */
		if (entry->id >= mark && cordon_selection_type_is_files(entry->mime_type)) {
			return true;
		}
	}
	return false;
}

bool fuzz_cordon_granting(struct fuzz_cordon *cordon) {
	return cordon_file_grants_pending(
		cordon_selection_get_file_grants(cordon->server->seat->selection));
}

struct fuzz_bus *fuzz_cordon_bus(struct fuzz_cordon *cordon) {
	return cordon->bus;
}

const char *fuzz_cordon_app_id(enum fuzz_sandbox sandbox) {
	return sandbox == FUZZ_SANDBOX_A ? "org.cordon.FuzzA" : "org.cordon.FuzzB";
}

const char *fuzz_cordon_control_path(struct fuzz_cordon *cordon) {
	return cordon_ipc_server_get_path(cordon->server->ipc);
}

const char *fuzz_cordon_scratch_dir(struct fuzz_cordon *cordon) {
	return cordon->dir;
}

uint32_t fuzz_cordon_setup_global_limit(struct fuzz_cordon *cordon) {
	return cordon->setup_global_limit;
}

static int control_socket(struct fuzz_cordon *cordon) {
	const char *path = fuzz_cordon_control_path(cordon);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(address.sun_path)) {
		return -1;
	}
	memcpy(address.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

bool fuzz_cordon_control(
	struct fuzz_cordon *cordon, const char *request, char *reply, size_t size) {
	int fd = control_socket(cordon);
	if (fd < 0) {
		return false;
	}
	size_t length = strlen(request), got = 0;
	bool answered = false;
	if (send(fd, request, length, MSG_NOSIGNAL) == (ssize_t)length) {
		for (int i = 0; i < CONTROL_TURNS && !answered && got + 1 < size; i++) {
			fuzz_cordon_dispatch(cordon);
			ssize_t n = recv(fd, reply + got, size - 1 - got, MSG_DONTWAIT);
			if (n == 0 || (n < 0 && errno != EAGAIN)) {
				break;
			}
			got += n > 0 ? (size_t)n : 0;
			answered = memchr(reply, '\n', got) != NULL;
		}
	}
	reply[got] = '\0';
	close(fd);
	return answered;
}

int fuzz_cordon_output_count(struct fuzz_cordon *cordon) {
	return wl_list_length(&cordon->server->outputs);
}

const char *fuzz_cordon_output_name(struct fuzz_cordon *cordon, unsigned n) {
	int count = fuzz_cordon_output_count(cordon);
	if (count == 0) {
		return NULL;
	}
	n %= (unsigned)count;
	struct cordon_output *output;
	wl_list_for_each(output, &cordon->server->outputs, link) {
		if (n-- == 0) {
			return output->wlr_output->name;
		}
	}
	return NULL;
}

bool fuzz_cordon_output_as_made(
	struct fuzz_cordon *cordon, const char *name, int width, int height) {
	struct cordon_output *output;
	wl_list_for_each(output, &cordon->server->outputs, link) {
		struct wlr_output *wlr_output = output->wlr_output;
		if (strcmp(wlr_output->name, name) != 0) {
			continue;
		}
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		return wlr_output->enabled && output->scene_output && wlr_output->width == width &&
			wlr_output->height == height && wlr_output->scale == 1.0f &&
			wlr_output->transform == WL_OUTPUT_TRANSFORM_NORMAL && box.x == 0 &&
			box.y == 0;
	}
	return false;
}

void fuzz_cordon_pointer_to(struct fuzz_cordon *cordon, double x, double y) {
	cordon_seat_inject_pointer_warp(cordon->server->seat, x, y);
}

void fuzz_cordon_pointer_to_view(struct fuzz_cordon *cordon, unsigned n, int dx, int dy) {
	unsigned count = 0;
	struct cordon_view *view;
	wl_list_for_each(view, &cordon->server->views, link) {
		count += view->mapped;
	}
	if (count == 0) {
		return;
	}
	n %= count;
	wl_list_for_each(view, &cordon->server->views, link) {
		if (view->mapped && n-- == 0) {
			struct wlr_box box;
			cordon_view_get_box(view, &box);
			fuzz_cordon_pointer_to(cordon, box.x + dx, box.y + dy);
			return;
		}
	}
}

void fuzz_cordon_pointer_to_output(struct fuzz_cordon *cordon, unsigned n, uint8_t x, uint8_t y) {
	int count = fuzz_cordon_output_count(cordon);
	if (count == 0) {
		return;
	}
	n %= (unsigned)count;
	struct cordon_output *output;
	wl_list_for_each(output, &cordon->server->outputs, link) {
		if (n-- == 0) {
			struct wlr_box box;
			cordon_output_get_box(output, &box);
			fuzz_cordon_pointer_to(cordon, box.x + box.width * (x / 256.0),
				box.y + box.height * (y / 256.0));
			return;
		}
	}
}

void fuzz_cordon_button(struct fuzz_cordon *cordon, uint32_t button, bool pressed) {
	cordon_seat_inject_button(cordon->server->seat, button, pressed);
}

void fuzz_cordon_key(struct fuzz_cordon *cordon, uint32_t keycode, bool pressed) {
	cordon_seat_inject_key(cordon->server->seat, keycode, pressed);
}

void fuzz_cordon_time_passes(struct fuzz_cordon *cordon) {
	struct cordon_view *view;
	wl_list_for_each(view, &cordon->server->views, link) {
		view->shown_since.tv_sec -= 1;
	}
}

struct wl_client *fuzz_cordon_pointer_client(struct fuzz_cordon *cordon) {
	struct wlr_seat *seat = cordon->server->seat->wlr_seat;
	/* During a drag the pointer has no focus; the surface under it is the drag's. */
	struct wlr_seat_client *client =
		seat->drag ? seat->drag->focus_client : seat->pointer_state.focused_client;
	return client ? client->client : NULL;
}

struct wl_client *fuzz_cordon_keyboard_client(struct fuzz_cordon *cordon) {
	struct wlr_seat_client *client =
		cordon->server->seat->wlr_seat->keyboard_state.focused_client;
	return client ? client->client : NULL;
}
