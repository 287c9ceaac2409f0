/*
 * Mime types offered on data sources (clipboard, primary selection, data control) are kept
 * by wlroots for the source's life, each one as long as the client wrote it (up to the 4 KiB
 * a message may carry), before cordon sees the source at all: 100,000 types of 4,000 bytes
 * on one source grew cordon by 400 MB. Each offer request is watched here, as libwayland
 * dispatches it, and charged to the app's budget (app_limits.c) until the source is
 * destroyed. Over the cap the client gets a protocol error and is disconnected: a source
 * without the type it offered would be a source the app did not ask for.
 */
#include "compositor/offer_limits.h"

#include <stdlib.h>
#include <string.h>
#include <wayland-server-core.h>

#include "compositor/app_limits.h"
#include "compositor/client.h"
#include "compositor/server.h"

struct cordon_offer_limits {
	struct cordon_server *server;
	struct wl_protocol_logger *logger;
};

/* What one source's offers charged, given back when the source goes. */
struct offered_source {
	struct cordon_app_budget *budget;
	uint64_t types, bytes;
	struct wl_listener destroy;
};

/*
 * Every interface with an "offer" request is a selection source. Matched by name: the
 * primary-selection and data-control interfaces are defined once in wlroots and once more in
 * each program that generated their code, so there is no one wl_interface to compare with.
 */
static bool is_source_offer(const struct wl_protocol_logger_message *message) {
	static const char *const sources[] = {
		"wl_data_source",
		"zwp_primary_selection_source_v1",
		"zwlr_data_control_source_v1",
		"ext_data_control_source_v1",
	};
	if (strcmp(message->message->name, "offer") != 0 || message->arguments_count < 1) {
		return false;
	}
	const char *class = wl_resource_get_class(message->resource);
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		if (strcmp(class, sources[i]) == 0) {
			return true;
		}
	}
	return false;
}

static void handle_source_destroy(struct wl_listener *listener, void *data) {
	struct offered_source *source = wl_container_of(listener, source, destroy);
	wl_list_remove(&source->destroy.link);
	cordon_app_budget_give(source->budget, CORDON_APP_MIME_TYPES, source->types);
	cordon_app_budget_give(source->budget, CORDON_APP_MIME_BYTES, source->bytes);
	cordon_app_budget_unref(source->budget);
	free(source);
}

static struct offered_source *source_record(
	struct wl_resource *resource, struct cordon_app_budget *budget) {
	struct wl_listener *listener =
		wl_resource_get_destroy_listener(resource, handle_source_destroy);
	if (listener) {
		struct offered_source *source = wl_container_of(listener, source, destroy);
		return source;
	}
	struct offered_source *source = calloc(1, sizeof(*source));
	if (!source) {
		return NULL;
	}
	source->budget = cordon_app_budget_ref(budget);
	source->destroy.notify = handle_source_destroy;
	wl_resource_add_destroy_listener(resource, &source->destroy);
	return source;
}

static bool charge(struct offered_source *source, uint64_t bytes) {
	if (!cordon_app_budget_take(source->budget, CORDON_APP_MIME_TYPES, 1)) {
		return false;
	}
	if (!cordon_app_budget_take(source->budget, CORDON_APP_MIME_BYTES, bytes)) {
		cordon_app_budget_give(source->budget, CORDON_APP_MIME_TYPES, 1);
		return false;
	}
	source->types++;
	source->bytes += bytes;
	return true;
}

static void handle_protocol_message(void *data, enum wl_protocol_logger_type type,
	const struct wl_protocol_logger_message *message) {
	if (type != WL_PROTOCOL_LOGGER_REQUEST || !is_source_offer(message)) {
		return;
	}
	struct wl_client *wl_client = wl_resource_get_client(message->resource);
	struct cordon_client *client = cordon_client_from_wl(wl_client);
	if (!client || !client->budget || client->refuse_idle) {
		/* The host is not capped; a client already being disconnected is not charged. */
		return;
	}
	const char *mime_type = message->arguments[0].s;
	struct offered_source *source = source_record(message->resource, client->budget);
	if (source && charge(source, mime_type ? strlen(mime_type) + 1 : 1)) {
		return;
	}
	wl_client_post_implementation_error(wl_client,
		"too many mime types offered by this app (at most %d, %d bytes in all)",
		CORDON_APP_MAX_MIME_TYPES, CORDON_APP_MAX_MIME_BYTES);
	cordon_client_disconnect_later(client);
}

struct cordon_offer_limits *cordon_offer_limits_create(struct cordon_server *server) {
	struct cordon_offer_limits *limits = calloc(1, sizeof(*limits));
	if (!limits) {
		return NULL;
	}
	limits->server = server;
	limits->logger =
		wl_display_add_protocol_logger(server->display, handle_protocol_message, limits);
	if (!limits->logger) {
		free(limits);
		return NULL;
	}
	return limits;
}

void cordon_offer_limits_destroy(struct cordon_offer_limits *limits) {
	if (!limits) {
		return;
	}
	wl_protocol_logger_destroy(limits->logger);
	free(limits);
}
