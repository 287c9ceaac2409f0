/*
 * The sandbox's Wayland socket. cordon-run connects to the running cordon as a host client
 * (the caller's WAYLAND_DISPLAY), makes a listening socket in a private temp dir and hands it
 * to cordon with wp_security_context_manager_v1: engine "cordon", the app id and this launch's
 * instance id. Every client that connects through that socket is tagged with them by cordon,
 * whatever it says about itself. Only this socket is bound into the sandbox (as
 * $XDG_RUNTIME_DIR/wayland-0): the host's wayland socket and cordon's control socket are not
 * there.
 *
 * The listener lives as long as the write end of the close_fd pipe, which only the launcher
 * holds: it closes it when the app exits, and the kernel does if the launcher dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"
#include "security-context-v1-client-protocol.h"

struct globals {
	struct wp_security_context_manager_v1 *manager;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct globals *globals = data;
	if (strcmp(interface, wp_security_context_manager_v1_interface.name) == 0 &&
		globals->manager == NULL) {
		globals->manager = wl_registry_bind(
			registry, name, &wp_security_context_manager_v1_interface, 1);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

/* Makes the private dir and the listening socket in it; returns the listening fd. */
static int make_listener(struct cordon_launch *launch) {
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	const char *base = runtime != NULL && runtime[0] == '/' ? runtime : "/tmp";
	char *dir = cordon_strdup_printf("%s/cordon-run-XXXXXX", base);
	if (mkdtemp(dir) == NULL) {
		int err = errno;
		free(dir);
		errno = err;
		cordon_die_errno("creating a private dir in %s for the app's Wayland socket", base);
	}
	launch->wayland_dir = dir;
	char *path = cordon_strdup_printf("%s/wayland-0", dir);
	launch->wayland_socket_path = path;

	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		cordon_die("the app's Wayland socket path %s is too long for a unix socket", path);
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		cordon_die_errno("creating the app's Wayland socket");
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 128) < 0) {
		cordon_die_errno("listening on %s", path);
	}
	launch->wayland_socket_fd = open(path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (launch->wayland_socket_fd < 0) {
		cordon_die_errno("opening %s", path);
	}
	return fd;
}

void cordon_launch_wayland_listen(struct cordon_launch *launch) {
	/* The X display is asked for on the same connection (x11.c). */
	if (launch->options.no_wayland && !launch->options.x11) {
		return;
	}
	const char *name = getenv("WAYLAND_DISPLAY");
	if (name == NULL || name[0] == '\0') {
		cordon_die(
			"WAYLAND_DISPLAY is not set: cordon-run needs a running cordon to give the "
			"app its Wayland socket or X display (or --no-wayland for an app without a "
			"display)");
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		cordon_die_errno(
			"cannot connect to the compositor at WAYLAND_DISPLAY=%s (is cordon "
			"running?)",
			name);
	}
	struct globals globals = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &globals);
	if (wl_display_roundtrip(display) < 0) {
		cordon_die_errno("talking to the compositor at WAYLAND_DISPLAY=%s", name);
	}
	if (launch->options.no_wayland) {
		if (globals.manager != NULL) {
			wp_security_context_manager_v1_destroy(globals.manager);
		}
		wl_registry_destroy(registry);
		cordon_launch_x11_request(launch, display);
		wl_display_disconnect(display);
		return;
	}
	if (globals.manager == NULL) {
		cordon_die(
			"the compositor at WAYLAND_DISPLAY=%s offers no "
			"wp_security_context_manager_v1: it is not cordon, or cordon-run is itself "
			"running in a sandbox",
			name);
	}

	cleanup_fd int listen_fd = make_listener(launch);
	int close_pipe[2];
	if (pipe2(close_pipe, O_CLOEXEC) < 0) {
		cordon_die_errno("creating the close_fd pipe");
	}
	cleanup_fd int close_read = close_pipe[0];
	launch->wayland_close_fd = close_pipe[1];

	struct wp_security_context_v1 *context = wp_security_context_manager_v1_create_listener(
		globals.manager, listen_fd, close_read);
	wp_security_context_v1_set_sandbox_engine(context, "cordon");
	wp_security_context_v1_set_app_id(context, launch->options.app_id);
	wp_security_context_v1_set_instance_id(context, launch->instance);
	wp_security_context_v1_commit(context);
	/* A committed listener outlives its object: it ends with close_fd (the protocol's rule). */
	wp_security_context_v1_destroy(context);
	wp_security_context_manager_v1_destroy(globals.manager);
	wl_registry_destroy(registry);
	if (wl_display_roundtrip(display) < 0) {
		int err = wl_display_get_error(display);
		errno = err;
		cordon_die_errno("the compositor refused the app's security context");
	}
	cordon_launch_x11_request(launch, display);
	wl_display_disconnect(display);
	cordon_debug("Wayland listener for %s/%s at %s", launch->options.app_id, launch->instance,
		launch->wayland_socket_path);
}

void cordon_launch_wayland_finish(struct cordon_launch *launch) {
	if (launch->wayland_close_fd >= 0) {
		close(launch->wayland_close_fd);
		launch->wayland_close_fd = -1;
	}
	if (launch->wayland_socket_fd >= 0) {
		close(launch->wayland_socket_fd);
		launch->wayland_socket_fd = -1;
	}
	if (launch->wayland_socket_path != NULL) {
		unlink(launch->wayland_socket_path);
		free(launch->wayland_socket_path);
		launch->wayland_socket_path = NULL;
	}
	if (launch->wayland_dir != NULL) {
		rmdir(launch->wayland_dir);
		free(launch->wayland_dir);
		launch->wayland_dir = NULL;
	}
}
