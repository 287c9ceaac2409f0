/*
 * The sandbox's own X display (--x11, or x11 = yes in the app's profile). cordon-run asks
 * the running cordon, over the connection wayland.c made, for a rootless Xwayland of this
 * instance with cordon_x11_manager_v1: same app id and instance id as the Wayland listener,
 * so the X server's Wayland connection carries the app's tag. cordon answers with the host
 * path of the X server's socket, which mounts.c binds at /tmp/.X11-unix/X0 in the sandbox's
 * private /tmp; the command gets DISPLAY=:0 and no XAUTHORITY (env.c). The host's
 * /tmp/.X11-unix is not in the sandbox.
 *
 * The display lives as long as the write end of the close_fd pipe, which only the launcher
 * holds: it closes it when the app exits, and the kernel does if the launcher dies.
 *
 * wlroots' Xwayland also listens on an abstract socket (@/tmp/.X11-unix/XN), and so may the
 * host's X server: the sandbox must not reach the abstract namespace of the host. A network
 * namespace of its own gives it that (the default); with --share=network only Landlock's
 * scoping does, and without it --x11 is refused (cordon_launch_x11_check).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-client.h>

#include "cordon-x11-v1-client-protocol.h"
#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* The path cordon's X servers listen on; anything else in an answer is refused. */
#define X11_SOCKET_DIR "/tmp/.X11-unix/X"

struct x11_request {
	struct cordon_x11_manager_v1 *manager;
	bool answered;
	char *socket_path; /* from ready */
	int display;
	char *failure; /* from failed */
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct x11_request *request = data;
	if (strcmp(interface, cordon_x11_manager_v1_interface.name) == 0 &&
		request->manager == NULL) {
		request->manager =
			wl_registry_bind(registry, name, &cordon_x11_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_ready(void *data, struct cordon_x11_display_v1 *display, const char *socket_path,
	int32_t number) {
	struct x11_request *request = data;
	request->answered = true;
	request->socket_path = strdup(socket_path);
	request->display = number;
	if (request->socket_path == NULL) {
		cordon_die_errno("copying the X socket path");
	}
}

static void handle_failed(void *data, struct cordon_x11_display_v1 *display, const char *reason) {
	struct x11_request *request = data;
	request->answered = true;
	/* %.200s: the text is cordon's, but keep a message bounded all the same. */
	request->failure = cordon_strdup_printf("%.200s", reason);
}

static const struct cordon_x11_display_v1_listener display_listener = {
	.ready = handle_ready,
	.failed = handle_failed,
};

void cordon_launch_x11_check(const struct cordon_launch_options *options) {
	if (!options->x11 || !options->share_network) {
		return;
	}
	if (!cordon_launch_landlock_scopes_abstract_sockets()) {
		cordon_die(
			"--x11 with --share=network needs Landlock's abstract unix socket scoping "
			"(Linux 6.12): without it the app could reach the host's X server through "
			"its abstract socket. Run it without --share=network (or x11 = no)");
	}
}

/* The socket cordon named, as an O_PATH fd: the bind source. Dies if it is not one. */
static int open_socket(const char *path) {
	size_t prefix = strlen(X11_SOCKET_DIR);
	if (strncmp(path, X11_SOCKET_DIR, prefix) != 0 || path[prefix] == '\0' ||
		strspn(path + prefix, "0123456789") != strlen(path + prefix)) {
		cordon_die("cordon named %.100s as the X socket: not an X socket path", path);
	}
	int fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		cordon_die_errno("opening the X socket %s", path);
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		cordon_die("%s is not a socket", path);
	}
	return fd;
}

void cordon_launch_x11_request(struct cordon_launch *launch, struct wl_display *display) {
	if (!launch->options.x11) {
		return;
	}
	struct x11_request request = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &request);
	if (wl_display_roundtrip(display) < 0) {
		cordon_die_errno("talking to the compositor");
	}
	if (request.manager == NULL) {
		cordon_die(
			"the compositor offers no cordon_x11_manager_v1: it is not a cordon with "
			"X11 support, or cordon-run is itself running in a sandbox");
	}
	int close_pipe[2];
	if (pipe2(close_pipe, O_CLOEXEC) < 0) {
		cordon_die_errno("creating the X display's close_fd pipe");
	}
	launch->x11_close_fd = close_pipe[1];
	struct cordon_x11_display_v1 *x_display = cordon_x11_manager_v1_create_display(
		request.manager, launch->options.app_id, launch->instance, close_pipe[0]);
	/* The request carries a copy of the read end: cordon's is the only one left. */
	close(close_pipe[0]);
	cordon_x11_display_v1_add_listener(x_display, &display_listener, &request);
	while (!request.answered) {
		if (wl_display_dispatch(display) < 0) {
			errno = wl_display_get_error(display);
			cordon_die_errno("the compositor refused the X display");
		}
	}
	cordon_x11_display_v1_destroy(x_display);
	cordon_x11_manager_v1_destroy(request.manager);
	wl_registry_destroy(registry);
	if (request.failure != NULL) {
		cordon_die("no X display for the app: %s", request.failure);
	}
	launch->x11_socket_fd = open_socket(request.socket_path);
	cordon_debug("X display :%d of %s/%s at %s, bound at /tmp/.X11-unix/X0", request.display,
		launch->options.app_id, launch->instance, request.socket_path);
	free(request.socket_path);
}

void cordon_launch_x11_finish(struct cordon_launch *launch) {
	/* The last copy of the write end: cordon ends the X server when it sees the hang-up. */
	if (launch->x11_close_fd >= 0) {
		close(launch->x11_close_fd);
		launch->x11_close_fd = -1;
	}
	if (launch->x11_socket_fd >= 0) {
		close(launch->x11_socket_fd);
		launch->x11_socket_fd = -1;
	}
}
