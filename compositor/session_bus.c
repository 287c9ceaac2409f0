/*
 * The session bus for everything in cordon that speaks D-Bus. sd-bus has no event loop
 * of its own here (sd-event would be a second loop), so its fd and its next timeout are
 * sources of the wl_event_loop, refreshed after every round of processing.
 */
#include "compositor/session_bus.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/util/log.h>

struct cordon_session_bus {
	sd_bus *bus;
	struct wl_event_loop *loop;
	struct wl_event_source *fd_source;
	struct wl_event_source *timer;
	struct wl_event_source *idle; /* a pending cordon_session_bus_changed() */
	int fd;
};

static uint32_t event_mask_from_poll(int events) {
	uint32_t mask = 0;
	if (events & POLLIN) {
		mask |= WL_EVENT_READABLE;
	}
	if (events & POLLOUT) {
		mask |= WL_EVENT_WRITABLE;
	}
	return mask;
}

/* Processes until sd-bus has nothing left to do, then rearms the fd mask and timer. */
static void process(struct cordon_session_bus *bus) {
	int r;
	do {
		r = sd_bus_process(bus->bus, NULL);
	} while (r > 0);
	if (r < 0 && r != -ECONNRESET && r != -ENOTCONN) {
		wlr_log(WLR_ERROR, "D-Bus: processing failed: %s", strerror(-r));
	}
	if (r == -ECONNRESET || r == -ENOTCONN || !sd_bus_is_open(bus->bus)) {
		/* The bus is gone: stop polling a dead fd, keep the object for its users. */
		if (bus->fd_source) {
			wlr_log(WLR_INFO, "D-Bus: the session bus closed the connection");
			wl_event_source_remove(bus->fd_source);
			bus->fd_source = NULL;
		}
		wl_event_source_timer_update(bus->timer, 0);
		return;
	}

	int events = sd_bus_get_events(bus->bus);
	if (events >= 0 && bus->fd_source) {
		wl_event_source_fd_update(bus->fd_source, event_mask_from_poll(events));
	}
	uint64_t deadline_us = 0;
	if (sd_bus_get_timeout(bus->bus, &deadline_us) < 0 || deadline_us == UINT64_MAX) {
		wl_event_source_timer_update(bus->timer, 0);
		return;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t now_us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
	/* A timer of 0 ms disarms it: an expired deadline waits 1 ms instead. */
	uint64_t wait_ms = deadline_us > now_us ? (deadline_us - now_us + 999) / 1000 : 1;
	wl_event_source_timer_update(bus->timer, wait_ms > INT32_MAX ? INT32_MAX : (int)wait_ms);
}

static int handle_bus_fd(int fd, uint32_t mask, void *data) {
	(void)fd;
	(void)mask;
	process(data);
	return 0;
}

static int handle_bus_timer(void *data) {
	process(data);
	return 0;
}

static void handle_idle(void *data) {
	struct cordon_session_bus *bus = data;
	bus->idle = NULL;
	process(bus);
}

void cordon_session_bus_changed(struct cordon_session_bus *bus) {
	if (bus && !bus->idle) {
		bus->idle = wl_event_loop_add_idle(bus->loop, handle_idle, bus);
	}
}

struct cordon_session_bus *cordon_session_bus_create(struct wl_event_loop *loop) {
	struct cordon_session_bus *bus = calloc(1, sizeof(*bus));
	if (!bus) {
		return NULL;
	}
	bus->loop = loop;
	int r = sd_bus_open_user(&bus->bus);
	if (r < 0) {
		wlr_log(WLR_INFO,
			"D-Bus: no session bus (%s): the D-Bus portal backend and "
			"document grants are off",
			strerror(-r));
		free(bus);
		return NULL;
	}
	bus->fd = sd_bus_get_fd(bus->bus);
	bus->fd_source = wl_event_loop_add_fd(loop, bus->fd, WL_EVENT_READABLE, handle_bus_fd, bus);
	bus->timer = wl_event_loop_add_timer(loop, handle_bus_timer, bus);
	if (bus->fd < 0 || !bus->fd_source || !bus->timer) {
		wlr_log(WLR_ERROR, "D-Bus: cannot watch the session bus");
		cordon_session_bus_destroy(bus);
		return NULL;
	}
	/* The Hello is queued: let the loop send it. */
	cordon_session_bus_changed(bus);
	return bus;
}

sd_bus *cordon_session_bus_get(struct cordon_session_bus *bus) {
	return bus ? bus->bus : NULL;
}

void cordon_session_bus_destroy(struct cordon_session_bus *bus) {
	if (!bus) {
		return;
	}
	if (bus->idle) {
		wl_event_source_remove(bus->idle);
	}
	if (bus->fd_source) {
		wl_event_source_remove(bus->fd_source);
	}
	if (bus->timer) {
		wl_event_source_remove(bus->timer);
	}
	/* Flushes what is queued (a last reply, a name release) before closing. */
	sd_bus_flush_close_unref(bus->bus);
	free(bus);
}
