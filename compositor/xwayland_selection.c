/*
 * The selections of a sandbox's X server. Its window manager (wlroots' xwm) works on a
 * private seat (x11_display.c) and mirrors whatever selection that seat holds into X, where
 * every X client of the sandbox may read it at any time, and turns every X client's
 * CLIPBOARD or PRIMARY ownership into a selection request on that seat. This bridge makes
 * both directions pass through the mediation (selection.c) exactly as a Wayland client of the
 * same sandbox would:
 *
 *  - In: when the mediation puts a view on the real seat for the X server (it has keyboard
 *    focus), the bridge puts a mirror of that view on the private seat. The view is made under
 *    the same rules as for a Wayland client: across a boundary only after a press in the X
 *    server's window, only the allowed types, the data through cordon's pipe, size-capped and
 *    logged. When the view goes (focus left, a new copy), the mirror goes with it, and X loses
 *    the selection: X clients of the sandbox can read the host's clipboard only while one of
 *    their windows has the keyboard after a press.
 *  - Out: an X client's new selection becomes the X server's source in the mediation only if
 *    the X server has keyboard focus and a press reached it in the last 10 s (the rule for a
 *    set_selection across a boundary); otherwise it is refused and logged, and the other
 *    side never sees it. X clients of the same server keep sharing it among themselves:
 *    that is the X server's own business.
 *
 * Drags: the private seat never starts one, so its window manager never joins a drag, and
 * no X client of the sandbox takes part in a drag across its boundary (docs/x11.md).
 */
#include "compositor/xwayland_selection.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <wlr/xwayland/server.h>
#include <wlr/xwayland/xwayland.h>

#include "compositor/seat.h"
#include "compositor/selection.h"
#include "compositor/server.h"
#include "compositor/xwayland.h"

struct cordon_x11_selection {
	struct cordon_server *server;
	struct cordon_xwayland *xwayland;
	struct wlr_seat *seat; /* the private one */
	/* The mirrors on the private seat now, or NULL. */
	struct clipboard_mirror *clipboard;
	struct primary_mirror *primary;
	struct wl_listener view_set; /* the mediation's, on the real seat */
	struct wl_listener request_set_selection; /* the private seat's */
	struct wl_listener set_primary_selection; /* the private seat's */
};

/* What a mirror knows, in both kinds. */
struct mirror_info {
	struct cordon_x11_selection *bridge;
	enum cordon_selection_kind kind;
	void *view; /* the mediation's view it mirrors; NULL once gone */
	struct wl_client *reader; /* the X server's Wayland client, the view's destination */
	struct wl_listener view_destroy;
};

struct clipboard_mirror {
	struct wlr_data_source base;
	struct mirror_info info;
};

struct primary_mirror {
	struct wlr_primary_selection_source base;
	struct mirror_info info;
};

static struct cordon_selection *mediation(struct cordon_x11_selection *bridge) {
	return bridge->server->seat->selection;
}

static uint32_t next_serial(struct cordon_x11_selection *bridge) {
	return wl_display_next_serial(bridge->server->display);
}

/* The window manager asks for data: the mediation serves the X server as the view's reader. */
static void mirror_send(struct mirror_info *info, const char *mime_type, int fd) {
	if (!info->view) {
		close(fd);
		return;
	}
	cordon_selection_view_send_to(
		mediation(info->bridge), info->kind, info->view, info->reader, mime_type, fd);
}

static void mirror_forget_view(struct mirror_info *info) {
	if (info->view) {
		wl_list_remove(&info->view_destroy.link);
		info->view = NULL;
	}
}

static void clipboard_mirror_send(
	struct wlr_data_source *source, const char *mime_type, int32_t fd) {
	mirror_send(&((struct clipboard_mirror *)source)->info, mime_type, fd);
}

static void clipboard_mirror_destroy(struct wlr_data_source *source) {
	struct clipboard_mirror *mirror = (struct clipboard_mirror *)source;
	mirror_forget_view(&mirror->info);
	if (mirror->info.bridge && mirror->info.bridge->clipboard == mirror) {
		mirror->info.bridge->clipboard = NULL;
	}
	free(mirror);
}

static const struct wlr_data_source_impl clipboard_mirror_impl = {
	.send = clipboard_mirror_send,
	.destroy = clipboard_mirror_destroy,
};

static void primary_mirror_send(
	struct wlr_primary_selection_source *source, const char *mime_type, int fd) {
	mirror_send(&((struct primary_mirror *)source)->info, mime_type, fd);
}

static void primary_mirror_destroy(struct wlr_primary_selection_source *source) {
	struct primary_mirror *mirror = (struct primary_mirror *)source;
	mirror_forget_view(&mirror->info);
	if (mirror->info.bridge && mirror->info.bridge->primary == mirror) {
		mirror->info.bridge->primary = NULL;
	}
	free(mirror);
}

static const struct wlr_primary_selection_source_impl primary_mirror_impl = {
	.send = primary_mirror_send,
	.destroy = primary_mirror_destroy,
};

/* Empties one selection of the private seat (wlroots destroys what it held). */
static void clear_private(struct cordon_x11_selection *bridge, enum cordon_selection_kind kind) {
	if (kind == CORDON_SELECTION_PRIMARY) {
		wlr_seat_set_primary_selection(bridge->seat, NULL, next_serial(bridge));
	} else {
		wlr_seat_set_selection(bridge->seat, NULL, next_serial(bridge));
	}
}

/* The mediation withdrew the view: X loses the selection with it. */
static void handle_view_destroy(struct wl_listener *listener, void *data) {
	struct mirror_info *info = wl_container_of(listener, info, view_destroy);
	struct cordon_x11_selection *bridge = info->bridge;
	enum cordon_selection_kind kind = info->kind;
	mirror_forget_view(info);
	bool on_seat = kind == CORDON_SELECTION_PRIMARY
		? bridge->primary && &bridge->primary->info == info
		: bridge->clipboard && &bridge->clipboard->info == info;
	if (on_seat) {
		clear_private(bridge, kind);
	}
}

static bool copy_types(struct wl_array *to, const struct wl_array *from) {
	char **type;
	wl_array_for_each(type, from) {
		char **entry = wl_array_add(to, sizeof(*entry));
		if (!entry) {
			return false;
		}
		*entry = strdup(*type);
		if (!*entry) {
			to->size -= sizeof(*entry);
			return false;
		}
	}
	return true;
}

static void mirror_init(struct mirror_info *info, struct cordon_x11_selection *bridge,
	const struct cordon_selection_view_event *event, struct wl_signal *view_destroy) {
	info->bridge = bridge;
	info->kind = event->kind;
	info->view = event->view;
	info->reader = event->destination;
	info->view_destroy.notify = handle_view_destroy;
	wl_signal_add(view_destroy, &info->view_destroy);
}

static void mirror_clipboard(
	struct cordon_x11_selection *bridge, const struct cordon_selection_view_event *event) {
	struct wlr_data_source *view = event->view;
	struct clipboard_mirror *mirror = calloc(1, sizeof(*mirror));
	if (!mirror) {
		return;
	}
	wlr_data_source_init(&mirror->base, &clipboard_mirror_impl);
	mirror_init(&mirror->info, bridge, event, &view->events.destroy);
	if (!copy_types(&mirror->base.mime_types, &view->mime_types)) {
		wlr_data_source_destroy(&mirror->base);
		return;
	}
	/* Replaces (and destroys) what the private seat held; then the mirror is current. */
	wlr_seat_set_selection(bridge->seat, &mirror->base, next_serial(bridge));
	bridge->clipboard = mirror;
}

static void mirror_primary(
	struct cordon_x11_selection *bridge, const struct cordon_selection_view_event *event) {
	struct wlr_primary_selection_source *view = event->view;
	struct primary_mirror *mirror = calloc(1, sizeof(*mirror));
	if (!mirror) {
		return;
	}
	wlr_primary_selection_source_init(&mirror->base, &primary_mirror_impl);
	mirror_init(&mirror->info, bridge, event, &view->events.destroy);
	if (!copy_types(&mirror->base.mime_types, &view->mime_types)) {
		wlr_primary_selection_source_destroy(&mirror->base);
		return;
	}
	/* Set before it is current: the seat's signal tells set_primary_selection it is ours. */
	bridge->primary = mirror;
	wlr_seat_set_primary_selection(bridge->seat, &mirror->base, next_serial(bridge));
}

/*
 * The mediation made a view for the focused client. For this X server, it goes to X too;
 * unless the selection is the X server's own (it is on the private seat already, and a
 * mirror would take X's ownership away from the X client that holds it).
 */
static void handle_view_set(struct wl_listener *listener, void *data) {
	struct cordon_x11_selection *bridge = wl_container_of(listener, bridge, view_set);
	const struct cordon_selection_view_event *event = data;
	if (!event->destination || event->from_destination ||
		cordon_xwayland_from_client(bridge->server, event->destination) !=
			bridge->xwayland) {
		return;
	}
	if (event->kind == CORDON_SELECTION_PRIMARY) {
		mirror_primary(bridge, event);
	} else if (event->kind == CORDON_SELECTION_CLIPBOARD) {
		mirror_clipboard(bridge, event);
	}
}

/* The X server's Wayland client, or NULL while its process does not run. */
static struct wl_client *x_server_client(struct cordon_x11_selection *bridge) {
	struct wlr_xwayland *wlr_xwayland = cordon_xwayland_get_wlr(bridge->xwayland);
	return wlr_xwayland && wlr_xwayland->server ? wlr_xwayland->server->client : NULL;
}

/* An X client took CLIPBOARD: the window manager offers its source. */
static void handle_request_set_selection(struct wl_listener *listener, void *data) {
	struct cordon_x11_selection *bridge =
		wl_container_of(listener, bridge, request_set_selection);
	const struct wlr_seat_request_set_selection_event *event = data;
	if (!event->source) {
		/* The X owner went: as for a Wayland client, a clear is ignored. */
		return;
	}
	struct wlr_data_source *source = event->source;
	if (!cordon_selection_set_from_x11(mediation(bridge), CORDON_SELECTION_CLIPBOARD, source,
		    x_server_client(bridge), cordon_xwayland_tag(bridge->xwayland))) {
		return; /* destroyed by the mediation, refusal logged */
	}
	/*
	 * Also on the private seat: the window manager then knows it as current, and when the
	 * X server ends it withdraws it (the mediation forgets it on its destroy signal).
	 */
	wlr_seat_set_selection(bridge->seat, source, next_serial(bridge));
}

/* An X client took PRIMARY: wlroots' window manager sets it on the seat without asking. */
static void handle_set_primary_selection(struct wl_listener *listener, void *data) {
	struct cordon_x11_selection *bridge =
		wl_container_of(listener, bridge, set_primary_selection);
	struct wlr_primary_selection_source *source = bridge->seat->primary_selection_source;
	if (!source || (bridge->primary && source == &bridge->primary->base)) {
		return;
	}
	/* Refused: the mediation destroys it, and the seat lets go of it on its destroy signal. */
	cordon_selection_set_from_x11(mediation(bridge), CORDON_SELECTION_PRIMARY, source,
		x_server_client(bridge), cordon_xwayland_tag(bridge->xwayland));
}

struct cordon_x11_selection *cordon_x11_selection_create(
	struct cordon_server *server, struct cordon_xwayland *xwayland, struct wlr_seat *seat) {
	struct cordon_x11_selection *bridge = calloc(1, sizeof(*bridge));
	if (!bridge) {
		return NULL;
	}
	bridge->server = server;
	bridge->xwayland = xwayland;
	bridge->seat = seat;
	bridge->view_set.notify = handle_view_set;
	cordon_selection_add_view_listener(server->seat->selection, &bridge->view_set);
	bridge->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&seat->events.request_set_selection, &bridge->request_set_selection);
	bridge->set_primary_selection.notify = handle_set_primary_selection;
	wl_signal_add(&seat->events.set_primary_selection, &bridge->set_primary_selection);
	return bridge;
}

void cordon_x11_selection_destroy(struct cordon_x11_selection *bridge) {
	if (!bridge) {
		return;
	}
	wl_list_remove(&bridge->view_set.link);
	wl_list_remove(&bridge->request_set_selection.link);
	wl_list_remove(&bridge->set_primary_selection.link);
	/* Mirrors and the X server's own sources alike: the mediation forgets the latter. */
	clear_private(bridge, CORDON_SELECTION_CLIPBOARD);
	clear_private(bridge, CORDON_SELECTION_PRIMARY);
	free(bridge);
}
