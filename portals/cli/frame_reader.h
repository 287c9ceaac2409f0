/* Whole camera frames (include/cordon/camera-frame.h) from a non-blocking stream fd. */
#ifndef CORDON_PORTAL_CLI_FRAME_READER_H
#define CORDON_PORTAL_CLI_FRAME_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cordon/camera-frame.h"

enum cordon_portal_cli_frame_read {
	CORDON_PORTAL_CLI_FRAME_READ_FRAME, /* header and pixels hold one whole frame */
	CORDON_PORTAL_CLI_FRAME_READ_AGAIN, /* the fd has no more for now: poll it */
	CORDON_PORTAL_CLI_FRAME_READ_EOF, /* the stream ended (partial says if inside a frame) */
	CORDON_PORTAL_CLI_FRAME_READ_ERROR, /* error says why; the stream is no use after it */
};

/* Zero-initialised before the first read; cordon_portal_cli_frame_reader_finish frees it. */
struct cordon_portal_cli_frame_reader {
	struct cordon_camera_frame_header header; /* valid after FRAME, until the next read */
	unsigned char *pixels; /* header.size bytes after FRAME, rows stride bytes apart */
	size_t pixels_size; /* what pixels holds room for: reused while frames keep their size */
	size_t header_have, pixels_have; /* of the frame being read */
	bool whole; /* the last read returned FRAME: the next one starts another */
	bool partial; /* at EOF: the stream ended inside a frame */
	uint64_t frames; /* whole frames read */
	uint64_t offset; /* bytes read: where in the stream an error is */
	char error[192]; /* after ERROR: one line for people, without the program's name */
};

/* Reads from FD until a frame is whole, the fd would block, it ends, or it fails. */
enum cordon_portal_cli_frame_read cordon_portal_cli_frame_read(
	struct cordon_portal_cli_frame_reader *reader, int fd);
void cordon_portal_cli_frame_reader_finish(struct cordon_portal_cli_frame_reader *reader);

#endif
