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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CORDON_CAMERA_FRAME_MAGIC "CFRM"
#define CORDON_CAMERA_FRAME_VERSION 1

/* The pixel formats. RGB24: 3 bytes a pixel, red, green, blue, rows top to bottom. */
enum cordon_camera_frame_format {
	CORDON_CAMERA_FRAME_RGB24 = 1,
};

/* The largest frame either side accepts: 4096 x 4096 pixels. */
#define CORDON_CAMERA_FRAME_MAX_SIDE 4096
/* Rows may be padded past width * 3, by at most this many bytes. */
#define CORDON_CAMERA_FRAME_MAX_ROW_PADDING 64

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

/*
 * Why HEADER is not a frame's header (a short text for people), or NULL when it is
 * one. cordon checks every header before it reads the pixels; so may an app.
 */
static inline const char *cordon_camera_frame_header_problem(
	const struct cordon_camera_frame_header *header) {
	uint64_t row = (uint64_t)header->width * 3;
	if (memcmp(header->magic, CORDON_CAMERA_FRAME_MAGIC, 4) != 0) {
		return "no CFRM magic";
	}
	if (header->version != CORDON_CAMERA_FRAME_VERSION) {
		return "an unknown frame version";
	}
	if (header->format != CORDON_CAMERA_FRAME_RGB24) {
		return "an unknown pixel format";
	}
	if (header->width == 0 || header->height == 0 ||
		header->width > CORDON_CAMERA_FRAME_MAX_SIDE ||
		header->height > CORDON_CAMERA_FRAME_MAX_SIDE) {
		return "a side of 0 or over 4096 pixels";
	}
	if (header->stride < row || header->stride > row + CORDON_CAMERA_FRAME_MAX_ROW_PADDING) {
		return "a row stride that does not fit the width";
	}
	if ((uint64_t)header->size != (uint64_t)header->stride * header->height) {
		return "a pixel size that is not stride x height";
	}
	if (header->reserved != 0) {
		return "a reserved field that is not 0";
	}
	return NULL;
}

#endif
