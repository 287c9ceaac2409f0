/*
 * Every Wayland client, identified once when it connects: the peer's pid,
 * credentials and sandbox tag come from the kernel (docs/sandbox-identity.md),
 * never from anything the client says.
 */
#ifndef CORDON_COMPOSITOR_CLIENT_H
#define CORDON_COMPOSITOR_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

#include "sandbox/peer.h"

struct cordon_server;
struct cordon_app_budget;
struct cordon_policy;

/* Where a client's tag came from, decided at connect like the tag itself. */
enum cordon_tag_source {
	CORDON_TAG_SOURCE_UNKNOWN, /* the peer could not be identified: counts as sandboxed */
	CORDON_TAG_SOURCE_HOST, /* a cgroup that names no app nor sandbox */
	CORDON_TAG_SOURCE_CGROUP, /* a sandbox or systemd app unit in the cgroup (or a malformed
				     one) */
	CORDON_TAG_SOURCE_SECURITY_CONTEXT, /* accepted on a wp_security_context_v1 listener */
	CORDON_TAG_SOURCE_XWAYLAND, /* one of cordon's X servers: the instance's tag (xwayland.c) */
};

struct cordon_client {
	struct cordon_server *server;
	struct wl_client *wl_client;
	/* False when the peer could not be proven: such a client counts as sandboxed. */
	bool identified;
	struct cordon_peer peer;
	enum cordon_tag_source tag_source;
	/*
	 * With CORDON_TAG_SOURCE_SECURITY_CONTEXT: the listener's tag, over the cgroup's; with
	 * CORDON_TAG_SOURCE_XWAYLAND, the X server's (its process runs as cordon).
	 */
	struct cordon_tag context_tag;
	/*
	 * What the global filter let through, as the client saw it: the globals announced
	 * minus those removed on its first wl_registry (global_filter.c counts them).
	 */
	const struct wl_resource *registry;
	int visible_globals;
	/*
	 * The app's budget (app_limits.c), charged one connection; NULL for the host. A client
	 * over its app's cap is refused: told so, then disconnected from refuse_idle (also set
	 * for a client being disconnected for another cap).
	 */
	struct cordon_app_budget *budget;
	bool refused;
	struct wl_event_source *refuse_idle;
	struct wl_listener destroy;
};

/* Starts identifying every client that connects from now on. */
void cordon_clients_init(struct cordon_server *server);
void cordon_clients_finish(struct cordon_server *server);

/* The record of a connected client; NULL for none (cannot happen once connected). */
struct cordon_client *cordon_client_from_wl(const struct wl_client *wl_client);
/*
 * The tag; cordon_tag_unknown (never NULL) when the client's sandbox is unknown (not
 * identified, a cgroup that does not parse, no client).
 */
const struct cordon_tag *cordon_client_get_tag(const struct cordon_client *client);
/* Sandboxed, or of unknown origin: either way not trusted with privileged globals. */
bool cordon_client_is_sandboxed(const struct cordon_client *client);
/*
 * "unknown", "host", "cgroup", "security-context" or "xwayland"; "unknown" for a NULL
 * client.
 */
const char *cordon_client_tag_source_name(const struct cordon_client *client);
/*
 * The number of the app a wl_client (given as a pointer, for data_proxy.c) is charged to, 0
 * for the host: the data proxy counts transfers per app with it.
 */
uint64_t cordon_client_app_group(const void *wl_client);
/*
 * Disconnects the client once the event loop is idle: after a protocol error posted while a
 * request or a signal is being handled, where destroying it at once would free what the
 * caller still uses.
 */
void cordon_client_disconnect_later(struct cordon_client *client);
/*
 * A systemd app unit the policy marks as sandboxed (the app, or its launcher) counts as
 * sandboxed: sets peer->tag.sandboxed. Control-socket peers are marked as clients are.
 */
void cordon_peer_apply_policy_marks(const struct cordon_policy *policy, struct cordon_peer *peer);

#endif
