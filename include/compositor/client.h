/*
 * Every Wayland client, identified once when it connects: the peer's pid,
 * credentials and sandbox tag come from the kernel (docs/sandbox-identity.md),
 * never from anything the client says.
 */
#ifndef CORDON_COMPOSITOR_CLIENT_H
#define CORDON_COMPOSITOR_CLIENT_H

#include <stdbool.h>
#include <wayland-server-core.h>

#include "sandbox/peer.h"

struct cordon_server;

struct cordon_client {
	struct cordon_server *server;
	struct wl_client *wl_client;
	/* False when the peer could not be proven: such a client counts as sandboxed. */
	bool identified;
	struct cordon_peer peer;
	struct wl_listener destroy;
};

/* Starts identifying every client that connects from now on. */
void cordon_clients_init(struct cordon_server *server);
void cordon_clients_finish(struct cordon_server *server);

/* The record of a connected client; NULL for none (cannot happen once connected). */
struct cordon_client *cordon_client_from_wl(const struct wl_client *wl_client);
/* The tag, or NULL when the client's sandbox is unknown (not identified, bad cgroup). */
const struct cordon_tag *cordon_client_get_tag(const struct cordon_client *client);
/* Sandboxed, or of unknown origin: either way not trusted with privileged globals. */
bool cordon_client_is_sandboxed(const struct cordon_client *client);

#endif
