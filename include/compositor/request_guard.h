/*
 * Requests that wlroots 0.20 answers by aborting, hanging or corrupting the whole compositor
 * when a client sends them at the wrong time: cordon refuses them with a protocol error
 * before wlroots' handler runs. One client's mistake (or attack) must never take every app on the
 * desktop down.
 */
#ifndef CORDON_COMPOSITOR_REQUEST_GUARD_H
#define CORDON_COMPOSITOR_REQUEST_GUARD_H

#include <wayland-server-core.h>

/* Watches every request of every client (a libwayland protocol logger, which runs before the
 * request's handler). NULL when it cannot. */
struct wl_protocol_logger *cordon_request_guard_create(struct wl_display *display);

#endif
