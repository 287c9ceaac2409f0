/* The camera portals: take_photo (through a provider) and open_camera_stream (a V4L2 fd). */
#ifndef CORDON_PORTALS_CAMERA_H
#define CORDON_PORTALS_CAMERA_H

#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_portals;

/* manager.take_photo: a new cordon_portal_camera_photo_v1 object. */
void cordon_camera_photo_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id);
/* manager.open_camera_stream: a new cordon_portal_camera_stream_v1 object. */
void cordon_camera_stream_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id);

/*
 * Opens the first V4L2 capture device (/dev/video0 to 63) read-only; -1 with
 * *reason when there is none.
 */
int cordon_camera_open_device(const char **reason);

#endif
