/*
 * open_camera_stream. After consent (the "camera" permission, shared with photos)
 * cordon starts a provider whose file says Stream = true, in stream mode, and
 * hands the app the read end of a pipe that cordon feeds (portals/camera_relay.c).
 * Because cordon holds the other end, revoking the camera (cordonctl permissions,
 * or the camera-in-use indicator) ends the stream at once: the app's fd reads end
 * of file, whatever the app does. The provider never learns who is watching, except
 * the app id for providers that ask for it.
 */
#include "portals/camera_stream.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "cordon-portal-v1-protocol.h"
#include "cordon/camera-frame.h"
#include "cordon/portal-ui.h"
#include "portals/camera.h"
#include "portals/camera_indicator.h"
#include "portals/camera_providers.h"
#include "portals/camera_relay.h"
#include "portals/portals.h"
#include "portals/request.h"

/* The first version whose stream is a relayed pipe; older ones got a device fd. */
#define RELAY_VERSION 4

struct stream {
	struct wl_resource *resource;
	struct cordon_portal_request *request;
	uint32_t width, height;
	/* Read at submit, so that a new provider file counts without a restart. */
	struct cordon_camera_providers providers;
	struct cordon_portal_ui_camera_provider offered[CORDON_CAMERA_MAX_PROVIDERS];
	const struct cordon_camera_provider *offered_provider[CORDON_CAMERA_MAX_PROVIDERS];
	size_t offered_count;
	size_t chosen;
	/* While open: */
	struct cordon_camera_relay *relay;
	struct wl_list link; /* cordon_portals.camera_streams */
	char *app_id;
	char *provider_id;
	pid_t pid;
};

static struct stream *stream_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

/* Closes cordon's end; the app hears why when it can (version 4). */
static void stream_close(struct stream *stream,
	enum cordon_portal_camera_stream_v1_end_reason reason, const char *message) {
	if (!stream->relay) {
		return;
	}
	struct cordon_portals *portals = stream->request->portals;
	cordon_camera_relay_destroy(stream->relay);
	stream->relay = NULL;
	wl_list_remove(&stream->link);
	if (message) {
		cordon_portal_camera_stream_v1_send_ended(stream->resource, reason, message);
	}
	wlr_log(WLR_INFO, "Camera stream of '%s' closed: %s", cordon_log_text(stream->app_id),
		message ? message : "its request went away");
	free(stream->app_id);
	free(stream->provider_id);
	stream->app_id = stream->provider_id = NULL;
	cordon_camera_indicator_update(portals->camera_indicator);
}

static void handle_stream_resource_destroy(struct wl_resource *resource) {
	struct stream *stream = stream_from_resource(resource);
	/* The app let go (or disconnected): the provider is stopped, the dialog goes. */
	stream_close(stream, 0, NULL);
	cordon_portal_request_destroy(stream->request);
	cordon_camera_providers_finish(&stream->providers);
	free(stream);
}

static bool stream_configuring(struct stream *stream) {
	if (stream->request->state == CORDON_PORTAL_REQUEST_CONFIGURING) {
		return true;
	}
	wl_resource_post_error(stream->resource,
		CORDON_PORTAL_CAMERA_STREAM_V1_ERROR_ALREADY_SUBMITTED,
		"set_parent, set_size and submit are only accepted before submit");
	return false;
}

static void handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_set_parent(
	struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent) {
	struct stream *stream = stream_from_resource(resource);
	if (stream_configuring(stream) &&
		!cordon_portal_request_set_parent(stream->request, parent)) {
		wl_resource_post_error(resource, CORDON_PORTAL_CAMERA_STREAM_V1_ERROR_BAD_PARENT,
			"the parent toplevel is not the client's own");
	}
}

static void handle_set_size(
	struct wl_client *client, struct wl_resource *resource, uint32_t width, uint32_t height) {
	struct stream *stream = stream_from_resource(resource);
	if (!stream_configuring(stream)) {
		return;
	}
	if (width == 0 || height == 0 || width > CORDON_CAMERA_FRAME_MAX_SIDE ||
		height > CORDON_CAMERA_FRAME_MAX_SIDE) {
		wl_resource_post_error(resource, CORDON_PORTAL_CAMERA_STREAM_V1_ERROR_INVALID_SIZE,
			"a frame size must be 1 to %d pixels each way, not %ux%u",
			CORDON_CAMERA_FRAME_MAX_SIDE, width, height);
		return;
	}
	stream->width = width;
	stream->height = height;
}

/* The providers that can stream, in the registry's order. */
static void offer_providers(struct stream *stream) {
	cordon_camera_providers_load_default(&stream->providers);
	const struct cordon_policy *policy = stream->request->portals->host.policy;
	const char *app_id = cordon_portal_request_app_id(stream->request);
	for (size_t i = 0; i < stream->providers.count; i++) {
		const struct cordon_camera_provider *provider = &stream->providers.providers[i];
		if (!provider->can_stream ||
			!cordon_camera_provider_allowed(policy, app_id, provider)) {
			continue;
		}
		stream->offered_provider[stream->offered_count] = provider;
		stream->offered[stream->offered_count++] =
			(struct cordon_portal_ui_camera_provider){
				.id = provider->id,
				.name = provider->name,
				.icon = provider->icon,
				.mime_type = "video",
			};
	}
}

static size_t client_stream_count(struct cordon_portals *portals, struct wl_client *client) {
	size_t count = 0;
	struct stream *stream;
	wl_list_for_each(stream, &portals->camera_streams, link) {
		count += stream->request->client == client;
	}
	return count;
}

static void handle_submit(struct wl_client *client, struct wl_resource *resource) {
	struct stream *stream = stream_from_resource(resource);
	if (!stream_configuring(stream)) {
		return;
	}
	struct cordon_portals *portals = stream->request->portals;
	if (client_stream_count(portals, client) >= CORDON_CAMERA_MAX_STREAMS_PER_CLIENT) {
		cordon_portal_request_fail(stream->request, CORDON_PORTAL_FAILURE_BUSY,
			"this app has as many camera streams open as cordon allows");
		return;
	}
	offer_providers(stream);
	struct cordon_portal_ui_request options = {
		.portal = CORDON_PORTAL_UI_CAMERA_STREAM,
		.title = "Use the camera",
		.providers = stream->offered,
		.provider_count = stream->offered_count,
		.width = stream->width,
		.height = stream->height,
	};
	cordon_portal_request_submit(stream->request, &options);
}

static const struct cordon_portal_camera_stream_v1_interface stream_impl = {
	.destroy = handle_destroy,
	.set_parent = handle_set_parent,
	.set_size = handle_set_size,
	.submit = handle_submit,
};

static void handle_relay_ended(void *data, enum cordon_camera_relay_end end, const char *message) {
	struct stream *stream = data;
	stream_close(stream,
		end == CORDON_CAMERA_RELAY_READER_CLOSED
			? CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_CLOSED
			: CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_PROVIDER,
		message);
}

/* Consent given: start the provider and hand the app its end. */
static void open_stream(struct stream *stream) {
	struct cordon_portal_request *request = stream->request;
	struct cordon_portals *portals = request->portals;
	cordon_portal_request_close_dialog(request);
	/* Again here: dialogs answered together pass submit's check together. */
	if (client_stream_count(portals, request->client) >= CORDON_CAMERA_MAX_STREAMS_PER_CLIENT) {
		cordon_portal_request_fail(request, CORDON_PORTAL_FAILURE_BUSY,
			"this app has as many camera streams open as cordon allows");
		return;
	}
	const struct cordon_camera_provider *provider = stream->offered_provider[stream->chosen];
	struct cordon_camera_limits limits = cordon_camera_get_limits(&portals->host.settings);
	struct cordon_camera_relay_options options = {
		.width = stream->width,
		.height = stream->height,
		.app_id = cordon_portal_request_app_id(request),
		.launcher = limits.launcher,
		.max_frame_bytes = limits.max_bytes,
		.timeout_ms = limits.timeout_ms,
	};
	stream->app_id = strdup(options.app_id);
	stream->provider_id = strdup(provider->id);
	if (!stream->app_id || !stream->provider_id) {
		cordon_portal_request_fail(request, CORDON_PORTAL_FAILURE_IO, "out of memory");
		return;
	}
	const char *error = NULL;
	int app_fd = -1;
	wlr_log(WLR_INFO, "Portal camera stream %s: provider %s", request->token, provider->id);
	stream->relay = cordon_camera_relay_start(portals->host.event_loop, provider, &options,
		handle_relay_ended, stream, &app_fd, &error);
	if (!stream->relay) {
		cordon_portal_request_fail(request, CORDON_PORTAL_FAILURE_IO, error);
		return;
	}
	stream->pid = request->pid;
	wl_list_insert(portals->camera_streams.prev, &stream->link);
	struct cordon_portal_file file = {.fd = app_fd, .display_name = "video"};
	struct cordon_portal_response response = {
		.result = CORDON_PORTAL_CHOSEN,
		.files = &file,
		.file_count = 1,
	};
	cordon_portal_request_respond(request, &response);
	/* libwayland sent a duplicate; the app holds the only read end now. */
	close(app_fd);
	cordon_camera_indicator_update(portals->camera_indicator);
}

static void stream_confirm(struct cordon_portal_request *request) {
	open_stream(request->data);
}

static bool stream_choose_provider(struct cordon_portal_request *request, size_t index) {
	struct stream *stream = request->data;
	if (index >= stream->offered_count) {
		return false;
	}
	stream->chosen = index;
	return true;
}

/* Allowed, and only one provider streams: nothing to ask. */
static bool stream_allowed_without_dialog(struct cordon_portal_request *request) {
	struct stream *stream = request->data;
	if (stream->offered_count != 1) {
		return false;
	}
	open_stream(stream);
	return true;
}

/* After the denial check, so that a denied app hears "denied" whatever is installed. */
static const char *stream_unavailable(struct cordon_portal_request *request) {
	struct stream *stream = request->data;
	if (wl_resource_get_version(stream->resource) < RELAY_VERSION) {
		return "camera streams need cordon_portal_manager_v1 version 4";
	}
	return stream->offered_count == 0 ? "no camera provider can stream to this app" : NULL;
}

static void stream_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct stream *stream = request->data;
	switch (response->result) {
	case CORDON_PORTAL_CHOSEN:
		cordon_portal_camera_stream_v1_send_stream(stream->resource, response->files[0].fd);
		break;
	case CORDON_PORTAL_CANCELLED:
		cordon_portal_camera_stream_v1_send_cancelled(stream->resource);
		break;
	case CORDON_PORTAL_FAILED:
		cordon_portal_camera_stream_v1_send_failed(
			stream->resource, response->failure, response->reason);
		break;
	}
}

static const struct cordon_portal_request_impl stream_request_impl = {
	.portal = "camera",
	.send_response = stream_send_response,
	.confirm = stream_confirm,
	.choose_provider = stream_choose_provider,
	.allowed_without_dialog = stream_allowed_without_dialog,
	.unavailable = stream_unavailable,
};

void cordon_camera_stream_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id) {
	struct stream *stream = calloc(1, sizeof(*stream));
	if (!stream) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_list_init(&stream->link);
	stream->request = cordon_portal_request_create(
		portals, client, manager, &stream_request_impl, stream);
	if (!stream->request) {
		free(stream);
		return;
	}
	stream->resource = wl_resource_create(client, &cordon_portal_camera_stream_v1_interface,
		wl_resource_get_version(manager), id);
	if (!stream->resource) {
		cordon_portal_request_destroy(stream->request);
		free(stream);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(
		stream->resource, &stream_impl, stream, handle_stream_resource_destroy);
}

size_t cordon_camera_streams_revoke(struct cordon_portals *portals, const char *app_id) {
	size_t count = 0;
	struct stream *stream, *tmp;
	wl_list_for_each_safe(stream, tmp, &portals->camera_streams, link) {
		if (app_id && strcmp(stream->app_id, app_id) != 0) {
			continue;
		}
		stream_close(stream, CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_REVOKED,
			"the user revoked the camera");
		count++;
	}
	return count;
}

void cordon_camera_streams_for_each(
	struct cordon_portals *portals, cordon_camera_stream_iterator fn, void *data) {
	struct stream *stream;
	wl_list_for_each(stream, &portals->camera_streams, link) {
		const struct cordon_camera_relay_stats *stats =
			cordon_camera_relay_get_stats(stream->relay);
		struct cordon_camera_stream_info info = {
			.app_id = stream->app_id,
			.provider = stream->provider_id,
			.pid = stream->pid,
			.frames = stats->frames,
			.dropped = stats->dropped,
			.bytes = stats->bytes,
			.width = stats->width,
			.height = stats->height,
		};
		fn(data, &info);
	}
}
