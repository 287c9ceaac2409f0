/*
 * The request lifecycle shared by every portal. The caller's identity is copied
 * from its client record (the tag the kernel proved at connect) when the request
 * is made; nothing the client sends is ever taken for who it is.
 */
#include "portals/request.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "common/policy.h"
#include "cordon-portal-v1-protocol.h"
#include "portals/permission_store.h"
#include "portals/portals.h"
#include "portals/ui_plugin.h"

bool cordon_portal_make_token(char token[CORDON_PORTAL_TOKEN_LEN + 1]) {
	unsigned char bytes[CORDON_PORTAL_TOKEN_LEN / 2];
	size_t got = 0;
	while (got < sizeof(bytes)) {
		ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(bytes); i++) {
		snprintf(token + 2 * i, 3, "%02x", bytes[i]);
	}
	return true;
}

/*
 * Whether the caller may make one more request (SECURITY-NOTES: per-client caps): a
 * Wayland client by its connection, a D-Bus caller without a window by its app id.
 */
static bool under_cap(struct cordon_portals *portals, const struct cordon_portal_caller *caller) {
	size_t unanswered = 0, objects = 0;
	struct cordon_portal_request *request;
	wl_list_for_each(request, &portals->requests, link) {
		bool same = caller->client ? request->client == caller->client
					   : !request->client &&
				strcmp(cordon_portal_request_app_id(request), caller->tag.app_id) ==
					0;
		if (!same) {
			continue;
		}
		objects++;
		if (request->state != CORDON_PORTAL_REQUEST_ANSWERED) {
			unanswered++;
		}
	}
	return unanswered < CORDON_PORTAL_MAX_REQUESTS_PER_CLIENT &&
		objects < CORDON_PORTAL_MAX_OBJECTS_PER_CLIENT;
}

/*
 * The app a cap counts for: a sandboxed caller by its tag, whatever connection or door it
 * comes through; every caller of an unknown sandbox together (fail closed). Not the host,
 * whose clients are capped one by one.
 */
static bool is_capped_app(const struct cordon_tag *tag) {
	return cordon_tag_is_unknown(tag) || tag->sandboxed;
}

static bool same_app(const struct cordon_tag *tag, const struct cordon_portal_request *request) {
	if (cordon_tag_is_unknown(tag) || cordon_tag_is_unknown(&request->tag)) {
		return cordon_tag_is_unknown(tag) && cordon_tag_is_unknown(&request->tag);
	}
	return cordon_tag_same_sandbox(tag, &request->tag);
}

/* Whether the caller's app already has as many requests waiting as an app may. */
static bool app_at_cap(struct cordon_portals *portals, const struct cordon_portal_caller *caller) {
	if (!is_capped_app(&caller->tag)) {
		return false;
	}
	size_t waiting = 0;
	struct cordon_portal_request *request;
	wl_list_for_each(request, &portals->requests, link) {
		if (!request->over_app_cap && request->state != CORDON_PORTAL_REQUEST_ANSWERED &&
			same_app(&caller->tag, request)) {
			waiting++;
		}
	}
	return waiting >= CORDON_PORTAL_MAX_REQUESTS_PER_APP;
}

struct cordon_portal_request *cordon_portal_request_create_for(struct cordon_portals *portals,
	const struct cordon_portal_caller *caller, const struct cordon_portal_request_impl *impl,
	void *data, bool *over_cap) {
	*over_cap = !under_cap(portals, caller);
	if (*over_cap) {
		return NULL;
	}
	struct cordon_portal_request *request = calloc(1, sizeof(*request));
	if (!request) {
		return NULL;
	}
	if (!cordon_portal_make_token(request->token)) {
		wlr_log_errno(WLR_ERROR, "getrandom gave no portal request token");
		free(request);
		return NULL;
	}
	request->portals = portals;
	request->impl = impl;
	request->data = data;
	request->client = caller->client;
	request->tag = caller->tag;
	request->pid = caller->pid;
	/* Shown in the dialog's frame and the attention overlay: something only cordon knows. */
	clock_gettime(CLOCK_REALTIME, &request->asked_at);
	request->over_app_cap = app_at_cap(portals, caller);
	wl_list_init(&request->parent_destroy.link);
	wl_list_insert(portals->requests.prev, &request->link);
	return request;
}

struct cordon_portal_request *cordon_portal_request_create(struct cordon_portals *portals,
	struct wl_client *client, struct wl_resource *manager,
	const struct cordon_portal_request_impl *impl, void *data) {
	struct cordon_portal_caller caller = {.client = client};
	/* An unknown sandbox is cordon_tag_unknown: sandboxed, with no app id to trust. */
	portals->host.client_identity(portals->host.data, client, &caller.tag, &caller.pid);
	bool over_cap;
	struct cordon_portal_request *request =
		cordon_portal_request_create_for(portals, &caller, impl, data, &over_cap);
	if (over_cap) {
		wl_resource_post_error(manager, CORDON_PORTAL_MANAGER_V1_ERROR_TOO_MANY_REQUESTS,
			"more than %d unanswered portal requests, or %d request objects",
			CORDON_PORTAL_MAX_REQUESTS_PER_CLIENT,
			CORDON_PORTAL_MAX_OBJECTS_PER_CLIENT);
	} else if (!request) {
		wl_client_post_no_memory(client);
	}
	return request;
}

static void detach_parent(struct cordon_portal_request *request) {
	wl_list_remove(&request->parent_destroy.link);
	wl_list_init(&request->parent_destroy.link);
	request->parent = NULL;
}

void cordon_portal_request_close_dialog(struct cordon_portal_request *request) {
	if (request->dialog) {
		struct cordon_portal_dialog *dialog = request->dialog;
		request->dialog = NULL;
		cordon_portal_dialog_close(dialog);
	}
}

void cordon_portal_request_destroy(struct cordon_portal_request *request) {
	if (!request) {
		return;
	}
	if (request->state == CORDON_PORTAL_REQUEST_PENDING) {
		wlr_log(WLR_DEBUG, "Portal request %s of %s dismissed: the app let go of it",
			request->token, cordon_log_text(cordon_portal_request_app_id(request)));
	}
	cordon_portal_request_close_dialog(request);
	detach_parent(request);
	wl_list_remove(&request->link);
	free(request);
}

static void handle_parent_destroy(struct wl_listener *listener, void *data) {
	struct cordon_portal_request *request = wl_container_of(listener, request, parent_destroy);
	detach_parent(request);
	if (request->state == CORDON_PORTAL_REQUEST_PENDING) {
		/* The window the dialog was for is gone: the question has no one to belong to. */
		cordon_portal_request_cancel(request);
	}
}

bool cordon_portal_request_set_parent(
	struct cordon_portal_request *request, struct wl_resource *toplevel) {
	if (wl_resource_get_client(toplevel) != request->client) {
		return false;
	}
	detach_parent(request);
	request->parent = toplevel;
	request->parent_destroy.notify = handle_parent_destroy;
	wl_resource_add_destroy_listener(toplevel, &request->parent_destroy);
	return true;
}

const char *cordon_portal_request_app_id(const struct cordon_portal_request *request) {
	return cordon_tag_is_unknown(&request->tag) ? "" : request->tag.app_id;
}

static bool parent_busy(struct cordon_portal_request *request) {
	if (!request->parent) {
		return false;
	}
	struct cordon_portal_request *other;
	wl_list_for_each(other, &request->portals->requests, link) {
		if (other != request && other->parent == request->parent &&
			other->state == CORDON_PORTAL_REQUEST_PENDING) {
			return true;
		}
	}
	return false;
}

static void fill_app(
	const struct cordon_portal_request *request, struct cordon_portal_ui_app *app) {
	app->known = !cordon_tag_is_unknown(&request->tag);
	app->sandboxed = request->tag.sandboxed;
	app->engine = cordon_tag_engine_name(&request->tag);
	app->app_id = cordon_portal_request_app_id(request);
	app->instance = request->tag.instance;
}

/* The policy's "portals" list, when the app's section or profile sets one. */
static bool policy_allows(const struct cordon_portal_request *request) {
	const struct cordon_policy *policy = request->portals->host.policy;
	const char *app_id = cordon_portal_request_app_id(request);
	const char *id = app_id[0] ? app_id : NULL;
	if (!policy || !cordon_policy_get(policy, id, NULL, "portals")) {
		return true;
	}
	return cordon_policy_list_contains(policy, id, NULL, "portals", request->impl->portal);
}

/* The policy, the store and the parent, in that order; the store's answer in *permission. */
static bool check_request(struct cordon_portal_request *request, enum cordon_permission *permission,
	enum cordon_portal_failure *failure, const char **reason) {
	const char *app_id = cordon_portal_request_app_id(request);
	*permission =
		cordon_permission_store_get(request->portals->store, app_id, request->impl->portal);
	wlr_log(WLR_INFO, "Portal %s request %s from pid %d (%s %s), permission %s",
		request->impl->portal, request->token, (int)request->pid,
		cordon_tag_engine_name(&request->tag),
		app_id[0] ? cordon_log_text(app_id) : "(no app id)",
		cordon_permission_name(*permission));
	if (request->over_app_cap) {
		/* Before the store and the UI: nothing of a request over the cap runs. */
		wlr_log(WLR_INFO,
			"Portal %s request %s refused: %s (%s) already has %d requests waiting "
			"for an answer, the most one app may have",
			request->impl->portal, request->token,
			app_id[0] ? cordon_log_text(app_id) : "(no app id)",
			cordon_tag_engine_name(&request->tag), CORDON_PORTAL_MAX_REQUESTS_PER_APP);
		*failure = CORDON_PORTAL_FAILURE_BUSY;
		*reason = "too many requests of this app are waiting for an answer";
		return false;
	}
	*failure = CORDON_PORTAL_FAILURE_DENIED;
	if (!policy_allows(request)) {
		wlr_log(WLR_INFO, "Portal %s request %s: not in the app's policy 'portals' list",
			request->impl->portal, request->token);
		*reason = "the app's policy does not allow this portal";
		return false;
	}
	if (*permission == CORDON_PERMISSION_DENY) {
		*reason = "the user denied this app the portal";
		return false;
	}
	if (parent_busy(request)) {
		*failure = CORDON_PORTAL_FAILURE_BUSY;
		*reason = "a dialog is already open for this window";
		return false;
	}
	return true;
}

bool cordon_portal_request_check(struct cordon_portal_request *request,
	enum cordon_portal_failure *failure, const char **reason) {
	enum cordon_permission permission;
	return check_request(request, &permission, failure, reason);
}

void cordon_portal_request_submit(
	struct cordon_portal_request *request, struct cordon_portal_ui_request *options) {
	request->state = CORDON_PORTAL_REQUEST_PENDING;
	enum cordon_permission permission;
	enum cordon_portal_failure failure;
	const char *reason;
	if (!check_request(request, &permission, &failure, &reason)) {
		cordon_portal_request_fail(request, failure, reason);
		return;
	}
	const char *unavailable =
		request->impl->unavailable ? request->impl->unavailable(request) : NULL;
	if (unavailable) {
		cordon_portal_request_fail(request, CORDON_PORTAL_FAILURE_UNAVAILABLE, unavailable);
		return;
	}
	if (permission == CORDON_PERMISSION_ALLOW && request->impl->allowed_without_dialog &&
		request->impl->allowed_without_dialog(request)) {
		return;
	}
	options->token = request->token;
	fill_app(request, &options->app);
	request->dialog = cordon_portal_dialog_open(request->portals->ui, request, options);
	if (!request->dialog && request->state == CORDON_PORTAL_REQUEST_PENDING) {
		cordon_portal_request_fail(
			request, CORDON_PORTAL_FAILURE_UNAVAILABLE, "no dialog can be shown");
	}
}

void cordon_portal_request_respond(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	if (request->state == CORDON_PORTAL_REQUEST_ANSWERED) {
		return;
	}
	request->state = CORDON_PORTAL_REQUEST_ANSWERED;
	cordon_portal_request_close_dialog(request);
	detach_parent(request);
	static const char *const results[] = {"chosen", "cancelled", "failed"};
	wlr_log(WLR_INFO, "Portal %s request %s answered: %s%s%s (%zu files)",
		request->impl->portal, request->token, results[response->result],
		response->result == CORDON_PORTAL_FAILED ? ", " : "",
		response->result == CORDON_PORTAL_FAILED ? cordon_log_text(response->reason) : "",
		response->file_count);
	/* A frozen app would not read the answer: thaw it first (docs/freeze.md). */
	if (request->client) {
		const struct cordon_portal_host *host = &request->portals->host;
		host->wake_client(host->data, request->client, "portal response");
	}
	request->impl->send_response(request, response);
}

void cordon_portal_request_fail(struct cordon_portal_request *request,
	enum cordon_portal_failure failure, const char *reason) {
	struct cordon_portal_response response = {
		.result = CORDON_PORTAL_FAILED,
		.failure = failure,
		.reason = reason,
	};
	cordon_portal_request_respond(request, &response);
}

void cordon_portal_request_cancel(struct cordon_portal_request *request) {
	struct cordon_portal_response response = {.result = CORDON_PORTAL_CANCELLED};
	cordon_portal_request_respond(request, &response);
}
