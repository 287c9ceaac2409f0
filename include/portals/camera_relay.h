/*
 * A camera stream's relay: frames read from a provider in stream mode, checked,
 * and written to a pipe whose read end is the app's. cordon sits between the two
 * so that it can end the stream at once, whatever the app does with its fd.
 */
#ifndef CORDON_PORTALS_CAMERA_RELAY_H
#define CORDON_PORTALS_CAMERA_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_camera_frame_header;
struct cordon_camera_provider;
struct cordon_camera_relay;

/*
 * A whole, checked frame for a relay without an app pipe: PIXELS (HEADER->size
 * bytes) are valid during the call only. The relay may be destroyed here.
 */
typedef void (*cordon_camera_relay_frame_func)(
	void *data, const struct cordon_camera_frame_header *header, const unsigned char *pixels);

struct cordon_camera_relay_options {
	uint32_t width, height; /* the app's wish; 0: the provider's own */
	const char *app_id; /* told only to providers with AppId = true; may be "" */
	const char *launcher; /* as for photos (portals/camera_process.h); NULL: directly */
	size_t max_frame_bytes; /* a bigger frame ends the stream */
	int timeout_ms; /* no whole frame for this long ends the stream */
	/* Set: frames go here (a dialog's preview) and there is no app pipe. */
	cordon_camera_relay_frame_func frame;
};

enum cordon_camera_relay_end {
	CORDON_CAMERA_RELAY_PROVIDER, /* it stopped, failed, stalled or sent no frame */
	CORDON_CAMERA_RELAY_READER_CLOSED, /* the app closed its end */
};

/* The relay has ended: MESSAGE (static text) says why. The relay may be destroyed here. */
typedef void (*cordon_camera_relay_ended_func)(
	void *data, enum cordon_camera_relay_end end, const char *message);

struct cordon_camera_relay_stats {
	uint64_t frames; /* whole frames from the provider */
	uint64_t dropped; /* of those, never written: the app fell behind */
	uint64_t bytes; /* written to the app */
	uint32_t width, height; /* of the last frame */
};

/*
 * Starts PROVIDER in stream mode. *APP_FD is the read end for the app (the
 * caller's to hand over and close); APP_FD is NULL with options->frame. NULL with *error (static
 * text) on failure. ENDED is called at most once, from the event loop, never from here.
 */
struct cordon_camera_relay *cordon_camera_relay_start(struct wl_event_loop *loop,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_relay_options *options, cordon_camera_relay_ended_func ended,
	void *data, int *app_fd, const char **error);
/* Stops the provider and closes cordon's end: the app reads what is left, then end of file. */
void cordon_camera_relay_destroy(struct cordon_camera_relay *relay);

const struct cordon_camera_relay_stats *cordon_camera_relay_get_stats(
	const struct cordon_camera_relay *relay);

/*
 * Whether HEADER (CORDON_CAMERA_FRAME header bytes) describes a frame of at most
 * MAX_BYTES pixel bytes; false with *reason (static text) when not.
 */
bool cordon_camera_frame_header_check(
	const struct cordon_camera_frame_header *header, size_t max_bytes, const char **reason);

#endif
