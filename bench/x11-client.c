/*
 * x11-client: the X11 client of bench/run's scenario (k), with xcb only.
 *
 *	x11-client first-frame HOLD_SECONDS
 *		connects (which starts a lazy Xwayland), maps a 400x300 window and waits for its
 *		first Expose, the X server's word that the window is shown; prints the
 *		microseconds from the start of main to it, then keeps the window HOLD_SECONDS (an
 *		Xwayland started with -terminate would go with its last client)
 *	x11-client animate SECONDS
 *		maps a 400x300 window and repaints all of it in alternating colours at 60 frames a
 *		second for SECONDS; each frame is flushed and confirmed with a round trip, so the
 *		X server has it before the next. Prints "start" when the first frame is drawn and
 *		"frames N" at the end: the caller reads the compositor's CPU time at both (the
 *		compositor may be out of this client's sight, in a sandbox's pid namespace).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcb.h>

static int64_t now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct window {
	xcb_connection_t *conn;
	xcb_screen_t *screen;
	xcb_window_t id;
	xcb_gcontext_t gc;
};

static int open_window(struct window *w) {
	w->conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(w->conn)) {
		fprintf(stderr, "x11-client: cannot connect to the X server\n");
		return -1;
	}
	w->screen = xcb_setup_roots_iterator(xcb_get_setup(w->conn)).data;
	w->id = xcb_generate_id(w->conn);
	uint32_t values[] = {w->screen->white_pixel, XCB_EVENT_MASK_EXPOSURE};
	xcb_create_window(w->conn, XCB_COPY_FROM_PARENT, w->id, w->screen->root, 0, 0, 400, 300, 0,
		XCB_WINDOW_CLASS_INPUT_OUTPUT, w->screen->root_visual,
		XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
	w->gc = xcb_generate_id(w->conn);
	xcb_create_gc(w->conn, w->gc, w->id, 0, NULL);
	xcb_map_window(w->conn, w->id);
	xcb_flush(w->conn);
	return 0;
}

static int wait_expose(struct window *w) {
	xcb_generic_event_t *event;
	while ((event = xcb_wait_for_event(w->conn))) {
		int type = event->response_type & ~0x80;
		free(event);
		if (type == XCB_EXPOSE) {
			return 0;
		}
	}
	fprintf(stderr, "x11-client: the X server went away before the first Expose\n");
	return -1;
}

static int first_frame(int hold_seconds) {
	int64_t start = now_us();
	struct window w;
	if (open_window(&w) < 0 || wait_expose(&w) < 0) {
		return 1;
	}
	printf("%lld\n", (long long)(now_us() - start));
	fflush(stdout);
	sleep((unsigned)hold_seconds);
	xcb_disconnect(w.conn);
	return 0;
}

static int animate(int seconds) {
	struct window w;
	if (open_window(&w) < 0 || wait_expose(&w) < 0) {
		return 1;
	}
	printf("start\n");
	fflush(stdout);
	int64_t start = now_us(), frame_us = 1000000 / 60;
	int frames = 0;
	xcb_rectangle_t all = {0, 0, 400, 300};
	while (now_us() - start < (int64_t)seconds * 1000000) {
		uint32_t color = frames % 2 ? 0xff3060c0 : 0xffc06030;
		xcb_change_gc(w.conn, w.gc, XCB_GC_FOREGROUND, &color);
		xcb_poly_fill_rectangle(w.conn, w.id, w.gc, 1, &all);
		free(xcb_get_input_focus_reply(w.conn, xcb_get_input_focus(w.conn), NULL));
		frames++;
		int64_t next = start + (int64_t)frames * frame_us, now = now_us();
		if (next > now) {
			usleep((useconds_t)(next - now));
		}
	}
	printf("frames %d\n", frames);
	fflush(stdout);
	xcb_disconnect(w.conn);
	return 0;
}

int main(int argc, char *argv[]) {
	if (argc == 3 && strcmp(argv[1], "first-frame") == 0) {
		return first_frame(atoi(argv[2]));
	}
	if (argc == 3 && strcmp(argv[1], "animate") == 0) {
		return animate(atoi(argv[2]));
	}
	fprintf(stderr, "usage: x11-client first-frame HOLD_SECONDS | animate SECONDS\n");
	return 2;
}
