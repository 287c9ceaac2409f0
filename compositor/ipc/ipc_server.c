/*
 * The control socket: accepts connections from processes of cordon's own
 * uid, splits what they send into lines, runs each as a command and writes
 * one reply line per request. Nothing here blocks: reads and writes are
 * non-blocking and replies that do not fit the socket wait for it.
 *
 * The uid is not enough: a Flatpak that can see the runtime directory runs as
 * the same user, and through this socket it could grant itself permissions,
 * type into other apps and take screenshots. So each peer is identified as a
 * Wayland client is (sandbox/peer.c, the same code: SO_PEERPIDFD and the cgroup
 * tag), and a sandboxed or unknown peer is refused every command but the
 * read-only ones its policy names (control-commands, docs/ipc.md).
 */
#include "compositor/ipc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "common/format.h"
#include "common/policy.h"
#include "compositor/app_limits.h"
#include "compositor/client.h"
#include "compositor/ipc_request.h"
#include "compositor/server.h"
#include "sandbox/peer.h"

#define IPC_MAX_LINE (64 * 1024)
/*
 * Replies a peer has not read, beyond what the socket holds: past this the peer is cut off.
 * One reply of any size is always written; a peer that keeps asking without reading is not
 * served further (each listing can be large, and cordon would keep them all).
 */
#define IPC_MAX_UNREAD (1024 * 1024)
/* Control connections at once, from the host too: each costs two fds and its buffers. */
#define IPC_MAX_PEERS 256

struct cordon_ipc_server {
	struct cordon_server *server;
	int fd;
	char *path;
	struct wl_event_source *source;
	struct wl_list clients; /* ipc_client.link */
};

struct ipc_client {
	struct cordon_ipc_server *ipc;
	int fd;
	struct wl_event_source *source;
	struct wl_list link;
	char *in;
	size_t in_len, in_cap;
	char *out;
	size_t out_len, out_cap;
	bool closing; /* close once the pending replies are written */
	/* Identified at accept: a sandboxed or unknown peer runs only what its policy allows. */
	bool sandboxed;
	pid_t pid;
	char app_id[CORDON_TAG_APP_ID_MAX]; /* the tag's; empty for an unknown sandbox */
	char who[CORDON_TAG_ENGINE_MAX + CORDON_TAG_APP_ID_MAX + 32]; /* for messages */
	struct cordon_app_budget *budget; /* charged one connection; NULL for the host */
	bool refusal_logged;
};

bool cordon_ipc_fail(char **error, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*error = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

static void client_destroy(struct ipc_client *client) {
	cordon_app_budget_give(client->budget, CORDON_APP_CONNECTIONS, 1);
	cordon_app_budget_unref(client->budget);
	wl_event_source_remove(client->source);
	close(client->fd);
	wl_list_remove(&client->link);
	free(client->in);
	free(client->out);
	free(client);
}

static bool append(char **buffer, size_t *len, size_t *cap, const char *data, size_t size) {
	if (*len + size > *cap) {
		size_t new_cap = *cap ? *cap : 1024;
		while (new_cap < *len + size) {
			new_cap *= 2;
		}
		char *grown = realloc(*buffer, new_cap);
		if (!grown) {
			return false;
		}
		*buffer = grown;
		*cap = new_cap;
	}
	memcpy(*buffer + *len, data, size);
	*len += size;
	return true;
}

/* Writes what the socket takes; false when the client is gone. */
static bool client_flush(struct ipc_client *client) {
	while (client->out_len > 0) {
		ssize_t n = send(client->fd, client->out, client->out_len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (errno == EAGAIN) {
				break;
			}
			return false;
		}
		memmove(client->out, client->out + n, client->out_len - (size_t)n);
		client->out_len -= (size_t)n;
	}
	uint32_t mask = WL_EVENT_READABLE;
	if (client->out_len > 0) {
		mask |= WL_EVENT_WRITABLE;
	}
	wl_event_source_fd_update(client->source, mask);
	return client->out_len > 0 || !client->closing;
}

static void client_reply(struct ipc_client *client, struct json_object *reply) {
	size_t size;
	const char *text = json_object_to_json_string_length(reply, JSON_C_TO_STRING_PLAIN, &size);
	if (!append(&client->out, &client->out_len, &client->out_cap, text, size) ||
		!append(&client->out, &client->out_len, &client->out_cap, "\n", 1)) {
		client->closing = true;
	}
}

static void reply_error(struct ipc_client *client, const char *message) {
	struct json_object *reply = json_object_new_object();
	json_object_object_add(reply, "success", json_object_new_boolean(false));
	json_object_object_add(reply, "error", json_object_new_string(message));
	client_reply(client, reply);
	json_object_put(reply);
}

static const struct cordon_ipc_command *find_command(const char *name) {
	for (const struct cordon_ipc_command *command = cordon_ipc_commands; command->name;
		command++) {
		if (strcmp(command->name, name) == 0) {
			return command;
		}
	}
	return NULL;
}

/* A sandboxed peer: only read-only commands, and only those its policy names. */
static bool peer_may_run(
	const struct ipc_client *client, const struct cordon_ipc_command *command) {
	if (!client->sandboxed) {
		return true;
	}
	return command->read_only &&
		cordon_policy_list_contains(client->ipc->server->policy,
			client->app_id[0] ? client->app_id : NULL, NULL, "control-commands",
			command->name);
}

static void refuse(
	struct ipc_client *client, const struct cordon_ipc_command *command, char **error) {
	cordon_ipc_fail(error,
		"cordon's control socket refuses \"%s\" from a sandboxed process (%s); see "
		"docs/ipc.md",
		command->name, client->who);
	/* One line per connection, and per app at most one every few seconds. */
	if (!client->refusal_logged) {
		client->refusal_logged = true;
		cordon_app_budget_log(client->budget,
			"Control socket: refused \"%s\" from pid %d (%s), a sandboxed process",
			command->name, (int)client->pid, cordon_log_text(client->who));
	}
}

/* Runs one request line; false when the request is malformed. */
static bool client_run_line(struct ipc_client *client, const char *line, size_t len) {
	struct cordon_ipc_request request;
	const char *malformed;
	if (!cordon_ipc_request_parse(line, len, &request, &malformed)) {
		reply_error(client, malformed);
		return false;
	}
	const struct cordon_ipc_command *command = find_command(request.command);
	struct json_object *result = NULL;
	char *error = NULL;
	if (!command) {
		cordon_ipc_fail(&error, "unknown command \"%s\"", request.command);
	} else if (!peer_may_run(client, command)) {
		refuse(client, command, &error);
	} else if (command->run(
			   client->ipc->server, (int)request.argc, request.argv, &result, &error)) {
		struct json_object *reply = json_object_new_object();
		json_object_object_add(reply, "success", json_object_new_boolean(true));
		json_object_object_add(reply, "result", result);
		client_reply(client, reply);
		json_object_put(reply);
	}
	if (error || !command) {
		reply_error(client, error ? error : "command failed");
	}
	free(error);
	cordon_ipc_request_finish(&request);
	return true;
}

static void client_process_input(struct ipc_client *client) {
	size_t start = 0;
	for (size_t i = 0; i < client->in_len && !client->closing; i++) {
		if (client->in[i] != '\n') {
			continue;
		}
		if (client->out_len > IPC_MAX_UNREAD) {
			/* It does not read: nothing more is written, the connection goes. */
			wlr_log(WLR_ERROR,
				"Control socket: pid %d (%s) left %zu bytes of replies unread: "
				"disconnected",
				(int)client->pid, cordon_log_text(client->who), client->out_len);
			client->out_len = 0;
			client->closing = true;
			break;
		}
		if (i > start && !client_run_line(client, client->in + start, i - start)) {
			client->closing = true;
		}
		start = i + 1;
	}
	memmove(client->in, client->in + start, client->in_len - start);
	client->in_len -= start;
	if (client->in_len > IPC_MAX_LINE) {
		reply_error(client, "request line longer than 64 KiB");
		client->closing = true;
	}
}

static int handle_client_event(int fd, uint32_t mask, void *data) {
	struct ipc_client *client = data;
	if (mask & WL_EVENT_READABLE && !client->closing) {
		char buffer[4096];
		ssize_t n = read(fd, buffer, sizeof(buffer));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			client_destroy(client);
			return 0;
		}
		if (n > 0) {
			if (!append(&client->in, &client->in_len, &client->in_cap, buffer,
				    (size_t)n)) {
				client_destroy(client);
				return 0;
			}
			client_process_input(client);
		}
	} else if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		client_destroy(client);
		return 0;
	}
	if (!client_flush(client)) {
		client_destroy(client);
	}
	return 0;
}

/*
 * Who the peer is, as a Wayland client is identified (client.c): the tag from its cgroup,
 * the policy's marks on systemd apps, unknown counting as sandboxed. A sandboxed peer's
 * connection is charged to its app. False when the app is at its cap.
 */
static bool identify(struct cordon_server *server, struct ipc_client *client) {
	struct cordon_peer peer;
	bool identified = cordon_peer_identify(client->fd, server->cgroup_cache, &peer);
	cordon_peer_release_pidfd(&peer);
	if (identified) {
		cordon_peer_apply_policy_marks(server->policy, &peer);
	}
	const struct cordon_tag *tag = identified && peer.cgroup_valid ? &peer.tag : NULL;
	client->sandboxed = !tag || tag->sandboxed;
	client->pid = identified ? peer.pid : -1;
	if (tag) {
		snprintf(client->app_id, sizeof(client->app_id), "%s", tag->app_id);
		snprintf(client->who, sizeof(client->who), "%s%s%s", cordon_tag_engine_name(tag),
			tag->app_id[0] ? " " : "", tag->app_id);
	} else {
		snprintf(client->who, sizeof(client->who), "an unknown sandbox");
	}
	client->budget = cordon_app_budget_get(server->app_limits, tag, client->sandboxed);
	if (identified) {
		cordon_peer_finish(&peer);
	}
	return cordon_app_budget_take(client->budget, CORDON_APP_CONNECTIONS, 1);
}

static int handle_accept(int fd, uint32_t mask, void *data) {
	struct cordon_ipc_server *ipc = data;
	int client_fd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (client_fd < 0) {
		return 0;
	}
	/* Only processes of the user cordon runs for may drive it. */
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(client_fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
		cred.uid != getuid()) {
		wlr_log(WLR_INFO, "Refusing a control connection from uid %d",
			len == sizeof(cred) ? (int)cred.uid : -1);
		close(client_fd);
		return 0;
	}
	if (wl_list_length(&ipc->clients) >= IPC_MAX_PEERS) {
		wlr_log(WLR_DEBUG, "Refusing a control connection: %d already open", IPC_MAX_PEERS);
		close(client_fd);
		return 0;
	}
	struct ipc_client *client = calloc(1, sizeof(*client));
	if (!client) {
		close(client_fd);
		return 0;
	}
	client->ipc = ipc;
	client->fd = client_fd;
	if (!identify(ipc->server, client)) {
		/* Its app is at its cap of connections (logged by the budget). */
		cordon_app_budget_unref(client->budget);
		close(client_fd);
		free(client);
		return 0;
	}
	client->source = wl_event_loop_add_fd(
		ipc->server->event_loop, client_fd, WL_EVENT_READABLE, handle_client_event, client);
	if (!client->source) {
		cordon_app_budget_give(client->budget, CORDON_APP_CONNECTIONS, 1);
		cordon_app_budget_unref(client->budget);
		close(client_fd);
		free(client);
		return 0;
	}
	wl_list_insert(&ipc->clients, &client->link);
	return 0;
}

/* A socket file left by a crashed cordon can go; a live one cannot. */
static bool socket_in_use(const struct sockaddr_un *addr) {
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return false;
	}
	bool in_use = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0;
	close(fd);
	return in_use;
}

struct cordon_ipc_server *cordon_ipc_server_create(struct cordon_server *server) {
	const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
	if (!runtime_dir) {
		wlr_log(WLR_ERROR, "XDG_RUNTIME_DIR is not set: no place for the control socket");
		return NULL;
	}
	struct cordon_ipc_server *ipc = calloc(1, sizeof(*ipc));
	if (!ipc) {
		return NULL;
	}
	ipc->server = server;
	ipc->fd = -1;
	wl_list_init(&ipc->clients);

	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (asprintf(&ipc->path, "%s/cordon.%s.sock", runtime_dir, server->socket) < 0) {
		ipc->path = NULL;
		goto error;
	}
	if (strlen(ipc->path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "Control socket path too long: %s", ipc->path);
		goto error;
	}
	strcpy(addr.sun_path, ipc->path);
	if (socket_in_use(&addr)) {
		wlr_log(WLR_ERROR, "Another cordon answers on %s", ipc->path);
		free(ipc->path);
		ipc->path = NULL; /* not ours to unlink */
		goto error;
	}
	unlink(ipc->path);

	ipc->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (ipc->fd < 0 || bind(ipc->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
		chmod(ipc->path, 0600) != 0 || listen(ipc->fd, 16) != 0) {
		wlr_log_errno(WLR_ERROR, "Cannot listen on %s", ipc->path);
		goto error;
	}
	ipc->source = wl_event_loop_add_fd(
		server->event_loop, ipc->fd, WL_EVENT_READABLE, handle_accept, ipc);
	if (!ipc->source) {
		goto error;
	}
	return ipc;

error:
	cordon_ipc_server_destroy(ipc);
	return NULL;
}

void cordon_ipc_server_destroy(struct cordon_ipc_server *ipc) {
	if (!ipc) {
		return;
	}
	struct ipc_client *client, *tmp;
	wl_list_for_each_safe(client, tmp, &ipc->clients, link) {
		client_flush(client);
		client_destroy(client);
	}
	if (ipc->source) {
		wl_event_source_remove(ipc->source);
	}
	if (ipc->fd >= 0) {
		close(ipc->fd);
		unlink(ipc->path);
	}
	free(ipc->path);
	free(ipc);
}

const char *cordon_ipc_server_get_path(struct cordon_ipc_server *ipc) {
	return ipc->path;
}
