/*
 * cordon_x11_manager_v1: a sandbox launcher (cordon-run --x11) asks for an X display of its
 * own for one sandbox instance. cordon makes a rootless Xwayland (xwayland.c) whose Wayland
 * connection carries the instance's tag (engine cordon, the app id, the instance id), so the
 * global filter and the mediation treat it as the app itself, and answers with the host path
 * of its socket, which the launcher binds into that sandbox only.
 *
 * Each display has a private wlr_seat that only its X window manager uses, for selections:
 * were it given the real seat, the window manager would mirror the host's clipboard into the
 * X server at all times, and any X client of the sandbox could read it without the user's
 * action. xwayland_selection.c bridges the private seat through the mediation instead. The
 * private seat's wl_seat global is shown to no client (cordon_x11_displays_global_is_private,
 * from the moment it is created), so no X server adds it as an input device either.
 *
 * A display lives as long as the launcher's close_fd, as a security-context listener does
 * (security_context.c): when every copy of its other end is closed (the sandbox ended, or
 * the launcher died), the X server ends and its sockets go. Only unsandboxed clients may ask,
 * and displays are capped per app and in total, so that a host client cannot make cordon
 * hold unbounded X servers and fds.
 */
#include "compositor/x11_display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

#include "common/app_id.h"
#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/server.h"
#include "compositor/xwayland.h"
#include "compositor/xwayland_selection.h"
#include "cordon-x11-v1-protocol.h"
#include "sandbox/context_tag.h"

#define MANAGER_VERSION 1

struct cordon_x11_displays {
	struct cordon_server *server;
	struct wl_global *global;
	struct wl_list displays; /* x11_display.link */
	uint64_t next_seat; /* names the private seats */
	/* While wlr_seat_create makes a private seat: its global is announced before we know it. */
	bool creating_seat;
};

struct x11_display {
	struct cordon_x11_displays *displays;
	struct wl_list link;
	struct cordon_tag tag;
	struct wlr_seat *seat; /* private: only the X window manager's selections */
	struct cordon_xwayland *xwayland;
	struct cordon_x11_selection *selection; /* the bridge (xwayland_selection.c) */
	int close_fd;
	struct wl_event_source *close_source;
	/* The protocol object, until the client destroys it; NULL afterwards. */
	struct wl_resource *resource;
};

static void log_display(const struct x11_display *display, const char *what) {
	wlr_log(WLR_INFO, "X display %s for %s instance %s: %s",
		display->xwayland ? cordon_xwayland_display_name(display->xwayland) : "-",
		cordon_log_text(display->tag.app_id), cordon_log_text(display->tag.instance), what);
}

static void display_destroy(struct x11_display *display) {
	wl_list_remove(&display->link);
	if (display->resource) {
		wl_resource_set_user_data(display->resource, NULL);
	}
	if (display->close_source) {
		wl_event_source_remove(display->close_source);
	}
	/* The bridge first: it holds sources of the X server's window manager. */
	cordon_x11_selection_destroy(display->selection);
	if (display->xwayland) {
		cordon_xwayland_destroy(display->xwayland);
	}
	/* After the X server: its window manager listens to the seat. */
	if (display->seat) {
		wlr_seat_destroy(display->seat);
	}
	if (display->close_fd >= 0) {
		close(display->close_fd);
	}
	free(display);
}

static int handle_close_hangup(int fd, uint32_t mask, void *data) {
	/* We asked for no event: any that comes is the hang-up (or an error) of close_fd. */
	struct x11_display *display = data;
	log_display(display, "its launcher closed it, ending the X server");
	display_destroy(display);
	return 0;
}

static void display_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct cordon_x11_display_v1_interface display_impl = {
	.destroy = display_handle_destroy,
};

static void handle_display_resource_destroy(struct wl_resource *resource) {
	struct x11_display *display = wl_resource_get_user_data(resource);
	if (display) {
		/* The display stays: it ends with close_fd, not with this object. */
		display->resource = NULL;
	}
}

/* Only what can hang up can end a display: a regular file never would. */
static bool can_hang_up(int fd) {
	struct stat st;
	return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static int count_displays(const struct cordon_x11_displays *displays, const char *app_id) {
	int count = 0;
	const struct x11_display *display;
	wl_list_for_each(display, &displays->displays, link) {
		if (!app_id || strcmp(display->tag.app_id, app_id) == 0) {
			count++;
		}
	}
	return count;
}

/* Why no display can be made for this app now (into reason), or false when one can. */
static bool cap_reached(
	const struct cordon_x11_displays *displays, const char *app_id, char *reason, size_t size) {
	if (count_displays(displays, NULL) >= CORDON_X11_DISPLAYS_MAX) {
		snprintf(reason, size, "cordon runs as many X displays as it allows (%d)",
			CORDON_X11_DISPLAYS_MAX);
		return true;
	}
	if (count_displays(displays, app_id) >= CORDON_X11_DISPLAYS_PER_APP) {
		snprintf(reason, size, "this app has as many X displays as it may (%d)",
			CORDON_X11_DISPLAYS_PER_APP);
		return true;
	}
	return false;
}

/* Makes the seat, the X server and the bridge; false (logged) if any cannot be made. */
static bool display_start(struct x11_display *display) {
	struct cordon_x11_displays *displays = display->displays;
	struct cordon_server *server = displays->server;
	char seat_name[64];
	snprintf(seat_name, sizeof(seat_name), "cordon-x11-%llu",
		(unsigned long long)displays->next_seat++);
	displays->creating_seat = true;
	display->seat = wlr_seat_create(server->display, seat_name);
	displays->creating_seat = false;
	if (!display->seat) {
		wlr_log(WLR_ERROR, "Cannot create the private seat of an X display");
		return false;
	}
	display->xwayland = cordon_xwayland_create(server, &display->tag, display->seat);
	if (!display->xwayland) {
		return false;
	}
	display->selection = cordon_x11_selection_create(server, display->xwayland, display->seat);
	if (!display->selection) {
		wlr_log(WLR_ERROR, "Cannot bridge the selections of an X display");
		return false;
	}
	return true;
}

static void manager_handle_create_display(struct wl_client *client,
	struct wl_resource *manager_resource, uint32_t id, const char *app_id,
	const char *instance_id, int32_t close_fd) {
	struct cordon_x11_displays *displays = wl_resource_get_user_data(manager_resource);
	/* close_fd is ours from here on: every way out closes it or gives it to a display. */
	if (cordon_client_is_sandboxed(cordon_client_from_wl(client))) {
		wl_resource_post_error(manager_resource, CORDON_X11_MANAGER_V1_ERROR_SANDBOXED,
			"a sandboxed client cannot create X displays");
		close(close_fd);
		return;
	}
	const char *problem = cordon_app_id_problem(app_id);
	if (problem) {
		wl_resource_post_error(manager_resource, CORDON_X11_MANAGER_V1_ERROR_INVALID_APP_ID,
			"the app id %s", problem);
		close(close_fd);
		return;
	}
	if (!cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, instance_id)) {
		wl_resource_post_error(manager_resource,
			CORDON_X11_MANAGER_V1_ERROR_INVALID_INSTANCE_ID,
			"the instance id must be 1 to %zu printable ASCII characters without spaces",
			cordon_context_value_max(CORDON_CONTEXT_INSTANCE));
		close(close_fd);
		return;
	}
	if (!can_hang_up(close_fd)) {
		wl_resource_post_error(manager_resource,
			CORDON_X11_MANAGER_V1_ERROR_INVALID_CLOSE_FD,
			"close_fd must be a pipe or a socket");
		close(close_fd);
		return;
	}
	struct wl_resource *resource = wl_resource_create(client, &cordon_x11_display_v1_interface,
		wl_resource_get_version(manager_resource), id);
	if (!resource) {
		wl_client_post_no_memory(client);
		close(close_fd);
		return;
	}
	wl_resource_set_implementation(
		resource, &display_impl, NULL, handle_display_resource_destroy);

	char capped[128];
	if (cap_reached(displays, app_id, capped, sizeof(capped))) {
		wlr_log(WLR_ERROR, "Refusing an X display for %s: %s", cordon_log_text(app_id),
			capped);
		cordon_x11_display_v1_send_failed(resource, capped);
		close(close_fd);
		return;
	}
	struct x11_display *display = calloc(1, sizeof(*display));
	if (!display) {
		wl_client_post_no_memory(client);
		close(close_fd);
		return;
	}
	display->displays = displays;
	display->close_fd = close_fd;
	cordon_tag_from_context("cordon", app_id, instance_id, &display->tag);
	wl_list_insert(&displays->displays, &display->link);
	/* Mask 0: hang-up and error are always reported, and they are all we wait for. */
	display->close_source = wl_event_loop_add_fd(
		displays->server->event_loop, close_fd, 0, handle_close_hangup, display);
	if (!display->close_source || !display_start(display)) {
		cordon_x11_display_v1_send_failed(resource,
			"cordon cannot make an X server (no Xwayland, or no free display "
			"number; its log says which)");
		display_destroy(display);
		return;
	}
	display->resource = resource;
	wl_resource_set_user_data(resource, display);
	cordon_x11_display_v1_send_ready(resource, cordon_xwayland_socket_path(display->xwayland),
		cordon_xwayland_display_number(display->xwayland));
	log_display(display, "ready");
}

static void manager_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct cordon_x11_manager_v1_interface manager_impl = {
	.destroy = manager_handle_destroy,
	.create_display = manager_handle_create_display,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource =
		wl_resource_create(client, &cordon_x11_manager_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

struct cordon_x11_displays *cordon_x11_displays_create(struct cordon_server *server) {
	struct cordon_x11_displays *displays = calloc(1, sizeof(*displays));
	if (!displays) {
		return NULL;
	}
	displays->server = server;
	wl_list_init(&displays->displays);
	displays->global = wl_global_create(server->display, &cordon_x11_manager_v1_interface,
		MANAGER_VERSION, displays, manager_bind);
	if (!displays->global) {
		wlr_log(WLR_ERROR, "Cannot create the X display manager global");
		free(displays);
		return NULL;
	}
	return displays;
}

void cordon_x11_displays_destroy(struct cordon_x11_displays *displays) {
	if (!displays) {
		return;
	}
	struct x11_display *display, *tmp;
	wl_list_for_each_safe(display, tmp, &displays->displays, link) {
		display_destroy(display);
	}
	wl_global_destroy(displays->global);
	free(displays);
}

bool cordon_x11_displays_global_is_private(
	const struct cordon_x11_displays *displays, const struct wl_global *global) {
	if (!displays) {
		return false;
	}
	if (displays->creating_seat && wl_global_get_interface(global) == &wl_seat_interface) {
		return true;
	}
	const struct x11_display *display;
	wl_list_for_each(display, &displays->displays, link) {
		if (display->seat && display->seat->global == global) {
			return true;
		}
	}
	return false;
}

int cordon_x11_displays_count(const struct cordon_x11_displays *displays) {
	return displays ? count_displays(displays, NULL) : 0;
}
