// bench-client: the small Wayland clients bench/run drives.
//
//   bench-client first-frame OUTFILE   map a 200x200 toplevel, wait for its first frame
//                                      callback, write CLOCK_REALTIME ns to OUTFILE, exit
//   bench-client storm N               N times: connect, get the registry, roundtrip,
//                                      disconnect; prints the total in ms
//   bench-client idle N READYFILE      N connections, each maps a 200x200 toplevel once;
//                                      after every first frame callback, touch READYFILE
//                                      and stay idle until killed (blocked in poll,
//                                      answering pings, never redrawing)
//   bench-client many N SECONDS PID    N mapped 200x200 toplevels on one connection; the
//                                      last one animates (a changed full buffer per frame
//                                      callback) for SECONDS; prints "FPS CPU_MS_PER_FRAME"
//   bench-client commit SECONDS PID    one fullscreen toplevel committing full-size shm
//                                      buffers paced by frame callbacks; prints
//                                      "FPS CPU_MS_PER_FRAME WxH" where CPU is utime+stime
//                                      of PID (the compositor) over the window
//
// The socket: $WAYLAND_DISPLAY when set, else the first wayland-* socket in
// $XDG_RUNTIME_DIR; connecting is retried for 20 s so the client can be started
// together with the compositor.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

static void die(const char *msg) {
	fprintf(stderr, "bench-client: %s\n", msg);
	exit(1);
}

static int64_t now_ns(clockid_t clk) {
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct wl_display *try_connect(void) {
	if (getenv("WAYLAND_DISPLAY")) {
		return wl_display_connect(NULL);
	}
	const char *dir = getenv("XDG_RUNTIME_DIR");
	if (!dir) {
		die("XDG_RUNTIME_DIR is not set");
	}
	DIR *d = opendir(dir);
	if (!d) {
		return NULL;
	}
	struct wl_display *display = NULL;
	struct dirent *e;
	while (!display && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "wayland-", 8) == 0 &&
			(n < 5 || strcmp(e->d_name + n - 5, ".lock") != 0)) {
			display = wl_display_connect(e->d_name);
		}
	}
	closedir(d);
	return display;
}

static struct wl_display *connect_wait(void) {
	int64_t deadline = now_ns(CLOCK_MONOTONIC) + 20 * 1000000000LL;
	for (;;) {
		struct wl_display *display = try_connect();
		if (display) {
			return display;
		}
		if (now_ns(CLOCK_MONOTONIC) > deadline) {
			die("could not connect within 20 s");
		}
		usleep(1000);
	}
}

struct buffer {
	struct wl_buffer *wl;
	void *data;
	bool busy;
};

struct conn {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured, closed;
	int conf_w, conf_h;
	bool frame_done;
	struct buffer buffers[3];
	int width, height;
};

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial) {
	(void)data;
	xdg_wm_base_pong(wm, serial);
}
static const struct xdg_wm_base_listener wm_listener = {.ping = wm_ping};

static void reg_global(
	void *data, struct wl_registry *reg, uint32_t name, const char *iface, uint32_t version) {
	(void)version;
	struct conn *c = data;
	if (!c) {
		return;
	}
	if (strcmp(iface, wl_compositor_interface.name) == 0) {
		c->compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	} else if (strcmp(iface, wl_shm_interface.name) == 0) {
		c->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	} else if (strcmp(iface, xdg_wm_base_interface.name) == 0) {
		c->wm_base = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm_base, &wm_listener, c);
	}
}
static void reg_remove(void *data, struct wl_registry *reg, uint32_t name) {
	(void)data, (void)reg, (void)name;
}
static const struct wl_registry_listener reg_listener = {reg_global, reg_remove};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial) {
	struct conn *c = data;
	xdg_surface_ack_configure(xs, serial);
	c->configured = true;
}
static const struct xdg_surface_listener xs_listener = {.configure = xs_configure};

static void tl_configure(
	void *data, struct xdg_toplevel *t, int32_t w, int32_t h, struct wl_array *states) {
	(void)t, (void)states;
	struct conn *c = data;
	c->conf_w = w;
	c->conf_h = h;
}
static void tl_close(void *data, struct xdg_toplevel *t) {
	(void)t;
	((struct conn *)data)->closed = true;
}
static const struct xdg_toplevel_listener tl_listener = {
	.configure = tl_configure,
	.close = tl_close,
};

static void buf_release(void *data, struct wl_buffer *b) {
	(void)b;
	((struct buffer *)data)->busy = false;
}
static const struct wl_buffer_listener buf_listener = {buf_release};

static void frame_done(void *data, struct wl_callback *cb, uint32_t t) {
	(void)t;
	((struct conn *)data)->frame_done = true;
	wl_callback_destroy(cb);
}
static const struct wl_callback_listener frame_listener = {frame_done};

// Connects and maps a toplevel (not yet committed with a buffer).
static void conn_open(struct conn *c, bool fullscreen) {
	memset(c, 0, sizeof(*c));
	c->display = connect_wait();
	struct wl_registry *reg = wl_display_get_registry(c->display);
	wl_registry_add_listener(reg, &reg_listener, c);
	wl_display_roundtrip(c->display);
	if (!c->compositor || !c->shm || !c->wm_base) {
		die("compositor lacks wl_compositor, wl_shm or xdg_wm_base");
	}
	c->surface = wl_compositor_create_surface(c->compositor);
	c->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, c->surface);
	xdg_surface_add_listener(c->xdg_surface, &xs_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_add_listener(c->toplevel, &tl_listener, c);
	xdg_toplevel_set_title(c->toplevel, "bench-client");
	if (fullscreen) {
		xdg_toplevel_set_fullscreen(c->toplevel, NULL);
	}
	wl_surface_commit(c->surface);
	while (!c->configured) {
		if (wl_display_dispatch(c->display) < 0) {
			die("connection lost before the first configure");
		}
	}
}

static void conn_buffers(struct conn *c, int w, int h, int count) {
	c->width = w;
	c->height = h;
	int stride = w * 4;
	size_t size = (size_t)stride * h;
	int fd = memfd_create("bench-client", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(size * count)) < 0) {
		die("memfd");
	}
	uint8_t *data = mmap(NULL, size * count, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED) {
		die("mmap");
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int32_t)(size * count));
	for (int i = 0; i < count; i++) {
		struct buffer *b = &c->buffers[i];
		b->data = data + size * i;
		memset(b->data, 0x40 + 0x30 * i, size);
		b->wl = wl_shm_pool_create_buffer(
			pool, (int32_t)(size * i), w, h, stride, WL_SHM_FORMAT_XRGB8888);
		wl_buffer_add_listener(b->wl, &buf_listener, b);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
}

static void conn_present(struct conn *c, struct buffer *b) {
	b->busy = true;
	c->frame_done = false;
	wl_surface_attach(c->surface, b->wl, 0, 0);
	wl_surface_damage_buffer(c->surface, 0, 0, c->width, c->height);
	struct wl_callback *cb = wl_surface_frame(c->surface);
	wl_callback_add_listener(cb, &frame_listener, c);
	wl_surface_commit(c->surface);
}

// Opens a toplevel on an existing connection (for many windows on one connection).
static void conn_open_on(struct conn *c, const struct conn *first) {
	memset(c, 0, sizeof(*c));
	c->display = first->display;
	c->compositor = first->compositor;
	c->shm = first->shm;
	c->wm_base = first->wm_base;
	c->surface = wl_compositor_create_surface(c->compositor);
	c->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, c->surface);
	xdg_surface_add_listener(c->xdg_surface, &xs_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_add_listener(c->toplevel, &tl_listener, c);
	xdg_toplevel_set_title(c->toplevel, "bench-client");
	wl_surface_commit(c->surface);
	while (!c->configured) {
		if (wl_display_dispatch(c->display) < 0) {
			die("connection lost before the first configure");
		}
	}
}

static void wait_frame(struct conn *c) {
	while (!c->frame_done) {
		if (wl_display_dispatch(c->display) < 0) {
			die("connection lost");
		}
	}
}

static struct buffer *free_buffer(struct conn *c, int count) {
	for (;;) {
		for (int i = 0; i < count; i++) {
			if (!c->buffers[i].busy) {
				return &c->buffers[i];
			}
		}
		if (wl_display_dispatch(c->display) < 0) {
			die("connection lost");
		}
	}
}

static int first_frame(const char *outfile) {
	struct conn c;
	conn_open(&c, false);
	conn_buffers(&c, 200, 200, 1);
	conn_present(&c, &c.buffers[0]);
	wait_frame(&c);
	int64_t t = now_ns(CLOCK_REALTIME);
	FILE *f = fopen(outfile, "w");
	if (!f) {
		die("cannot write the output file");
	}
	fprintf(f, "%lld\n", (long long)t);
	fclose(f);
	wl_display_disconnect(c.display);
	return 0;
}

static int storm(int n) {
	// Wait for the compositor before starting the clock.
	wl_display_disconnect(connect_wait());
	int64_t t0 = now_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < n; i++) {
		struct wl_display *d = try_connect();
		if (!d) {
			die("connect failed during the storm");
		}
		struct wl_registry *reg = wl_display_get_registry(d);
		wl_registry_add_listener(reg, &reg_listener, NULL);
		if (wl_display_roundtrip(d) < 0) {
			die("roundtrip failed during the storm");
		}
		wl_registry_destroy(reg);
		wl_display_disconnect(d);
	}
	printf("%.1f\n", (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e6);
	return 0;
}

// Until killed: sleeps in poll() on every connection and answers what the compositor
// sends (pings, configures) as an idle client would, without ever redrawing. No timer:
// a compositor's wake-ups while its clients are idle (scenario j) are its own.
static void idle_wait(struct conn *cs, int n) {
	struct pollfd *fds = calloc((size_t)n, sizeof(*fds));
	if (!fds) {
		die("out of memory");
	}
	for (;;) {
		for (int i = 0; i < n; i++) {
			while (wl_display_prepare_read(cs[i].display) != 0) {
				wl_display_dispatch_pending(cs[i].display);
			}
			wl_display_flush(cs[i].display);
			fds[i] = (struct pollfd){
				.fd = wl_display_get_fd(cs[i].display), .events = POLLIN};
		}
		if (poll(fds, (nfds_t)n, -1) < 0 && errno != EINTR) {
			die("poll");
		}
		for (int i = 0; i < n; i++) {
			if (!fds[i].revents) {
				wl_display_cancel_read(cs[i].display);
			} else if (wl_display_read_events(cs[i].display) < 0) {
				die("connection lost");
			}
			wl_display_dispatch_pending(cs[i].display);
		}
	}
}

static int idle(int n, const char *readyfile) {
	struct conn *cs = calloc((size_t)n, sizeof(*cs));
	if (!cs) {
		die("out of memory");
	}
	for (int i = 0; i < n; i++) {
		conn_open(&cs[i], false);
		conn_buffers(&cs[i], 200, 200, 1);
		conn_present(&cs[i], &cs[i].buffers[0]);
		wait_frame(&cs[i]);
	}
	int fd = open(readyfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		die("cannot write the ready file");
	}
	close(fd);
	idle_wait(cs, n);
	return 0;
}

static int64_t cpu_ticks(int pid) {
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		die("cannot read the compositor's /proc/PID/stat");
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		die("empty /proc/PID/stat");
	}
	buf[n] = 0;
	// Fields after the command name, which ends with the last ')'.
	char *p = strrchr(buf, ')');
	if (!p) {
		die("unexpected /proc/PID/stat");
	}
	p += 2; // field 3 (state)
	long long utime = 0, stime = 0;
	// state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
	if (sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &utime, &stime) !=
		2) {
		die("cannot parse /proc/PID/stat");
	}
	return utime + stime;
}

// Changes one pixel: nothing can be skipped as unchanged, damage stays full.
static void paint_pixel(struct conn *c, struct buffer *b, long frame) {
	((uint32_t *)b->data)[frame % ((size_t)c->width * c->height)] ^= 0x00ffffff;
}

// A new colour over the whole buffer.
static void paint_fill(struct conn *c, struct buffer *b, long frame) {
	memset(b->data, (int)(frame & 0xff), (size_t)c->width * c->height * 4);
}

// Presents a repainted buffer (of 3) per frame callback for SECONDS after 10 warm-up
// frames; *fps and *cpu_ms (compositor PID's utime+stime per frame) over that window.
static void animate(struct conn *c, double seconds, int pid,
	void (*paint)(struct conn *, struct buffer *, long), double *fps, double *cpu_ms) {
	long frames = 0;
	int64_t t0 = 0, cpu0 = 0;
	int warm = 10;
	for (;;) {
		struct buffer *b = free_buffer(c, 3);
		paint(c, b, frames);
		conn_present(c, b);
		wait_frame(c);
		if (warm > 0) {
			if (--warm == 0) {
				t0 = now_ns(CLOCK_MONOTONIC);
				cpu0 = cpu_ticks(pid);
			}
			continue;
		}
		frames++;
		double elapsed = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
		if (elapsed >= seconds) {
			double ms = (double)(cpu_ticks(pid) - cpu0) * 1000.0 /
				(double)sysconf(_SC_CLK_TCK);
			*fps = (double)frames / elapsed;
			*cpu_ms = ms / (double)frames;
			return;
		}
	}
}

static int commit(double seconds, int pid) {
	struct conn c;
	conn_open(&c, true);
	// A fullscreen configure carries the output size; wait for a non-zero one.
	// Some compositors apply the fullscreen request only once the window is mapped:
	// then map it with a small buffer first and wait for the fullscreen configure.
	if (c.conf_w <= 0 || c.conf_h <= 0) {
		conn_buffers(&c, 16, 16, 1);
		conn_present(&c, &c.buffers[0]);
		int64_t deadline = now_ns(CLOCK_MONOTONIC) + 5000000000LL;
		while ((c.conf_w <= 0 || c.conf_h <= 0) && now_ns(CLOCK_MONOTONIC) < deadline) {
			wl_display_roundtrip(c.display);
			usleep(1000);
		}
		wl_buffer_destroy(c.buffers[0].wl);
	}
	if (c.conf_w <= 0 || c.conf_h <= 0) {
		die("no fullscreen size in the configure");
	}
	conn_buffers(&c, c.conf_w, c.conf_h, 3);
	double fps, cpu_ms;
	animate(&c, seconds, pid, paint_pixel, &fps, &cpu_ms);
	printf("%.1f %.3f %dx%d\n", fps, cpu_ms, c.width, c.height);
	wl_display_disconnect(c.display);
	return 0;
}

static int many(int n, double seconds, int pid) {
	if (n < 1) {
		die("many needs at least one window");
	}
	struct conn *cs = calloc((size_t)n, sizeof(*cs));
	if (!cs) {
		die("out of memory");
	}
	conn_open(&cs[0], false);
	for (int i = 1; i < n; i++) {
		conn_open_on(&cs[i], &cs[0]);
	}
	for (int i = 0; i < n; i++) {
		conn_buffers(&cs[i], 200, 200, i == n - 1 ? 3 : 1);
		conn_present(&cs[i], &cs[i].buffers[0]);
		wait_frame(&cs[i]);
	}
	double fps, cpu_ms;
	animate(&cs[n - 1], seconds, pid, paint_fill, &fps, &cpu_ms);
	printf("%.1f %.3f\n", fps, cpu_ms);
	wl_display_disconnect(cs[0].display);
	free(cs);
	return 0;
}

int main(int argc, char **argv) {
	if (argc >= 3 && strcmp(argv[1], "first-frame") == 0) {
		return first_frame(argv[2]);
	}
	if (argc >= 3 && strcmp(argv[1], "storm") == 0) {
		return storm(atoi(argv[2]));
	}
	if (argc >= 4 && strcmp(argv[1], "idle") == 0) {
		return idle(atoi(argv[2]), argv[3]);
	}
	if (argc >= 5 && strcmp(argv[1], "many") == 0) {
		return many(atoi(argv[2]), atof(argv[3]), atoi(argv[4]));
	}
	if (argc >= 4 && strcmp(argv[1], "commit") == 0) {
		return commit(atof(argv[2]), atoi(argv[3]));
	}
	fprintf(stderr,
		"usage: bench-client first-frame FILE | storm N | idle N FILE | "
		"many N SECONDS PID | commit SECONDS PID\n");
	return 2;
}
