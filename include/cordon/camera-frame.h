/*
 * The frames of a cordon camera stream: what a camera provider writes to its
 * standard output in stream mode, and what an app reads from the fd that
 * cordon_portal_camera_stream_v1.stream hands it (version 4 and later).
 *
 * A stream is a sequence of frames, each a 48-byte header followed by exactly
 * `size` bytes of pixels; there is nothing between frames and nothing before the
 * first. All fields are in the host's byte order (the stream never leaves the
 * machine). The end of the stream (read() returning 0) is the end: the app's
 * permission was revoked, its indicator closed, or the provider stopped.
 */
#ifndef CORDON_CAMERA_FRAME_H
#define CORDON_CAMERA_FRAME_H

#include <stdint.h>

#define CORDON_CAMERA_FRAME_MAGIC "CFRM"
#define CORDON_CAMERA_FRAME_VERSION 1

/* The pixel formats. RGB24: 3 bytes a pixel, red, green, blue, rows top to bottom. */
enum cordon_camera_frame_format {
	CORDON_CAMERA_FRAME_RGB24 = 1,
};

/* The largest frame either side accepts: 4096 x 4096 pixels. */
#define CORDON_CAMERA_FRAME_MAX_SIDE 4096

struct cordon_camera_frame_header {
	char magic[4]; /* CORDON_CAMERA_FRAME_MAGIC, without its NUL */
	uint32_t version; /* CORDON_CAMERA_FRAME_VERSION */
	uint32_t format; /* enum cordon_camera_frame_format */
	uint32_t width, height; /* 1 to CORDON_CAMERA_FRAME_MAX_SIDE */
	uint32_t stride; /* bytes a row, at least width * 3 */
	uint64_t sequence; /* the provider's count, from 0; a gap is a dropped frame */
	uint64_t timestamp_ns; /* CLOCK_MONOTONIC when the frame was captured */
	uint32_t size; /* bytes of pixels that follow: stride * height */
	uint32_t reserved; /* 0 */
};

_Static_assert(sizeof(struct cordon_camera_frame_header) == 48,
	"the frame header is 48 bytes on every ABI");

#endif
