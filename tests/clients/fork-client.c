/*
 * fork-client: connects to the compositor, does a round trip, then forks. The child
 * starts a session of its own (so that nothing but the parent holds the parent's pid,
 * which can then be reused once the parent is gone), keeps the connection and
 * dispatches until the compositor ends it or SIGTERM arrives. The parent prints
 * "connected pid=P child=C" and exits at once.
 *
 * For the pid-reuse test: the compositor must keep the tag it took from the parent at
 * connect, while another process gets the parent's pid.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"

int main(int argc, char **argv) {
	if (argc != 1) {
		tc_die("usage: fork-client");
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		tc_die("cannot connect to the Wayland display");
	}
	if (wl_display_roundtrip(display) < 0) {
		tc_die("round trip failed");
	}
	pid_t child = fork();
	if (child < 0) {
		tc_die("fork: %s", strerror(errno));
	}
	if (child == 0) {
		setsid();
		while (wl_display_dispatch(display) >= 0) {
		}
		_exit(0);
	}
	tc_print("connected pid=%d child=%d", (int)getpid(), (int)child);
	/* Not wl_display_disconnect: the child keeps the connection. */
	return TC_EXIT_OK;
}
