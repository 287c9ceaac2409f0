/* Shared plumbing for cordon's test clients: globals, shm buffers, a toplevel, a timed loop. */
#ifndef CORDON_TESTS_CLIENTS_COMMON_H
#define CORDON_TESTS_CLIENTS_COMMON_H

#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

/*
 * Exit codes shared by the clients, so that a test can tell "the condition
 * was not met" from "the compositor went away" from "could not even start".
 */
enum tc_exit {
	TC_EXIT_OK = 0,
	TC_EXIT_FAIL = 1, /* the expected condition did not happen */
	TC_EXIT_USAGE = 2, /* bad arguments or no compositor */
	TC_EXIT_TIMEOUT = 3, /* --timeout ran out */
};

struct tc_client {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat; /* NULL when the compositor has none */
	struct zwp_idle_inhibit_manager_v1 *idle_inhibit_manager; /* NULL when not offered */
	uint32_t seat_caps; /* enum wl_seat_capability */
	struct wl_list buffers; /* tc_buffer.link, still held by the compositor */
	bool quit; /* set by a handler to end tc_run */
};

struct tc_toplevel;
typedef void (*tc_configure_func)(struct tc_toplevel *toplevel, void *data);

struct tc_toplevel {
	struct tc_client *client;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *xdg_toplevel;
	uint32_t color; /* ARGB8888 */
	int32_t width, height; /* size of the buffer committed last */
	int32_t pending_width, pending_height; /* from xdg_toplevel.configure; 0: ours to pick */
	bool configured; /* a first configure was acked and a buffer committed */
	tc_configure_func on_configure; /* after each configure was answered; may be NULL */
	void *data;
};

struct tc_input;
typedef void (*tc_button_func)(
	struct tc_input *input, uint32_t serial, uint32_t button, uint32_t state);
typedef void (*tc_key_func)(struct tc_input *input, uint32_t key, uint32_t state);

/*
 * The seat's pointer and, unless the client handles its own, keyboard. Prints
 * "enter x=X y=Y", "leave", "button name=N code=C state=S serial=N",
 * "axis axis=A value=V", "keyboard-enter", "keyboard-leave",
 * "key code=C state=S" and "repeat-info rate=R delay=D".
 */
struct tc_input {
	struct tc_client *client;
	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard; /* NULL when the client made its own */
	struct wl_surface *pointer_focus;
	tc_button_func on_button; /* after the line is printed; may be NULL */
	tc_key_func on_key; /* after the line is printed; may be NULL */
	void *data;
};

/* Prints one line to stdout and flushes it, so tests can follow the log live. */
void tc_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints to stderr and exits with TC_EXIT_USAGE. */
void tc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Connects to $WAYLAND_DISPLAY and binds the globals; dies without wl_compositor,
 * wl_shm or xdg_wm_base. */
struct tc_client *tc_client_connect(void);
void tc_client_destroy(struct tc_client *client);

/*
 * Dispatches events until a handler sets client->quit (returns 0), timeout_ms
 * passes (returns 1; a negative timeout waits forever) or the connection
 * fails (returns -1, see tc_report_disconnect).
 */
int tc_run(struct tc_client *client, int timeout_ms);

/*
 * After tc_run returned -1: prints "protocol-error interface=I code=C id=N" for a
 * protocol error, else "disconnected errno=E". Returns true for a protocol error.
 */
bool tc_report_disconnect(struct tc_client *client);

/*
 * The exit code for tc_run's result: TC_EXIT_OK when a handler quit,
 * TC_EXIT_TIMEOUT, or TC_EXIT_FAIL after reporting the disconnect.
 */
int tc_exit_code(struct tc_client *client, int run_result);

/* A buffer of one colour; freed when the compositor releases it or with the client. */
struct wl_buffer *tc_buffer_create(
	struct tc_client *client, int32_t width, int32_t height, uint32_t argb);

/*
 * A toplevel that answers every configure: it acks, picks the suggested size
 * (or keeps its own when 0), commits a solid buffer of that size and prints
 * "configure width=W height=H states=S" with what the compositor sent.
 */
struct tc_toplevel *tc_toplevel_create(
	struct tc_client *client, const char *app_id, int32_t width, int32_t height, uint32_t argb);
void tc_toplevel_destroy(struct tc_toplevel *toplevel);

/* Dies when the seat lacks a pointer (or a keyboard, when with_keyboard is set). */
struct tc_input *tc_input_create(struct tc_client *client, bool with_keyboard);
void tc_input_destroy(struct tc_input *input);
/* The name used in "button name=..." lines: left, right, middle or "other". */
const char *tc_button_name(uint32_t button);

/* Parses a decimal int in [min, max]; dies naming the option otherwise. */
/* The options every test client takes: --app-id, --width, --height, --timeout. */
struct tc_window_options {
	const char *app_id;
	int width, height;
	int timeout; /* seconds */
};

#define TC_WINDOW_LONG_OPTIONS                                                                     \
	{"app-id", required_argument, NULL, 'a'}, {"width", required_argument, NULL, 'w'},         \
		{"height", required_argument, NULL, 'h'},                                          \
		{"timeout", required_argument, NULL, 't'}

/* Applies one of those options; false when opt is not one of them. */
bool tc_window_option(int opt, const char *arg, struct tc_window_options *options);

int tc_parse_int(const char *option, const char *value, int min, int max);

/* Milliseconds from a --timeout value in seconds (0: forever, -1). */
int tc_timeout_ms(int seconds);

#endif
