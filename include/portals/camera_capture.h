/* Running one camera provider: its photo read through the event loop, checked, sealed. */
#ifndef CORDON_PORTALS_CAMERA_CAPTURE_H
#define CORDON_PORTALS_CAMERA_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_camera_provider;
struct cordon_camera_capture;

struct cordon_camera_capture_options {
	uint32_t width, height; /* 0: the provider's own */
	const char *mime_type; /* one of the provider's */
	const char *app_id; /* told only to providers with AppId = true; may be "" */
	size_t max_bytes;
	int timeout_ms;
	/*
	 * cordon-run's path: the provider runs in a sandbox of its own (docs/portals.md),
	 * with its program's folder at /app and /dev/video* only for Device = video.
	 * NULL: started directly.
	 */
	const char *launcher;
};

/*
 * FD (>= 0): a sealed read-only memfd holding the photo, now the callee's. FD -1:
 * error says why (static text for the app; the log has the details).
 */
typedef void (*cordon_camera_capture_done_func)(void *data, int fd, const char *error);

/*
 * Starts the provider with stdout a pipe, stdin /dev/null, a listed environment
 * and nothing else. DONE is called once, from the event loop, never from here.
 * NULL (with *error) when the provider cannot be started.
 */
struct cordon_camera_capture *cordon_camera_capture_start(struct wl_event_loop *loop,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_capture_options *options, cordon_camera_capture_done_func done,
	void *data, const char **error);
/* Stops it: the provider is killed and reaped; DONE is not called. */
void cordon_camera_capture_destroy(struct cordon_camera_capture *capture);

/* Whether DATA (LEN bytes) starts as MIME_TYPE's files do (PNG or JPEG magic). */
bool cordon_camera_check_magic(const unsigned char *data, size_t len, const char *mime_type);

#endif
