/*
 * The camera portals. take_photo: the user consents and picks one of the
 * registered providers that make a type the app accepts (portals/camera_providers.c);
 * the provider runs with nothing but a pipe to write the photo to
 * (portals/camera_capture.c); the app gets a sealed read-only memfd and the mime
 * type, never the provider's name. The provider is told the app's id only when
 * its file asks for it (the test pattern draws it), and nothing else about who asked.
 * Streams are portals/camera_stream.c. Both share the "camera" permission and the
 * providers' limits below.
 */
#include "portals/camera.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/policy.h"
#include "cordon-portal-v1-protocol.h"
#include "cordon/camera-frame.h"
#include "cordon/portal-ui.h"
#include "portals/camera_capture.h"
#include "portals/camera_providers.h"
#include "portals/camera_relay.h"
#include "portals/portals.h"
#include "portals/request.h"
#include "portals/ui_plugin.h"

#define MAX_MIME_TYPES 16
#define MAX_STRING 256
#define MAX_SIZE 8192
/* [portal] camera-timeout-ms and camera-max-bytes when the config has none. */
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_MAX_BYTES (32 * 1024 * 1024)

struct photo {
	struct wl_resource *resource;
	struct cordon_portal_request *request;
	uint32_t width, height;
	char *mime_types[MAX_MIME_TYPES];
	size_t mime_type_count;
	/* Read at submit, so that a new provider file counts without a restart. */
	struct cordon_camera_providers providers;
	/* The providers that fit, as the dialog sees them. */
	struct cordon_portal_ui_camera_provider offered[CORDON_CAMERA_MAX_PROVIDERS];
	const struct cordon_camera_provider *offered_provider[CORDON_CAMERA_MAX_PROVIDERS];
	bool offered_preview[CORDON_CAMERA_MAX_PROVIDERS]; /* it streams: a preview is possible */
	size_t offered_count;
	long chosen; /* index into offered, -1 for none yet */
	/* The dialog's live preview: the provider streams to cordon, never to the app. */
	struct cordon_camera_relay *preview;
	struct cordon_camera_capture *capture;
	struct cordon_portal_file photo_file; /* fd -1 until the provider made it */
};

static struct photo *photo_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static void stop_preview(struct photo *photo) {
	cordon_camera_relay_destroy(photo->preview);
	photo->preview = NULL;
}

static void photo_free_state(struct photo *photo) {
	stop_preview(photo);
	cordon_camera_capture_destroy(photo->capture);
	photo->capture = NULL;
	if (photo->photo_file.fd >= 0) {
		close(photo->photo_file.fd);
		photo->photo_file.fd = -1;
	}
}

static void handle_photo_resource_destroy(struct wl_resource *resource) {
	struct photo *photo = photo_from_resource(resource);
	/* The app let go (or disconnected): the dialog goes, the provider is stopped. */
	cordon_portal_request_destroy(photo->request);
	photo_free_state(photo);
	for (size_t i = 0; i < photo->mime_type_count; i++) {
		free(photo->mime_types[i]);
	}
	cordon_camera_providers_finish(&photo->providers);
	free(photo);
}

static bool photo_configuring(struct photo *photo) {
	if (photo->request->state == CORDON_PORTAL_REQUEST_CONFIGURING) {
		return true;
	}
	wl_resource_post_error(photo->resource,
		CORDON_PORTAL_CAMERA_PHOTO_V1_ERROR_ALREADY_SUBMITTED,
		"options and submit are only accepted before submit");
	return false;
}

static void handle_request_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_set_size(
	struct wl_client *client, struct wl_resource *resource, uint32_t width, uint32_t height) {
	struct photo *photo = photo_from_resource(resource);
	if (!photo_configuring(photo)) {
		return;
	}
	if (width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE) {
		wl_resource_post_error(resource, CORDON_PORTAL_CAMERA_PHOTO_V1_ERROR_INVALID_OPTION,
			"a size must be 1 to %d pixels each way, not %ux%u", MAX_SIZE, width,
			height);
		return;
	}
	photo->width = width;
	photo->height = height;
}

static bool valid_mime_type(const char *type) {
	size_t len = strlen(type);
	const char *slash = strchr(type, '/');
	if (len == 0 || len >= MAX_STRING || !slash || slash == type || slash[1] == '\0') {
		return false;
	}
	for (const char *c = type; *c; c++) {
		if (*c <= ' ' || *c >= 0x7f) {
			return false;
		}
	}
	return true;
}

static void handle_add_mime_type(
	struct wl_client *client, struct wl_resource *resource, const char *mime_type) {
	struct photo *photo = photo_from_resource(resource);
	if (!photo_configuring(photo)) {
		return;
	}
	if (!valid_mime_type(mime_type)) {
		wl_resource_post_error(resource, CORDON_PORTAL_CAMERA_PHOTO_V1_ERROR_INVALID_OPTION,
			"a mime type is TYPE/SUBTYPE, printable, shorter than %d bytes",
			MAX_STRING);
		return;
	}
	if (photo->mime_type_count == MAX_MIME_TYPES) {
		wl_resource_post_error(resource,
			CORDON_PORTAL_CAMERA_PHOTO_V1_ERROR_TOO_MANY_MIME_TYPES,
			"more than %d mime types", MAX_MIME_TYPES);
		return;
	}
	photo->mime_types[photo->mime_type_count] = strdup(mime_type);
	if (!photo->mime_types[photo->mime_type_count]) {
		wl_client_post_no_memory(client);
		return;
	}
	photo->mime_type_count++;
}

static void handle_photo_set_parent(
	struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent) {
	struct photo *photo = photo_from_resource(resource);
	if (photo_configuring(photo) && !cordon_portal_request_set_parent(photo->request, parent)) {
		wl_resource_post_error(resource, CORDON_PORTAL_CAMERA_PHOTO_V1_ERROR_BAD_PARENT,
			"the parent toplevel is not the client's own");
	}
}

struct cordon_camera_limits cordon_camera_get_limits(
	const struct cordon_portal_settings *settings) {
	struct cordon_camera_limits limits = {
		.max_bytes = settings->camera_max_bytes > 0 ? (size_t)settings->camera_max_bytes
							    : DEFAULT_MAX_BYTES,
		.timeout_ms = settings->camera_timeout_ms > 0 ? settings->camera_timeout_ms
							      : DEFAULT_TIMEOUT_MS,
		.launcher = settings->camera_launcher ? settings->camera_launcher : CORDON_RUN_PATH,
	};
	if (strcmp(limits.launcher, "none") == 0) {
		limits.launcher = NULL;
	}
	return limits;
}

bool cordon_camera_provider_allowed(const struct cordon_policy *policy, const char *app_id,
	const struct cordon_camera_provider *provider) {
	const char *id = app_id[0] ? app_id : NULL;
	return !policy || !cordon_policy_get(policy, id, NULL, "camera-providers") ||
		cordon_policy_list_contains(policy, id, NULL, "camera-providers", provider->id);
}

/* The providers that make something the app accepts, in the registry's order. */
static void offer_providers(struct photo *photo) {
	static const char *const any[] = {"image/png", "image/jpeg"};
	const char *const *accepted =
		photo->mime_type_count ? (const char *const *)photo->mime_types : any;
	size_t accepted_count = photo->mime_type_count ? photo->mime_type_count : 2;
	cordon_camera_providers_load_default(&photo->providers);
	const struct cordon_policy *policy = photo->request->portals->host.policy;
	const char *app_id = cordon_portal_request_app_id(photo->request);
	for (size_t i = 0; i < photo->providers.count; i++) {
		const struct cordon_camera_provider *provider = &photo->providers.providers[i];
		const char *mime = cordon_camera_provider_match(provider, accepted, accepted_count);
		if (!mime || !cordon_camera_provider_allowed(policy, app_id, provider)) {
			continue;
		}
		photo->offered_preview[photo->offered_count] = provider->can_stream;
		photo->offered_provider[photo->offered_count] = provider;
		photo->offered[photo->offered_count++] = (struct cordon_portal_ui_camera_provider){
			.id = provider->id,
			.name = provider->name,
			.icon = provider->icon,
			.mime_type = mime,
		};
	}
	wlr_log(WLR_INFO, "Portal camera request %s: %zu of %zu providers fit",
		photo->request->token, photo->offered_count, photo->providers.count);
}

static void handle_capture_done(void *data, int fd, const char *error) {
	struct photo *photo = data;
	cordon_camera_capture_destroy(photo->capture);
	photo->capture = NULL;
	if (fd < 0) {
		cordon_portal_request_fail(photo->request, CORDON_PORTAL_FAILURE_IO, error);
		return;
	}
	photo->photo_file.fd = fd;
	photo->photo_file.display_name = (char *)photo->offered[photo->chosen].mime_type;
	struct cordon_portal_response response = {
		.result = CORDON_PORTAL_CHOSEN,
		.files = &photo->photo_file,
		.file_count = 1,
	};
	cordon_portal_request_respond(photo->request, &response);
}

/* Consent given and a provider chosen: let it take the photo. */
static void start_capture(struct photo *photo) {
	struct cordon_portal_request *request = photo->request;
	/* The shutter: the preview's provider stops, and takes the photo in its photo mode. */
	stop_preview(photo);
	cordon_portal_request_close_dialog(request);
	if (photo->chosen < 0) {
		cordon_portal_request_cancel(request);
		return;
	}
	struct cordon_camera_limits limits =
		cordon_camera_get_limits(&request->portals->host.settings);
	struct cordon_camera_capture_options options = {
		.width = photo->width,
		.height = photo->height,
		.mime_type = photo->offered[photo->chosen].mime_type,
		.app_id = cordon_portal_request_app_id(request),
		.max_bytes = limits.max_bytes,
		.timeout_ms = limits.timeout_ms,
		.launcher = limits.launcher,
	};
	const char *error = NULL;
	wlr_log(WLR_INFO, "Portal camera request %s: provider %s", request->token,
		photo->offered[photo->chosen].id);
	photo->capture = cordon_camera_capture_start(request->portals->host.event_loop,
		photo->offered_provider[photo->chosen], &options, handle_capture_done, photo,
		&error);
	if (!photo->capture) {
		cordon_portal_request_fail(request, CORDON_PORTAL_FAILURE_IO, error);
	}
}

static void handle_preview_frame(
	void *data, const struct cordon_camera_frame_header *header, const unsigned char *pixels) {
	struct photo *photo = data;
	struct cordon_portal_ui_frame frame = {
		.width = header->width,
		.height = header->height,
		.stride = header->stride,
		.rgb = pixels,
	};
	if (photo->request->dialog) {
		cordon_portal_dialog_send_preview_frame(photo->request->dialog, &frame);
	}
}

static void handle_preview_ended(
	void *data, enum cordon_camera_relay_end end, const char *message) {
	struct photo *photo = data;
	wlr_log(WLR_INFO, "Portal camera request %s: the preview stopped: %s",
		photo->request->token, message);
	stop_preview(photo);
	if (photo->request->dialog) {
		cordon_portal_dialog_send_preview_frame(photo->request->dialog, NULL);
	}
}

static bool photo_start_preview(
	struct cordon_portal_request *request, size_t index, uint32_t width, uint32_t height) {
	struct photo *photo = request->data;
	if (index >= photo->offered_count || !photo->offered_preview[index]) {
		return false;
	}
	stop_preview(photo);
	struct cordon_camera_limits limits =
		cordon_camera_get_limits(&request->portals->host.settings);
	struct cordon_camera_relay_options options = {
		.width = width,
		.height = height,
		.app_id = cordon_portal_request_app_id(request),
		.launcher = limits.launcher,
		.max_frame_bytes = limits.max_bytes,
		.timeout_ms = limits.timeout_ms,
		.frame = handle_preview_frame,
	};
	const char *error = NULL;
	photo->preview = cordon_camera_relay_start(request->portals->host.event_loop,
		photo->offered_provider[index], &options, handle_preview_ended, photo, NULL,
		&error);
	wlr_log(WLR_INFO, "Portal camera request %s: preview of %s %s", request->token,
		photo->offered[index].id, photo->preview ? "started" : error);
	return photo->preview != NULL;
}

static void photo_stop_preview(struct cordon_portal_request *request) {
	stop_preview(request->data);
}

static void photo_confirm(struct cordon_portal_request *request) {
	start_capture(request->data);
}

static bool photo_choose_provider(struct cordon_portal_request *request, size_t index) {
	struct photo *photo = request->data;
	if (index >= photo->offered_count) {
		return false;
	}
	photo->chosen = (long)index;
	return true;
}

/* Allowed, and only one provider fits: nothing to ask. */
static bool photo_allowed_without_dialog(struct cordon_portal_request *request) {
	struct photo *photo = request->data;
	if (photo->offered_count != 1) {
		return false;
	}
	start_capture(photo);
	return true;
}

/* After the denial check, so that a denied app hears "denied" whatever is installed. */
static const char *photo_unavailable(struct cordon_portal_request *request) {
	struct photo *photo = request->data;
	return photo->offered_count == 0 ? "no camera provider makes an image this app accepts"
					 : NULL;
}

static void handle_photo_submit(struct wl_client *client, struct wl_resource *resource) {
	struct photo *photo = photo_from_resource(resource);
	if (!photo_configuring(photo)) {
		return;
	}
	offer_providers(photo);
	if (photo->offered_count == 1) {
		photo->chosen = 0;
	}
	struct cordon_portal_ui_request options = {
		.portal = CORDON_PORTAL_UI_CAMERA_PHOTO,
		.title = "Take a photo",
		.providers = photo->offered,
		.provider_count = photo->offered_count,
		.width = photo->width,
		.height = photo->height,
		.provider_previews = photo->offered_preview,
	};
	cordon_portal_request_submit(photo->request, &options);
}

static const struct cordon_portal_camera_photo_v1_interface photo_impl = {
	.destroy = handle_request_destroy,
	.set_size = handle_set_size,
	.add_mime_type = handle_add_mime_type,
	.set_parent = handle_photo_set_parent,
	.submit = handle_photo_submit,
};

static void photo_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct photo *photo = request->data;
	switch (response->result) {
	case CORDON_PORTAL_CHOSEN:
		/* libwayland duplicates the fd into the message; ours closes below. */
		cordon_portal_camera_photo_v1_send_photo(
			photo->resource, response->files[0].fd, response->files[0].display_name);
		break;
	case CORDON_PORTAL_CANCELLED:
		cordon_portal_camera_photo_v1_send_cancelled(photo->resource);
		break;
	case CORDON_PORTAL_FAILED:
		cordon_portal_camera_photo_v1_send_failed(
			photo->resource, response->failure, response->reason);
		break;
	}
	/* A cancel while the provider runs (the parent went away) stops it. */
	photo_free_state(photo);
}

static const struct cordon_portal_request_impl photo_request_impl = {
	.portal = "camera",
	.send_response = photo_send_response,
	.confirm = photo_confirm,
	.choose_provider = photo_choose_provider,
	.allowed_without_dialog = photo_allowed_without_dialog,
	.unavailable = photo_unavailable,
	.start_preview = photo_start_preview,
	.stop_preview = photo_stop_preview,
};

void cordon_camera_photo_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id) {
	struct photo *photo = calloc(1, sizeof(*photo));
	if (!photo) {
		wl_client_post_no_memory(client);
		return;
	}
	photo->chosen = -1;
	photo->photo_file.fd = -1;
	photo->request =
		cordon_portal_request_create(portals, client, manager, &photo_request_impl, photo);
	if (!photo->request) {
		free(photo);
		return;
	}
	photo->resource = wl_resource_create(client, &cordon_portal_camera_photo_v1_interface,
		wl_resource_get_version(manager), id);
	if (!photo->resource) {
		cordon_portal_request_destroy(photo->request);
		free(photo);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(
		photo->resource, &photo_impl, photo, handle_photo_resource_destroy);
}
