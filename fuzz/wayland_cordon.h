/*
 * The cordon the Wayland fuzzer drives: one whole compositor in the fuzzer's own process
 * (headless, one output, pixman), made once and kept across inputs, whose event loop the
 * fuzzer turns by hand between steps. Sandboxed clients come in through security-context
 * listeners that a host client made through the protocol at start-up, as flatpak makes them.
 */
#ifndef CORDON_FUZZ_WAYLAND_CORDON_H
#define CORDON_FUZZ_WAYLAND_CORDON_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

/* Who a client is: the host, or one of two sandboxed apps (their listeners' tags). */
enum fuzz_sandbox {
	FUZZ_HOST,
	FUZZ_SANDBOX_A,
	FUZZ_SANDBOX_B,
	FUZZ_SANDBOX_COUNT,
};

struct fuzz_cordon;
struct fuzz_bus;

/* The compositor, made on the first call; aborts when it cannot be made. */
struct fuzz_cordon *fuzz_cordon_get(void);

/*
 * A new connection of this sandbox: the client's end of it (non-blocking), and the wl_client
 * cordon made for it in *wl_client; -1 when cordon took none.
 */
int fuzz_cordon_connect(
	struct fuzz_cordon *cordon, enum fuzz_sandbox sandbox, struct wl_client **wl_client);

/* Runs what is ready in cordon's event loop and flushes its events to the clients. */
void fuzz_cordon_dispatch(struct fuzz_cordon *cordon);
/* The same, waiting up to ms for something to be ready (a thread's or the portal's answer). */
void fuzz_cordon_wait(struct fuzz_cordon *cordon, int ms);

/* A paste or drop of files waits for its grants: the files' opening or the portal. */
bool fuzz_cordon_granting(struct fuzz_cordon *cordon);
/* The id the next transfer gets; whether a transfer from mark on was of files (a grant). */
uint64_t fuzz_cordon_transfer_mark(struct fuzz_cordon *cordon);
bool fuzz_cordon_granted_since(struct fuzz_cordon *cordon, uint64_t mark);
/* The session bus with the document portal (wayland_bus.h). */
struct fuzz_bus *fuzz_cordon_bus(struct fuzz_cordon *cordon);
/* The app id of a sandbox's listener (not of the host). */
const char *fuzz_cordon_app_id(enum fuzz_sandbox sandbox);

/* The path of cordon's control socket (what cordonctl talks to), and its scratch folder. */
const char *fuzz_cordon_control_path(struct fuzz_cordon *cordon);
const char *fuzz_cordon_scratch_dir(struct fuzz_cordon *cordon);

/*
 * Sends one control request (a JSON line, as cordonctl sends it) on a connection of its own
 * and turns the loop until the answer's line came: true then, with the answer in reply
 * (NUL-terminated, cut to size).
 */
bool fuzz_cordon_control(struct fuzz_cordon *cordon, const char *request, char *reply, size_t size);

/* The outputs cordon has now, and the name of the n-th (modulo their count; NULL for none). */
int fuzz_cordon_output_count(struct fuzz_cordon *cordon);
const char *fuzz_cordon_output_name(struct fuzz_cordon *cordon, unsigned n);
/*
 * Whether the output of that name is as cordon made it: on, WIDTHxHEIGHT at scale 1, not
 * rotated, at 0,0 of the layout. An input may switch it off (output power) or change it
 * (output management), which would outlive the input.
 */
bool fuzz_cordon_output_as_made(
	struct fuzz_cordon *cordon, const char *name, int width, int height);

/*
 * One above the highest global name cordon had given out when it was made. Later globals
 * (hot-plugged outputs') take new names as the process goes on, so an input that names a
 * global by number must stay below this to replay the same way.
 */
uint32_t fuzz_cordon_setup_global_limit(struct fuzz_cordon *cordon);

/* The seat's input, through cordon's own injection path (what cordonctl uses). */
void fuzz_cordon_pointer_to(struct fuzz_cordon *cordon, double x, double y);
/* Into the window that is n-th from the top (modulo the count), dx, dy from its corner. */
void fuzz_cordon_pointer_to_view(struct fuzz_cordon *cordon, unsigned n, int dx, int dy);
/*
 * Onto the n-th output cordon has (modulo their count; the desktop's first), x and y in 256ths
 * of its width and height.
 */
void fuzz_cordon_pointer_to_output(struct fuzz_cordon *cordon, unsigned n, uint8_t x, uint8_t y);
void fuzz_cordon_button(struct fuzz_cordon *cordon, uint32_t button, bool pressed);
void fuzz_cordon_key(struct fuzz_cordon *cordon, uint32_t keycode, bool pressed);
/*
 * A second passes for every window: cordon takes a press as the user's consent only on a
 * window shown for a while (input_router.c), which no window of an input that runs for a
 * millisecond would ever be.
 */
void fuzz_cordon_time_passes(struct fuzz_cordon *cordon);
/*
 * The clients that have the pointer (during a drag: the client under it, where a drop goes)
 * and the keyboard now (NULL for none).
 */
struct wl_client *fuzz_cordon_pointer_client(struct fuzz_cordon *cordon);
struct wl_client *fuzz_cordon_keyboard_client(struct fuzz_cordon *cordon);

/*
 * The number of fds the process has open now: those of wlroots' swapchains apart, in
 * *swapchain, and without the devices and data files libraries keep (wayland_cordon.c).
 */
int fuzz_cordon_fd_count(int *swapchain);

#endif
