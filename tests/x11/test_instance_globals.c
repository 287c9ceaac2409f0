/*
 * A sandbox's X server is the sandbox for the global filter. A headless cordon runs
 * in-process with an X server made for a sandbox instance (as x11_display.c makes one);
 * an X connection to its socket starts Xwayland, whose Wayland connection must then carry
 * the instance's tag from its creation, and see neither a privileged global nor another X
 * server's shell; its own shell it sees, and nobody else does; its private selection seat
 * is nobody's. Destroying the instance ends its Xwayland and gives back every fd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/xwayland/shell.h>
#include <wlr/xwayland/xwayland.h>
#include <xcb/xcb.h>

#include "../unit/check.h"
#include "compositor/client.h"
#include "compositor/global_filter.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/xwayland.h"
#include "x11_fixture.h"

#define MAX_GLOBALS 128

struct census {
	const struct wl_global *globals[MAX_GLOBALS];
	size_t count;
};

/* Notes every global libwayland holds, and decides as cordon's own filter does. */
static bool note_global(
	const struct wl_client *client, const struct wl_global *global, void *data) {
	struct census *census = data;
	bool known = false;
	for (size_t i = 0; i < census->count; i++) {
		known = known || census->globals[i] == global;
	}
	if (!known && census->count < MAX_GLOBALS) {
		census->globals[census->count++] = global;
	}
	return cordon_global_visible(client, global);
}

static void handle_done(void *data, struct wl_callback *callback, uint32_t serial) {
	*(bool *)data = true;
}

static const struct wl_callback_listener done_listener = {.done = handle_done};

/* Runs server and client in turn until the client's sync is answered. */
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

/* An X client that stays, on a started and ready X server (x11_fixture.c). */
static xcb_connection_t *connect_x(struct cordon_server *server, struct cordon_xwayland *xwayland) {
	xcb_connection_t *connection = x11_fixture_connect(server, xwayland);
	CHECK(connection != NULL);
	return connection;
}

static int count_fds(void) {
	DIR *dir = opendir("/proc/self/fd");
	int count = 0;
	for (struct dirent *entry; dir && (entry = readdir(dir));) {
		count += entry->d_name[0] != '.';
	}
	if (dir) {
		closedir(dir);
	}
	return count;
}

/* Whether a process "Xwayland :N ..." runs (it is not ours: wlroots double-forks). */
static bool xwayland_runs(int display) {
	char want[16];
	snprintf(want, sizeof(want), ":%d", display);
	DIR *proc = opendir("/proc");
	bool found = false;
	for (struct dirent *entry; !found && proc && (entry = readdir(proc));) {
		char path[300], cmdline[256] = {0};
		snprintf(path, sizeof(path), "/proc/%s/cmdline", entry->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			continue;
		}
		ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
		close(fd);
		const char *argv0 = cmdline, *argv1 = cmdline + strlen(cmdline) + 1;
		const char *base = strrchr(argv0, '/');
		found = n > 0 && argv1 < cmdline + n &&
			strcmp(base ? base + 1 : argv0, "Xwayland") == 0 &&
			strcmp(argv1, want) == 0;
	}
	if (proc) {
		closedir(proc);
	}
	return found;
}

static const char *name_of(const struct wl_global *global) {
	return wl_global_get_interface(global)->name;
}

static const struct cordon_tag sandbox_tag = {
	.engine = CORDON_SANDBOX_CORDON,
	.app_id = "org.example.X11App",
	.instance = "7",
	.sandboxed = true,
};

/* An X client gone, its instance destroyed: the process, the socket and the fds go too. */
static void destroy_instance(struct cordon_server *server, struct cordon_xwayland *xwayland,
	xcb_connection_t *connection) {
	int display = cordon_xwayland_display_number(xwayland);
	char socket_path[108];
	snprintf(socket_path, sizeof(socket_path), "%s", cordon_xwayland_socket_path(xwayland));
	xcb_disconnect(connection);
	cordon_xwayland_destroy(xwayland);
	for (int i = 0; i < 500 && xwayland_runs(display); i++) {
		x11_fixture_dispatch(server);
	}
	CHECK(!xwayland_runs(display));
	CHECK(access(socket_path, F_OK) != 0);
}

/*
 * The private seat and the instance exist before the host's X server starts: a seat
 * announced to an X server and then hidden would make it bind a global it may not, and
 * die (x11_display.c hides a sandbox's seat from its creation).
 */
static void check_globals(struct cordon_server *server, struct census *census,
	struct wlr_seat *private_seat, xcb_connection_t **host_connection) {
	struct cordon_xwayland *xwayland =
		cordon_xwayland_create(server, &sandbox_tag, private_seat);
	CHECK(xwayland != NULL);
	if (!xwayland) {
		return;
	}
	CHECK(cordon_xwayland_wl_client(xwayland) == NULL); /* lazy */
	/* Kept to the end: an idle host X server would exit in the middle of a count. */
	*host_connection = connect_x(server, server->host_xwayland);
	xcb_connection_t *x_connection = connect_x(server, xwayland);
	struct wl_client *x_client = cordon_xwayland_wl_client(xwayland);
	struct wl_client *host_x = cordon_xwayland_wl_client(server->host_xwayland);
	CHECK(x_client != NULL && host_x != NULL);
	if (!x_client || !host_x) {
		return;
	}
	CHECK(xwayland_runs(cordon_xwayland_display_number(xwayland)));
	CHECK(cordon_xwayland_from_client(server, x_client) == xwayland);

	/* Tagged as the instance from its creation: the tag source says it was never host. */
	struct cordon_client *record = cordon_client_from_wl(x_client);
	CHECK(record && record->tag_source == CORDON_TAG_SOURCE_XWAYLAND);
	CHECK(cordon_client_is_sandboxed(record));
	CHECK(cordon_tag_same_sandbox(cordon_client_get_tag(record), &sandbox_tag));
	CHECK(!cordon_client_is_sandboxed(cordon_client_from_wl(host_x)));

	struct wl_global *own_shell = cordon_xwayland_get_wlr(xwayland)->shell_v1->global;
	struct wl_global *host_shell =
		cordon_xwayland_get_wlr(server->host_xwayland)->shell_v1->global;
	int privileged = 0;
	for (size_t i = 0; i < census->count; i++) {
		const struct wl_global *global = census->globals[i];
		const char *name = name_of(global);
		if (cordon_global_class_of(name) != CORDON_GLOBAL_HOST_ONLY) {
			continue;
		}
		privileged++;
		if (cordon_global_visible(x_client, global)) {
			fprintf(stderr, "the sandbox's X server sees %s\n", name);
			failures++;
		}
	}
	CHECK(privileged > 10);
	CHECK(cordon_global_visible(x_client, own_shell));
	CHECK(!cordon_global_visible(x_client, host_shell));
	CHECK(!cordon_global_visible(x_client, private_seat->global));
	/* What an app draws and takes input with, it has: the real seat among them. */
	CHECK(cordon_global_visible(x_client, server->seat->wlr_seat->global));
	/* The host's X server does not see this one's shell, nor its seat. */
	CHECK(!cordon_global_visible(host_x, own_shell));
	CHECK(cordon_global_visible(host_x, host_shell));
	CHECK(!cordon_global_visible(host_x, private_seat->global));
	destroy_instance(server, xwayland, x_connection);
	/* The host's X server lived through it all (it would die binding a refused global). */
	CHECK(cordon_xwayland_wl_client(server->host_xwayland) == host_x);
}

/* A second instance on the same seat, from nothing back to nothing: every fd comes back. */
static void check_resources(struct cordon_server *server, struct wlr_seat *private_seat) {
	int baseline_fds = count_fds();
	struct cordon_xwayland *xwayland =
		cordon_xwayland_create(server, &sandbox_tag, private_seat);
	CHECK(xwayland != NULL);
	if (!xwayland) {
		return;
	}
	xcb_connection_t *connection = connect_x(server, xwayland);
	CHECK(cordon_xwayland_is_running(xwayland));
	destroy_instance(server, xwayland, connection);
	if (count_fds() != baseline_fds) {
		fprintf(stderr, "fds: %d before the instance, %d after\n", baseline_fds,
			count_fds());
		failures++;
	}
}

/*
 * An instance destroyed while its Xwayland starts (a sandbox that ended at once): wlroots
 * would lose an fd destroying it then, so it ends once ready; then every fd is back.
 */
static void check_destroy_while_starting(
	struct cordon_server *server, struct wlr_seat *private_seat) {
	int baseline_fds = count_fds();
	struct cordon_xwayland *xwayland =
		cordon_xwayland_create(server, &sandbox_tag, private_seat);
	CHECK(xwayland != NULL);
	if (!xwayland) {
		return;
	}
	int display = cordon_xwayland_display_number(xwayland);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	snprintf(address.sun_path, sizeof(address.sun_path), "%s",
		cordon_xwayland_socket_path(xwayland));
	CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof(address)) == 0);
	for (int i = 0; i < 500 && !cordon_xwayland_is_running(xwayland); i++) {
		x11_fixture_dispatch(server);
	}
	CHECK(cordon_xwayland_is_running(xwayland));
	close(fd);
	cordon_xwayland_destroy(xwayland); /* still starting: not ready yet */
	bool gone = false;
	for (int i = 0; i < 1000 && !gone; i++) {
		x11_fixture_dispatch(server);
		gone = !xwayland_runs(display) && count_fds() == baseline_fds;
	}
	if (!gone) {
		fprintf(stderr,
			"a starting instance destroyed: Xwayland %s, fds %d before, %d after\n",
			xwayland_runs(display) ? "runs" : "ended", baseline_fds, count_fds());
		failures++;
	}
}

int main(void) {
	/* Xwayland's end of a socket may go first. */
	signal(SIGPIPE, SIG_IGN);
	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{640, 480}},
	};
	struct cordon_server *server = cordon_server_create(&options);
	CHECK(server != NULL);
	if (!server) {
		return check_result();
	}
	CHECK(cordon_server_start(server));

	/* Every global there is, through a plain client's registry. */
	struct census census = {0};
	wl_display_set_global_filter(server->display, note_global, &census);
	int fds[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
	struct wl_client *plain = wl_client_create(server->display, fds[0]);
	struct wl_display *client = wl_display_connect_to_fd(fds[1]);
	CHECK(plain != NULL && client != NULL);
	if (client) {
		struct wl_registry *registry = wl_display_get_registry(client);
		CHECK(roundtrip(server, client));
		wl_registry_destroy(registry);
	}
	struct wlr_seat *private_seat = wlr_seat_create(server->display, "test-x11-selections");
	CHECK(private_seat != NULL);
	if (private_seat) {
		xcb_connection_t *host_connection = NULL;
		check_globals(server, &census, private_seat, &host_connection);
		check_resources(server, private_seat);
		check_destroy_while_starting(server, private_seat);
		if (host_connection) {
			xcb_disconnect(host_connection);
		}
		wlr_seat_destroy(private_seat);
	}
	/* No other client sees an X server's shell. */
	if (server->host_xwayland && plain) {
		CHECK(!cordon_global_visible(
			plain, cordon_xwayland_get_wlr(server->host_xwayland)->shell_v1->global));
	}
	if (client) {
		wl_display_disconnect(client);
	}
	cordon_server_destroy(server);
	return check_result();
}
