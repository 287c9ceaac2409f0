/*
 * bad-client: breaks the protocol in one way, chosen by the mode, and checks
 * that the compositor answers as Wayland says it must: with a protocol error
 * and a disconnect, for this client alone.
 *
 *   unknown-object       a request on an object id that was never created
 *                        (written as raw wire bytes, as libwayland would refuse)
 *   invalid-enum         xdg_positioner.set_anchor(99)
 *   negative-size        xdg_positioner.set_size(-5, -5)
 *   invalid-resize-edge  xdg_toplevel.resize(edges = 99) on a configured toplevel
 *   popup-reposition-early  xdg_popup.reposition before the popup's first commit
 *   popup-grab-twice     xdg_popup.grab twice on one popup, then the popup destroyed
 *   popup-parent-self    xdg_surface.get_popup with the surface itself as the parent
 *
 * Prints "protocol-error interface=I code=C id=N" and exits 0 when it was
 * disconnected with a protocol error; prints "no-error" (still connected after
 * a round trip) or "disconnected ..." (closed without an error) and exits 1.
 */
#include "common.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define WIRE_TIMEOUT_MS 10000
#define BOGUS_OBJECT_ID 0x4242u

/* libwayland's wire format: object id, then message size << 16 | opcode, then arguments. */
static uint32_t wire_header(uint32_t size, uint16_t opcode) {
	return size << 16 | opcode;
}

static int connect_raw(void) {
	const char *display = getenv("WAYLAND_DISPLAY");
	if (!display) {
		display = "wayland-0";
	}
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int n;
	if (display[0] == '/') {
		n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", display);
	} else {
		const char *runtime = getenv("XDG_RUNTIME_DIR");
		if (!runtime) {
			tc_die("XDG_RUNTIME_DIR is not set");
		}
		n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", runtime, display);
	}
	if (n < 0 || (size_t)n >= sizeof(addr.sun_path)) {
		tc_die("the Wayland socket path is too long");
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		tc_die("socket: %s", strerror(errno));
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		tc_die("connect %s: %s", addr.sun_path, strerror(errno));
	}
	return fd;
}

static void write_all(int fd, const uint32_t *words, size_t count) {
	const char *p = (const char *)words;
	size_t left = count * sizeof(*words);
	while (left > 0) {
		ssize_t n = send(fd, p, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			tc_die("send: %s", strerror(errno));
		}
		p += n;
		left -= (size_t)n;
	}
}

struct wire_reader {
	int fd;
	uint32_t buf[1024];
	size_t len; /* bytes in buf */
	bool eof;
};

/* Reads more bytes; false on timeout. */
static bool wire_fill(struct wire_reader *r) {
	struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
	int n = poll(&pfd, 1, WIRE_TIMEOUT_MS);
	if (n <= 0) {
		return false;
	}
	if (r->len == sizeof(r->buf)) {
		tc_die("an event larger than %zu bytes", sizeof(r->buf));
	}
	ssize_t got = recv(r->fd, (char *)r->buf + r->len, sizeof(r->buf) - r->len, 0);
	if (got <= 0) {
		r->eof = true;
		return true;
	}
	r->len += (size_t)got;
	return true;
}

/* Waits for a whole message; returns its size in bytes, 0 at EOF or timeout. */
static uint32_t wire_next(struct wire_reader *r) {
	for (;;) {
		if (r->len >= 8) {
			uint32_t size = r->buf[1] >> 16;
			if (size < 8 || size % 4 != 0) {
				tc_die("malformed event header (size %u)", size);
			}
			if (r->len >= size) {
				return size;
			}
		}
		if (r->eof || !wire_fill(r)) {
			return 0;
		}
	}
}

static void wire_consume(struct wire_reader *r, uint32_t size) {
	memmove(r->buf, (char *)r->buf + size, r->len - size);
	r->len -= size;
}

static void print_display_error(const uint32_t *msg, uint32_t size) {
	/* wl_display.error(object_id: object, code: uint, message: string) */
	if (size < 20) {
		tc_die("truncated wl_display.error");
	}
	uint32_t length = msg[4];
	const char *text = (const char *)&msg[5];
	if (length == 0 || 20 + length > size) {
		text = "";
		length = 1;
	}
	tc_print("protocol-error interface=wl_display code=%u id=%u message=\"%.*s\"", msg[3],
		msg[2], (int)(length - 1), text);
}

static int run_unknown_object(void) {
	struct wire_reader r = {.fd = connect_raw()};

	/* First prove the connection works: wl_display(1).sync(new id 2). */
	uint32_t sync[] = {1, wire_header(12, 0), 2};
	write_all(r.fd, sync, 3);
	bool synced = false;
	while (!synced) {
		uint32_t size = wire_next(&r);
		if (size == 0) {
			tc_print("disconnected before the first sync");
			close(r.fd);
			return TC_EXIT_FAIL;
		}
		synced = r.buf[0] == 2 && (r.buf[1] & 0xffff) == 0; /* wl_callback.done */
		wire_consume(&r, size);
	}
	tc_print("sync-done");

	/* Opcode 0 on an id nobody created: the server cannot even tell its interface. */
	uint32_t bogus[] = {BOGUS_OBJECT_ID, wire_header(8, 0)};
	write_all(r.fd, bogus, 2);
	tc_print("sent object=%u opcode=0", BOGUS_OBJECT_ID);

	bool got_error = false;
	for (;;) {
		uint32_t size = wire_next(&r);
		if (size == 0) {
			break;
		}
		if (r.buf[0] == 1 && (r.buf[1] & 0xffff) == 0) {
			print_display_error(r.buf, size);
			got_error = true;
		}
		wire_consume(&r, size);
	}
	close(r.fd);
	if (!r.eof) {
		tc_print("no-error");
		return TC_EXIT_FAIL;
	}
	if (!got_error) {
		tc_print("disconnected without an error");
		return TC_EXIT_FAIL;
	}
	return TC_EXIT_OK;
}

/* Round-trips after the bad request and reports what the compositor did. */
static int expect_protocol_error(struct tc_client *client) {
	if (wl_display_roundtrip(client->display) >= 0) {
		tc_print("no-error");
		return TC_EXIT_FAIL;
	}
	return tc_report_disconnect(client) ? TC_EXIT_OK : TC_EXIT_FAIL;
}

static int run_positioner(bool negative_size) {
	struct tc_client *client = tc_client_connect();
	struct xdg_positioner *positioner = xdg_wm_base_create_positioner(client->wm_base);
	if (negative_size) {
		xdg_positioner_set_size(positioner, -5, -5);
	} else {
		xdg_positioner_set_anchor(positioner, 99);
	}
	int code = expect_protocol_error(client);
	xdg_positioner_destroy(positioner);
	tc_client_destroy(client);
	return code;
}

/*
 * A client with a seat and a configured toplevel, for the modes that misuse one; NULL
 * (reported) when the compositor disconnected it first.
 */
static struct tc_toplevel *configured_toplevel(struct tc_client *client, const char *needs) {
	if (!client->seat) {
		tc_die("%s needs a wl_seat, and the compositor has none", needs);
	}
	struct tc_toplevel *toplevel =
		tc_toplevel_create(client, "bad-client", 100, 100, 0xff000000);
	while (!toplevel->configured) {
		if (wl_display_dispatch(client->display) < 0) {
			tc_report_disconnect(client);
			tc_toplevel_destroy(toplevel);
			return NULL;
		}
	}
	return toplevel;
}

static int run_invalid_resize_edge(void) {
	struct tc_client *client = tc_client_connect();
	/* A resize before the first configure is an error of its own; wait for it. */
	struct tc_toplevel *toplevel = configured_toplevel(client, "xdg_toplevel.resize");
	if (!toplevel) {
		tc_client_destroy(client);
		return TC_EXIT_FAIL;
	}
	xdg_toplevel_resize(toplevel->xdg_toplevel, client->seat, 0, 99);
	int code = expect_protocol_error(client);
	tc_toplevel_destroy(toplevel);
	tc_client_destroy(client);
	return code;
}

/* A popup on a surface of its own, from a complete positioner. */
struct bad_popup {
	struct xdg_positioner *positioner;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_popup *popup;
};

/* parent: the parent's xdg_surface, or NULL; own_parent makes the popup its own parent. */
static void bad_popup_create(struct bad_popup *popup, struct tc_client *client,
	struct xdg_surface *parent, bool own_parent) {
	popup->positioner = xdg_wm_base_create_positioner(client->wm_base);
	xdg_positioner_set_size(popup->positioner, 10, 10);
	xdg_positioner_set_anchor_rect(popup->positioner, 0, 0, 1, 1);
	popup->surface = wl_compositor_create_surface(client->compositor);
	popup->xdg_surface = xdg_wm_base_get_xdg_surface(client->wm_base, popup->surface);
	popup->popup = xdg_surface_get_popup(
		popup->xdg_surface, own_parent ? popup->xdg_surface : parent, popup->positioner);
}

static void bad_popup_destroy(struct bad_popup *popup) {
	if (popup->popup) {
		xdg_popup_destroy(popup->popup);
	}
	xdg_surface_destroy(popup->xdg_surface);
	wl_surface_destroy(popup->surface);
	xdg_positioner_destroy(popup->positioner);
}

/*
 * xdg_popup.reposition before the popup's first commit: wlroots 0.20 aborts on it (the
 * Wayland fuzzer found it); cordon answers with a protocol error (request_guard.c).
 */
static int run_popup_reposition_early(void) {
	struct tc_client *client = tc_client_connect();
	struct bad_popup popup;
	bad_popup_create(&popup, client, NULL, false);
	xdg_popup_reposition(popup.popup, popup.positioner, 1);
	int code = expect_protocol_error(client);
	bad_popup_destroy(&popup);
	tc_client_destroy(client);
	return code;
}

/*
 * xdg_popup.grab twice on one popup: wlroots 0.20 puts the popup on the seat's grab list
 * twice, which leaves the list pointing at the popup once it is gone, and the next button
 * press anywhere on the desktop ends the grab through freed memory (found by the Wayland
 * fuzzer). cordon answers the second grab with a protocol error (request_guard.c).
 */
static int run_popup_grab_twice(void) {
	struct tc_client *client = tc_client_connect();
	struct tc_toplevel *toplevel = configured_toplevel(client, "xdg_popup.grab");
	if (!toplevel) {
		tc_client_destroy(client);
		return TC_EXIT_FAIL;
	}
	struct bad_popup popup;
	bad_popup_create(&popup, client, toplevel->xdg_surface, false);
	xdg_popup_grab(popup.popup, client->seat, 0);
	xdg_popup_grab(popup.popup, client->seat, 0);
	int code = expect_protocol_error(client);
	/* Taken anyway, the popup goes: what the grab list keeps of it is freed memory, which
	 * the test's next click reaches. */
	xdg_popup_destroy(popup.popup);
	popup.popup = NULL;
	wl_display_roundtrip(client->display);
	bad_popup_destroy(&popup);
	tc_toplevel_destroy(toplevel);
	tc_client_destroy(client);
	return code;
}

/*
 * A popup that is its own parent: wlroots 0.20 makes it, and walking up from it to its
 * toplevel never ends, which hung the compositor at the popup's first commit (found by the
 * Wayland fuzzer). cordon refuses the popup (request_guard.c).
 */
static int run_popup_parent_self(void) {
	struct tc_client *client = tc_client_connect();
	struct bad_popup popup;
	bad_popup_create(&popup, client, NULL, true);
	wl_surface_commit(popup.surface);
	int code = expect_protocol_error(client);
	bad_popup_destroy(&popup);
	tc_client_destroy(client);
	return code;
}

int main(int argc, char *argv[]) {
	if (argc != 2) {
		tc_die("usage: bad-client unknown-object|invalid-enum|negative-size|"
		       "invalid-resize-edge|popup-reposition-early|popup-grab-twice|"
		       "popup-parent-self");
	}
	const char *mode = argv[1];
	if (strcmp(mode, "unknown-object") == 0) {
		return run_unknown_object();
	}
	if (strcmp(mode, "invalid-enum") == 0) {
		return run_positioner(false);
	}
	if (strcmp(mode, "negative-size") == 0) {
		return run_positioner(true);
	}
	if (strcmp(mode, "invalid-resize-edge") == 0) {
		return run_invalid_resize_edge();
	}
	if (strcmp(mode, "popup-reposition-early") == 0) {
		return run_popup_reposition_early();
	}
	if (strcmp(mode, "popup-grab-twice") == 0) {
		return run_popup_grab_twice();
	}
	if (strcmp(mode, "popup-parent-self") == 0) {
		return run_popup_parent_self();
	}
	tc_die("bad-client: unknown mode \"%s\"", mode);
}
