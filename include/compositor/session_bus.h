/* The session D-Bus connection, driven by the compositor's event loop (sd-bus). */
#ifndef CORDON_COMPOSITOR_SESSION_BUS_H
#define CORDON_COMPOSITOR_SESSION_BUS_H

#include <systemd/sd-bus.h>
#include <wayland-server-core.h>

struct cordon_session_bus;

/*
 * Connects to the user's session bus (DBUS_SESSION_BUS_ADDRESS, else
 * $XDG_RUNTIME_DIR/bus) without blocking on it. Returns NULL, after logging why, when
 * there is no bus: what needs one (the D-Bus portal backend, document grants) is off.
 */
struct cordon_session_bus *cordon_session_bus_create(struct wl_event_loop *loop);
void cordon_session_bus_destroy(struct cordon_session_bus *bus);

sd_bus *cordon_session_bus_get(struct cordon_session_bus *bus);

/*
 * Call after queueing messages outside a bus callback (sd_bus_call_method_async,
 * sd_bus_reply, sd_bus_emit_signal...): they are flushed from the event loop, and the
 * poll mask and timeout follow what sd-bus now waits for. Within a bus callback this
 * happens anyway.
 */
void cordon_session_bus_changed(struct cordon_session_bus *bus);

#endif
