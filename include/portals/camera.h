/* The camera portals: take_photo and open_camera_stream, both through a provider. */
#ifndef CORDON_PORTALS_CAMERA_H
#define CORDON_PORTALS_CAMERA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_camera_provider;
struct cordon_portal_settings;
struct cordon_policy;
struct cordon_portals;

/* manager.take_photo: a new cordon_portal_camera_photo_v1 object. */
void cordon_camera_photo_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id);
/* How providers are run and bounded, from [portal] in cordon.ini (docs/config.md). */
struct cordon_camera_limits {
	size_t max_bytes; /* a photo, or one frame of a stream */
	int timeout_ms; /* for a photo, or between two frames of a stream */
	const char *launcher; /* cordon-run's path; NULL: providers run directly */
};
struct cordon_camera_limits cordon_camera_get_limits(const struct cordon_portal_settings *settings);

/* Whether policy.ini's camera-providers, if set for the app, lists PROVIDER. */
bool cordon_camera_provider_allowed(const struct cordon_policy *policy, const char *app_id,
	const struct cordon_camera_provider *provider);

#endif
