/* The camera stream portal: live frames from a provider, relayed by cordon until it is revoked. */
#ifndef CORDON_PORTALS_CAMERA_STREAM_H
#define CORDON_PORTALS_CAMERA_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct cordon_portals;

/* Open streams a client may have at once; one more fails as busy. */
#define CORDON_CAMERA_MAX_STREAMS_PER_CLIENT 4

/* manager.open_camera_stream: a new cordon_portal_camera_stream_v1 object. */
void cordon_camera_stream_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id);

/*
 * Ends the open streams of APP_ID (NULL: of every app) as revoked: the app is
 * told, its fd reads end of file, the provider is stopped. Returns how many.
 */
size_t cordon_camera_streams_revoke(struct cordon_portals *portals, const char *app_id);

/* An open stream, as cordonctl camera-streams shows it. */
struct cordon_camera_stream_info {
	const char *app_id, *provider;
	pid_t pid; /* of the app */
	uint64_t frames, dropped, bytes;
	uint32_t width, height;
};
typedef void (*cordon_camera_stream_iterator)(
	void *data, const struct cordon_camera_stream_info *info);
/* Calls FN for every open stream, oldest first. */
void cordon_camera_streams_for_each(
	struct cordon_portals *portals, cordon_camera_stream_iterator fn, void *data);

#endif
