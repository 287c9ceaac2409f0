/*
 * Client records: created in the client-created signal, before the client can
 * send anything, so that no request is ever served to an unidentified client;
 * freed with the client.
 */
#include "compositor/client.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/app_limits.h"
#include "compositor/apps.h"
#include "compositor/offer_limits.h"
#include "compositor/security_context.h"
#include "compositor/server.h"
#include "compositor/tag_policy.h"
#include "compositor/xwayland.h"

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct cordon_client *client = wl_container_of(listener, client, destroy);
	wl_list_remove(&client->destroy.link);
	if (client->refuse_idle) {
		wl_event_source_remove(client->refuse_idle);
	}
	if (!client->refused) {
		cordon_app_budget_give(client->budget, CORDON_APP_CONNECTIONS, 1);
	}
	cordon_app_budget_unref(client->budget);
	if (client->identified) {
		cordon_peer_finish(&client->peer);
	}
	free(client);
}

struct cordon_client *cordon_client_from_wl(const struct wl_client *wl_client) {
	/* Our destroy listener doubles as the way back from a wl_client. */
	struct wl_listener *listener = wl_client_get_destroy_listener(
		(struct wl_client *)wl_client, handle_client_destroy);
	if (!listener) {
		return NULL;
	}
	struct cordon_client *client = wl_container_of(listener, client, destroy);
	return client;
}

const struct cordon_tag *cordon_client_get_tag(const struct cordon_client *client) {
	if (client &&
		(client->tag_source == CORDON_TAG_SOURCE_SECURITY_CONTEXT ||
			client->tag_source == CORDON_TAG_SOURCE_XWAYLAND)) {
		return &client->context_tag;
	}
	if (!client || !client->identified || !client->peer.cgroup_valid) {
		return &cordon_tag_unknown;
	}
	return &client->peer.tag;
}

bool cordon_client_is_sandboxed(const struct cordon_client *client) {
	/* Fail closed: an unknown sandbox is still a sandbox. */
	const struct cordon_tag *tag = cordon_client_get_tag(client);
	return cordon_tag_is_unknown(tag) || tag->sandboxed;
}

const char *cordon_client_tag_source_name(const struct cordon_client *client) {
	if (!client) {
		return "unknown";
	}
	switch (client->tag_source) {
	case CORDON_TAG_SOURCE_UNKNOWN:
		return "unknown";
	case CORDON_TAG_SOURCE_HOST:
		return "host";
	case CORDON_TAG_SOURCE_CGROUP:
		return "cgroup";
	case CORDON_TAG_SOURCE_SECURITY_CONTEXT:
		return "security-context";
	case CORDON_TAG_SOURCE_XWAYLAND:
		return "xwayland";
	}
	return "unknown";
}

static enum cordon_tag_source peer_tag_source(const struct cordon_client *client) {
	if (!client->identified) {
		return CORDON_TAG_SOURCE_UNKNOWN;
	}
	if (client->peer.cgroup_valid && client->peer.tag.engine == CORDON_SANDBOX_HOST) {
		return CORDON_TAG_SOURCE_HOST;
	}
	return CORDON_TAG_SOURCE_CGROUP;
}

/*
 * A systemd app unit is a host app unless the policy marks the app, or the launcher that
 * started it, as a sandbox (a launcher cordon does not know, such as a site's own jail).
 * Decided here, once, with the rest of the tag (tag_policy.c, which apps.c uses too).
 */
void cordon_peer_apply_policy_marks(const struct cordon_policy *policy, struct cordon_peer *peer) {
	if (!peer->cgroup_valid) {
		return;
	}
	const char *why = cordon_tag_policy_mark(policy, &peer->tag);
	if (why) {
		wlr_log(WLR_DEBUG, "Peer pid %d: %s counts as sandboxed (policy: %s)",
			(int)peer->pid, cordon_log_text(peer->tag.app_id), why);
	}
}

static void apply_policy_marks(struct cordon_client *client) {
	if (client->identified) {
		cordon_peer_apply_policy_marks(client->server->policy, &client->peer);
	}
}

/*
 * Apps are frozen and boosted through their cgroup (apps.c). A listener's tag says nothing
 * about the cgroup its client runs in, which may be the launcher's or the whole session's
 * (an X server's is cordon's own, as cordon starts it):
 * such a client joins an app only when its own cgroup names the same sandbox (cordon-run puts
 * the app in app-cordon-<app_id>-<instance>.scope and tags its listener the same).
 */
static bool cgroup_is_the_app(const struct cordon_client *client) {
	if (client->tag_source != CORDON_TAG_SOURCE_SECURITY_CONTEXT &&
		client->tag_source != CORDON_TAG_SOURCE_XWAYLAND) {
		return true;
	}
	return client->identified && client->peer.cgroup_valid &&
		cordon_tag_same_sandbox(&client->peer.tag, &client->context_tag);
}

uint64_t cordon_client_app_group(const void *wl_client) {
	const struct cordon_client *client = cordon_client_from_wl(wl_client);
	return client ? cordon_app_budget_id(client->budget) : 0;
}

/*
 * libwayland stops reading a client once it has an error (and destroys it after the
 * dispatch that posted the error), and closing a socket that still holds unread requests
 * resets the connection: the client then reads ECONNRESET instead of the error queued
 * before it (libwayland 1.26 does not get past it) and never learns why. So no more is
 * accepted (shutdown) and what is waiting is read and dropped (the kernel closes fds in
 * it), at most DRAIN_MAX bytes: the socket's buffer, not what a flooding client writes.
 */
#define DRAIN_MAX (4 * 1024 * 1024)

static void drain_input(int fd) {
	shutdown(fd, SHUT_RD);
	char buffer[16384];
	for (size_t total = 0; total < DRAIN_MAX;) {
		ssize_t n = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
		if (n <= 0) {
			return;
		}
		total += (size_t)n;
	}
}

static void handle_disconnect_idle(void *data) {
	struct cordon_client *client = data;
	/* An idle source is freed after it ran: the destroy handler must not remove it. */
	client->refuse_idle = NULL;
	/* libwayland closes the socket without sending what is queued: the error goes first. */
	wl_client_flush(client->wl_client);
	wl_client_destroy(client->wl_client);
}

void cordon_client_disconnect_later(struct cordon_client *client) {
	/* Now: after an error posted while dispatching, libwayland destroys the client itself. */
	drain_input(wl_client_get_fd(client->wl_client));
	if (!client->refuse_idle) {
		client->refuse_idle = wl_event_loop_add_idle(
			client->server->event_loop, handle_disconnect_idle, client);
	}
}

/*
 * One connection more than the app may have: the client is told why (a protocol error, so
 * that it does not take the hang-up for a crash of cordon) and disconnected once the event
 * loop is idle, before it is served anything. Destroying it here, inside the client-created
 * signal, would leave libwayland and the signal's other listeners with a freed client.
 */
static bool charge_connection(struct cordon_client *client) {
	struct cordon_server *server = client->server;
	client->budget = cordon_app_budget_get(server->app_limits, cordon_client_get_tag(client),
		cordon_client_is_sandboxed(client));
	if (cordon_app_budget_take(client->budget, CORDON_APP_CONNECTIONS, 1)) {
		return true;
	}
	client->refused = true;
	wl_client_post_implementation_error(client->wl_client,
		"too many connections from this app (at most %d)", CORDON_APP_MAX_CONNECTIONS);
	cordon_client_disconnect_later(client);
	return false;
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, client_created);
	struct wl_client *wl_client = data;
	struct cordon_client *client = calloc(1, sizeof(*client));
	if (!client) {
		wl_client_post_no_memory(wl_client);
		return;
	}
	client->server = server;
	client->wl_client = wl_client;
	/* The pid and credentials are worth having even when a listener decides the tag. */
	client->identified = cordon_peer_identify(
		wl_client_get_fd(wl_client), server->cgroup_cache, &client->peer);
	/* Identification is done with it: the tag is decided, and nothing later asks the pid. */
	cordon_peer_release_pidfd(&client->peer);
	client->tag_source = peer_tag_source(client);
	apply_policy_marks(client);
	/*
	 * A client accepted on a security-context listener is being created right now, inside
	 * that listener's accept: its tag is the listener's, whatever its cgroup says.
	 */
	const struct cordon_tag *context_tag =
		cordon_security_context_accepting(server->security_contexts);
	/* An X server's connection is made by cordon itself: its peer is cordon. */
	const struct cordon_tag *xwayland_tag = cordon_xwayland_connecting_tag(server, wl_client);
	if (xwayland_tag) {
		client->context_tag = *xwayland_tag;
		client->tag_source = CORDON_TAG_SOURCE_XWAYLAND;
		wlr_log(WLR_DEBUG, "Client: an X server for %s%s%s",
			cordon_tag_engine_name(xwayland_tag), xwayland_tag->app_id[0] ? " " : "",
			cordon_log_text(xwayland_tag->app_id));
	} else if (context_tag) {
		client->context_tag = *context_tag;
		client->tag_source = CORDON_TAG_SOURCE_SECURITY_CONTEXT;
		wlr_log(WLR_DEBUG, "Client pid %d: security context %s%s%s",
			client->identified ? (int)client->peer.pid : -1,
			cordon_tag_engine_name(context_tag), context_tag->app_id[0] ? " " : "",
			cordon_log_text(context_tag->app_id));
	} else if (client->identified) {
		wlr_log(WLR_DEBUG, "Client pid %d: %s%s%s%s", (int)client->peer.pid,
			cordon_sandbox_engine_name(client->peer.tag.engine),
			client->peer.tag.app_id[0] ? " " : "",
			cordon_log_text(client->peer.tag.app_id),
			client->peer.tag.sandboxed ? " (sandboxed)" : "");
	} else {
		wlr_log(WLR_INFO, "Cannot identify a new client; treating it as sandboxed");
	}
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	if (!charge_connection(client)) {
		return;
	}
	if (cgroup_is_the_app(client)) {
		cordon_apps_add_client(server->apps, client);
	}
}

void cordon_clients_init(struct cordon_server *server) {
	/* Without it every client's cgroup is read from /proc: slower, as safe. */
	server->cgroup_cache = cordon_peer_cgroup_cache_create();
	if (!server->cgroup_cache) {
		wlr_log_errno(WLR_DEBUG, "Client cgroups are read from /proc for every client");
	}
	server->app_limits = cordon_app_limits_create();
	server->offer_limits = cordon_offer_limits_create(server);
	if (!server->app_limits || !server->offer_limits) {
		/* Without them sandboxes are not capped: say so rather than run uncapped quietly.
		 */
		wlr_log(WLR_ERROR, "Out of memory: per-app caps are off");
	}
	server->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(server->display, &server->client_created);
}

void cordon_clients_finish(struct cordon_server *server) {
	wl_list_remove(&server->client_created.link);
	wl_list_init(&server->client_created.link);
	cordon_cgroup_cache_destroy(server->cgroup_cache);
	server->cgroup_cache = NULL;
	cordon_offer_limits_destroy(server->offer_limits);
	server->offer_limits = NULL;
	cordon_app_limits_destroy(server->app_limits);
	server->app_limits = NULL;
}
