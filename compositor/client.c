/*
 * Client records: created in the client-created signal, before the client can
 * send anything, so that no request is ever served to an unidentified client;
 * freed with the client.
 */
#include "compositor/client.h"

#include <stdlib.h>
#include <wlr/util/log.h>

#include "compositor/apps.h"
#include "compositor/server.h"

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct cordon_client *client = wl_container_of(listener, client, destroy);
	wl_list_remove(&client->destroy.link);
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
	if (!client || !client->identified || !client->peer.cgroup_valid) {
		return NULL;
	}
	return &client->peer.tag;
}

bool cordon_client_is_sandboxed(const struct cordon_client *client) {
	/* Fail closed: an unknown sandbox is still a sandbox. */
	const struct cordon_tag *tag = cordon_client_get_tag(client);
	return !tag || tag->sandboxed;
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
	client->identified = cordon_peer_identify(wl_client_get_fd(wl_client), &client->peer);
	if (client->identified) {
		wlr_log(WLR_DEBUG, "Client pid %d: %s%s%s%s", (int)client->peer.pid,
			cordon_sandbox_engine_name(client->peer.tag.engine),
			client->peer.tag.app_id[0] ? " " : "", client->peer.tag.app_id,
			client->peer.tag.sandboxed ? " (sandboxed)" : "");
	} else {
		wlr_log(WLR_INFO, "Cannot identify a new client; treating it as sandboxed");
	}
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	cordon_apps_add_client(server->apps, client);
}

void cordon_clients_init(struct cordon_server *server) {
	server->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(server->display, &server->client_created);
}

void cordon_clients_finish(struct cordon_server *server) {
	wl_list_remove(&server->client_created.link);
	wl_list_init(&server->client_created.link);
}
