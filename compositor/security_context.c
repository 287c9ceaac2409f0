/*
 * wp_security_context_v1: a sandbox launcher (flatpak, cordon-run) hands cordon a listening
 * socket and a close fd, names the sandbox, and commits. From then on cordon accepts on that
 * socket itself, and every client that comes in through it carries the launcher's tag instead
 * of whatever its cgroup says. The listener ends when the close fd hangs up (the launcher's
 * sandbox is gone); clients already connected keep their tag for life.
 *
 * Only an unsandboxed client may make a listener: the tag it sets is trusted, so a sandboxed
 * app must not be able to give itself (or a helper) a different one.
 *
 * wlroots 0.20 has an implementation (wlr_security_context_manager_v1); cordon keeps its own
 * because wlroots' does not hold what cordon promises: it records a client's tag only after
 * wl_client_create returns, so the client-created signal (where cordon identifies and charges
 * every client, client.c) cannot see it; at the open-file limit its accept fails and the
 * still-readable listener wakes the loop again at once (a spin, which
 * tests/integration/security-context-emfile.sh catches); and it has no cap on listeners per
 * client and does not check the metadata (length, printable ASCII) before it is logged and shown.
 */
#include "compositor/security_context.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/client.h"
#include "compositor/server.h"
#include "sandbox/context_tag.h"
#include "security-context-v1-protocol.h"

#define MANAGER_VERSION 1
/* Connections taken per wake-up, so that one busy listener cannot starve the event loop. */
#define ACCEPT_BATCH 32
/* Out of fds: how long accepting pauses instead of waking up again at once (no spin). */
#define ACCEPT_RETRY_MS 200

struct cordon_security_context_manager {
	struct cordon_server *server;
	struct wl_global *global;
	struct wl_list contexts; /* security_context.link */
	/* Set only for the duration of wl_client_create in accept_one. */
	const struct cordon_tag *accepting;
};

struct security_context {
	struct cordon_security_context_manager *manager;
	struct wl_list link;
	/* NULL once the client destroyed the object (a committed listener lives on). */
	struct wl_resource *resource;
	/* The client that made it, for the per-client cap; NULL once it is gone. */
	struct wl_client *owner;
	struct wl_listener owner_destroy;
	int listen_fd, close_fd;
	/* A connection accepted while out of fds, waiting for its wl_client; -1 for none. */
	int pending_fd;
	char *values[3]; /* by enum cordon_context_field; NULL until set */
	bool committed;
	struct cordon_tag tag; /* from values, at commit */
	struct wl_event_source *listen_source, *close_source, *retry_timer;
};

static const char *const field_names[] = {
	[CORDON_CONTEXT_ENGINE] = "sandbox engine",
	[CORDON_CONTEXT_APP_ID] = "app id",
	[CORDON_CONTEXT_INSTANCE] = "instance id",
};

static void context_destroy(struct security_context *context) {
	wl_list_remove(&context->link);
	if (context->owner) {
		wl_list_remove(&context->owner_destroy.link);
	}
	if (context->resource) {
		/* Later requests on it find no context: after commit they are already_used. */
		wl_resource_set_user_data(context->resource, NULL);
	}
	if (context->listen_source) {
		wl_event_source_remove(context->listen_source);
	}
	if (context->close_source) {
		wl_event_source_remove(context->close_source);
	}
	if (context->retry_timer) {
		wl_event_source_remove(context->retry_timer);
	}
	close(context->listen_fd);
	close(context->close_fd);
	if (context->pending_fd >= 0) {
		close(context->pending_fd);
	}
	for (size_t i = 0; i < sizeof(context->values) / sizeof(context->values[0]); i++) {
		free(context->values[i]);
	}
	free(context);
}

static void handle_owner_destroy(struct wl_listener *listener, void *data) {
	struct security_context *context = wl_container_of(listener, context, owner_destroy);
	wl_list_remove(&context->owner_destroy.link);
	context->owner = NULL;
}

static void log_context(const struct security_context *context, const char *what) {
	wlr_log(WLR_INFO, "Security context %s (%s %s%s%s)", what,
		cordon_tag_engine_name(&context->tag),
		context->tag.app_id[0] ? cordon_log_text(context->tag.app_id) : "(no app id)",
		context->tag.instance[0] ? " instance " : "",
		cordon_log_text(context->tag.instance));
}

static bool out_of_fds(int error) {
	return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

/*
 * Out of fds: stop polling the listener for a while. The pending connections stay queued and
 * the socket stays readable, so without a pause the loop would wake up for them again at once.
 */
static void pause_accepting(struct security_context *context, const char *what) {
	wlr_log_errno(WLR_ERROR, "%s on a security context listener, pausing it for %d ms", what,
		ACCEPT_RETRY_MS);
	wl_event_source_fd_update(context->listen_source, 0);
	wl_event_source_timer_update(context->retry_timer, ACCEPT_RETRY_MS);
}

/* Creates the client for one accepted connection, tagged; false when nothing was waiting. */
static bool accept_one(struct security_context *context) {
	int fd = context->pending_fd;
	context->pending_fd = -1;
	if (fd < 0) {
		fd = accept4(context->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	}
	if (fd < 0) {
		if (out_of_fds(errno)) {
			pause_accepting(context, "Cannot accept");
		} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			errno != ECONNABORTED) {
			wlr_log_errno(WLR_ERROR, "Cannot accept on a security context listener");
		}
		return errno == ECONNABORTED || errno == EINTR;
	}
	struct cordon_security_context_manager *manager = context->manager;
	manager->accepting = &context->tag;
	errno = 0;
	struct wl_client *client = wl_client_create(manager->server->display, fd);
	manager->accepting = NULL;
	if (client) {
		return true;
	}
	if (out_of_fds(errno)) {
		/* libwayland needs an fd of its own per client: keep this one waiting, not dropped.
		 */
		context->pending_fd = fd;
		pause_accepting(context, "Cannot create a client");
		return false;
	}
	wlr_log_errno(WLR_ERROR, "Cannot create a client for a security context connection");
	close(fd);
	return true;
}

static int handle_listen_readable(int fd, uint32_t mask, void *data) {
	struct security_context *context = data;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		log_context(context, "listener failed, stopping it");
		context_destroy(context);
		return 0;
	}
	for (int i = 0; i < ACCEPT_BATCH && accept_one(context); i++) {
	}
	return 0;
}

static int handle_retry_timer(void *data) {
	struct security_context *context = data;
	wl_event_source_fd_update(context->listen_source, WL_EVENT_READABLE);
	if (context->pending_fd >= 0) {
		/* The held connection first; a readable listener brings the rest. */
		handle_listen_readable(context->listen_fd, WL_EVENT_READABLE, context);
	}
	return 0;
}

static int handle_close_hangup(int fd, uint32_t mask, void *data) {
	/* Any event on close_fd (we asked for none but hang-up and error) ends the listener. */
	struct security_context *context = data;
	log_context(context, "closed by its launcher");
	context_destroy(context);
	return 0;
}

/* NULL once the listener is gone (closed, or cordon shutting down). */
static struct security_context *context_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static void context_set(
	struct wl_resource *resource, enum cordon_context_field field, const char *value) {
	struct security_context *context = context_from_resource(resource);
	if (!context || context->committed) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED,
			"the security context was already committed");
		return;
	}
	if (context->values[field]) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET,
			"the %s was already set", field_names[field]);
		return;
	}
	if (!cordon_context_value_valid(field, value)) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA,
			"the %s must be 1 to %zu printable ASCII characters without spaces",
			field_names[field], cordon_context_value_max(field));
		return;
	}
	context->values[field] = strdup(value);
	if (!context->values[field]) {
		wl_resource_post_no_memory(resource);
	}
}

static void context_handle_set_sandbox_engine(
	struct wl_client *client, struct wl_resource *resource, const char *name) {
	context_set(resource, CORDON_CONTEXT_ENGINE, name);
}

static void context_handle_set_app_id(
	struct wl_client *client, struct wl_resource *resource, const char *app_id) {
	context_set(resource, CORDON_CONTEXT_APP_ID, app_id);
}

static void context_handle_set_instance_id(
	struct wl_client *client, struct wl_resource *resource, const char *instance_id) {
	context_set(resource, CORDON_CONTEXT_INSTANCE, instance_id);
}

static void context_handle_commit(struct wl_client *client, struct wl_resource *resource) {
	struct security_context *context = context_from_resource(resource);
	if (!context || context->committed) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED,
			"the security context was already committed");
		return;
	}
	context->committed = true;
	cordon_tag_from_context(context->values[CORDON_CONTEXT_ENGINE],
		context->values[CORDON_CONTEXT_APP_ID], context->values[CORDON_CONTEXT_INSTANCE],
		&context->tag);

	/*
	 * cordon accepts on its own schedule: a connection that another holder of the socket
	 * took first must not block the compositor in accept(). The socket is the launcher's
	 * too, but it gave it to cordon to accept on.
	 */
	int flags = fcntl(context->listen_fd, F_GETFL);
	struct wl_event_loop *loop = context->manager->server->event_loop;
	if (flags < 0 || fcntl(context->listen_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot make a security context listener non-blocking");
		context_destroy(context);
		wl_resource_post_no_memory(resource);
		return;
	}
	context->listen_source = wl_event_loop_add_fd(
		loop, context->listen_fd, WL_EVENT_READABLE, handle_listen_readable, context);
	/* Mask 0: hang-up and error are always reported, and they are all we wait for. */
	context->close_source =
		wl_event_loop_add_fd(loop, context->close_fd, 0, handle_close_hangup, context);
	context->retry_timer = wl_event_loop_add_timer(loop, handle_retry_timer, context);
	if (!context->listen_source || !context->close_source || !context->retry_timer) {
		wlr_log_errno(WLR_ERROR, "Cannot watch a security context listener");
		context_destroy(context);
		wl_resource_post_no_memory(resource);
		return;
	}
	log_context(context, "listening");
}

static void context_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_security_context_v1_interface context_impl = {
	.destroy = context_handle_destroy,
	.set_sandbox_engine = context_handle_set_sandbox_engine,
	.set_app_id = context_handle_set_app_id,
	.set_instance_id = context_handle_set_instance_id,
	.commit = context_handle_commit,
};

static void handle_context_resource_destroy(struct wl_resource *resource) {
	struct security_context *context = context_from_resource(resource);
	if (!context) {
		return;
	}
	context->resource = NULL;
	/* Only commit starts a listener: an uncommitted context is just dropped. */
	if (!context->committed) {
		context_destroy(context);
	}
}

/* The protocol asks for a bound, listening unix stream socket. */
static bool is_listening_unix_stream(int fd) {
	int domain = 0, type = 0, listening = 0;
	socklen_t len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX) {
		return false;
	}
	len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) {
		return false;
	}
	len = sizeof(listening);
	return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening;
}

/* Only what can hang up can end a listener: a regular file never would. */
static bool can_hang_up(int fd) {
	struct stat st;
	return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static int count_owned(
	const struct cordon_security_context_manager *manager, const struct wl_client *client) {
	int count = 0;
	const struct security_context *context;
	wl_list_for_each(context, &manager->contexts, link) {
		if (context->owner == client) {
			count++;
		}
	}
	return count;
}

static void manager_handle_create_listener(struct wl_client *client,
	struct wl_resource *manager_resource, uint32_t id, int32_t listen_fd, int32_t close_fd) {
	struct cordon_security_context_manager *manager =
		wl_resource_get_user_data(manager_resource);
	/* The fds are ours from here on: every refusal closes them. */
	if (cordon_client_is_sandboxed(cordon_client_from_wl(client))) {
		wl_resource_post_error(manager_resource,
			WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_NESTED,
			"a sandboxed client cannot create security contexts");
		goto refuse;
	}
	if (!is_listening_unix_stream(listen_fd)) {
		wl_resource_post_error(manager_resource,
			WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD,
			"listen_fd must be a bound, listening unix stream socket");
		goto refuse;
	}
	if (!can_hang_up(close_fd)) {
		/* The protocol has no error of its own for it; the listen fd one is the nearest. */
		wl_resource_post_error(manager_resource,
			WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD,
			"close_fd must be a pipe or a socket");
		goto refuse;
	}
	if (count_owned(manager, client) >= CORDON_SECURITY_CONTEXTS_PER_CLIENT) {
		wl_client_post_implementation_error(client,
			"too many security contexts (at most %d per client)",
			CORDON_SECURITY_CONTEXTS_PER_CLIENT);
		goto refuse;
	}

	struct security_context *context = calloc(1, sizeof(*context));
	if (!context) {
		wl_client_post_no_memory(client);
		goto refuse;
	}
	context->resource = wl_resource_create(client, &wp_security_context_v1_interface,
		wl_resource_get_version(manager_resource), id);
	if (!context->resource) {
		free(context);
		wl_client_post_no_memory(client);
		goto refuse;
	}
	context->manager = manager;
	context->listen_fd = listen_fd;
	context->close_fd = close_fd;
	context->pending_fd = -1;
	context->owner = client;
	context->owner_destroy.notify = handle_owner_destroy;
	wl_client_add_destroy_listener(client, &context->owner_destroy);
	wl_list_insert(&manager->contexts, &context->link);
	wl_resource_set_implementation(
		context->resource, &context_impl, context, handle_context_resource_destroy);
	return;

refuse:
	close(listen_fd);
	close(close_fd);
}

static void manager_handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_security_context_manager_v1_interface manager_impl = {
	.destroy = manager_handle_destroy,
	.create_listener = manager_handle_create_listener,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct cordon_security_context_manager *manager = data;
	struct wl_resource *resource = wl_resource_create(
		client, &wp_security_context_manager_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, manager, NULL);
}

struct cordon_security_context_manager *cordon_security_context_manager_create(
	struct cordon_server *server) {
	struct cordon_security_context_manager *manager = calloc(1, sizeof(*manager));
	if (!manager) {
		return NULL;
	}
	manager->server = server;
	wl_list_init(&manager->contexts);
	manager->global = wl_global_create(server->display,
		&wp_security_context_manager_v1_interface, MANAGER_VERSION, manager, manager_bind);
	if (!manager->global) {
		wlr_log(WLR_ERROR, "Cannot create the security context manager global");
		free(manager);
		return NULL;
	}
	return manager;
}

void cordon_security_context_manager_destroy(struct cordon_security_context_manager *manager) {
	if (!manager) {
		return;
	}
	struct security_context *context, *tmp;
	wl_list_for_each_safe(context, tmp, &manager->contexts, link) {
		context_destroy(context);
	}
	wl_global_destroy(manager->global);
	free(manager);
}

const struct cordon_tag *cordon_security_context_accepting(
	const struct cordon_security_context_manager *manager) {
	return manager ? manager->accepting : NULL;
}
