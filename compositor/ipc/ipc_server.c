/*
 * The control socket: accepts connections from processes of cordon's own
 * uid, splits what they send into lines, runs each as a command and writes
 * one reply line per request. Nothing here blocks: reads and writes are
 * non-blocking and replies that do not fit the socket wait for it.
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

#include "common/format.h"
#include "compositor/server.h"

#define IPC_MAX_LINE (64 * 1024)

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
};

bool cordon_ipc_fail(char **error, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*error = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

static void client_destroy(struct ipc_client *client) {
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

/* Runs one request line; false when the request is malformed. */
static bool client_run_line(struct ipc_client *client, const char *line, size_t len) {
	struct json_tokener *tokener = json_tokener_new();
	struct json_object *request =
		tokener ? json_tokener_parse_ex(tokener, line, (int)len) : NULL;
	bool complete = tokener && json_tokener_get_error(tokener) == json_tokener_success;
	json_tokener_free(tokener);

	struct json_object *command_obj = NULL, *args_obj = NULL;
	if (!complete || !json_object_is_type(request, json_type_object) ||
		!json_object_object_get_ex(request, "command", &command_obj) ||
		!json_object_is_type(command_obj, json_type_string)) {
		json_object_put(request);
		reply_error(client, "a request is a JSON object with a string \"command\"");
		return false;
	}
	size_t argc = 0;
	if (json_object_object_get_ex(request, "args", &args_obj)) {
		if (!json_object_is_type(args_obj, json_type_array)) {
			json_object_put(request);
			reply_error(client, "\"args\" must be an array of strings");
			return false;
		}
		argc = json_object_array_length(args_obj);
	}
	const char **argv = calloc(argc + 1, sizeof(*argv));
	if (!argv) {
		json_object_put(request);
		reply_error(client, "out of memory");
		return false;
	}
	for (size_t i = 0; i < argc; i++) {
		struct json_object *arg = json_object_array_get_idx(args_obj, i);
		if (!json_object_is_type(arg, json_type_string)) {
			free(argv);
			json_object_put(request);
			reply_error(client, "\"args\" must be an array of strings");
			return false;
		}
		argv[i] = json_object_get_string(arg);
	}

	const char *name = json_object_get_string(command_obj);
	const struct cordon_ipc_command *command = find_command(name);
	struct json_object *result = NULL;
	char *error = NULL;
	if (!command) {
		cordon_ipc_fail(&error, "unknown command \"%s\"", name);
	} else if (command->run(client->ipc->server, (int)argc, argv, &result, &error)) {
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
	free(argv);
	json_object_put(request);
	return true;
}

static void client_process_input(struct ipc_client *client) {
	size_t start = 0;
	for (size_t i = 0; i < client->in_len && !client->closing; i++) {
		if (client->in[i] != '\n') {
			continue;
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
	struct ipc_client *client = calloc(1, sizeof(*client));
	if (!client) {
		close(client_fd);
		return 0;
	}
	client->ipc = ipc;
	client->fd = client_fd;
	client->source = wl_event_loop_add_fd(
		ipc->server->event_loop, client_fd, WL_EVENT_READABLE, handle_client_event, client);
	if (!client->source) {
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
