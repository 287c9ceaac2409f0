/* What cordon's camera providers share: their command line, PNG output and stream frames. */
#ifndef CORDON_CAMERA_PROVIDER_H
#define CORDON_CAMERA_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * cordon starts a provider as
 *	COMMAND [--width=W --height=H] --mime-type=TYPE [-- APP_ID]
 * for one photo written to standard output, or as
 *	COMMAND [--width=W --height=H] --stream [--fps=N] [-- APP_ID]
 * for frames (include/cordon/camera-frame.h) written to it until the reader goes
 * away (docs/portals.md). --frames=N stops a stream after N frames, for tests.
 */
struct provider_args {
	uint32_t width, height; /* 0: the provider's own */
	const char *mime_type; /* NULL with --stream */
	const char *app_id; /* "" unless the provider file says AppId = true */
	bool stream;
	uint32_t fps; /* frames a second with --stream, 1 to 60 */
	uint64_t frames; /* --frames=N; 0: until the reader goes away */
};

/* Parses argv; false after a message on stderr. */
bool provider_parse_args(const char *name, int argc, char **argv, struct provider_args *args);

/* Writes WIDTH x HEIGHT RGB pixels (3 bytes each, rows top to bottom) as PNG to stdout. */
bool provider_write_png(const char *name, uint32_t width, uint32_t height, const uint8_t *rgb);

/* Writes LEN bytes to stdout, whole. */
bool provider_write_all(const char *name, const void *data, size_t len);

enum provider_write_result {
	PROVIDER_WRITE_OK,
	PROVIDER_WRITE_CLOSED, /* the reader went away (EPIPE): the stream's normal end */
	PROVIDER_WRITE_FAILED, /* after a message on stderr */
};

/*
 * Ignores SIGPIPE so that a reader going away is EPIPE from write(), which a
 * stream ends on quietly, rather than a death by signal.
 */
void provider_stream_start(void);

/*
 * Writes one stream frame to stdout: the header (stride WIDTH * 3, stamped with
 * CLOCK_MONOTONIC now), then WIDTH x HEIGHT RGB pixels, whole.
 */
enum provider_write_result provider_write_frame(
	const char *name, uint32_t width, uint32_t height, uint64_t sequence, const uint8_t *rgb);

/* Frames at a steady rate: one absolute deadline, advanced a period a frame. */
struct provider_pace {
	uint64_t deadline_ns; /* CLOCK_MONOTONIC */
	uint64_t period_ns;
};

void provider_pace_start(struct provider_pace *pace, uint32_t fps);
/* Sleeps until the next frame is due. */
void provider_pace_wait(struct provider_pace *pace);

#endif
