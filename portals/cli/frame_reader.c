/*
 * A frame may come across several reads, and a pipe holds less than a big frame: the
 * reader keeps what it has and goes on where it stopped. Each header is checked
 * before any of its pixels are read, so that a bad stream costs at most one frame's
 * worth of memory, however large its header claims the frame is.
 */
#include "frame_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_SIZE sizeof(struct cordon_camera_frame_header)

static enum cordon_portal_cli_frame_read fail(
	struct cordon_portal_cli_frame_reader *reader, const char *what, const char *why) {
	/* Where the frame began: a header's fault is there, not where its read stopped. */
	uint64_t start = reader->offset - reader->header_have - reader->pixels_have;
	snprintf(reader->error, sizeof(reader->error), "%s: %s (frame %llu, from byte %llu)", what,
		why, (unsigned long long)reader->frames + 1, (unsigned long long)start);
	return CORDON_PORTAL_CLI_FRAME_READ_ERROR;
}

/* Room for SIZE pixel bytes; the buffer is only replaced when the size changes. */
static bool make_room(struct cordon_portal_cli_frame_reader *reader, size_t size) {
	if (reader->pixels && reader->pixels_size == size) {
		return true;
	}
	free(reader->pixels);
	reader->pixels = malloc(size);
	reader->pixels_size = reader->pixels ? size : 0;
	return reader->pixels != NULL;
}

/* Up to WANT bytes into BUFFER: the count, 0 at end of file, -1 (errno) otherwise. */
static ssize_t read_some(
	struct cordon_portal_cli_frame_reader *reader, int fd, void *buffer, size_t want) {
	ssize_t n;
	do {
		n = read(fd, buffer, want);
	} while (n < 0 && errno == EINTR);
	if (n > 0) {
		reader->offset += (uint64_t)n;
	}
	return n;
}

enum cordon_portal_cli_frame_read cordon_portal_cli_frame_read(
	struct cordon_portal_cli_frame_reader *reader, int fd) {
	if (reader->whole) {
		reader->whole = false;
		reader->header_have = 0;
		reader->pixels_have = 0;
	}
	for (;;) {
		bool in_header = reader->header_have < HEADER_SIZE;
		unsigned char *to = in_header
			? (unsigned char *)&reader->header + reader->header_have
			: reader->pixels + reader->pixels_have;
		size_t want = in_header ? HEADER_SIZE - reader->header_have
					: reader->header.size - reader->pixels_have;
		ssize_t n = read_some(reader, fd, to, want);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			return CORDON_PORTAL_CLI_FRAME_READ_AGAIN;
		}
		if (n < 0) {
			return fail(reader, "cannot read the stream", strerror(errno));
		}
		if (n == 0) {
			reader->partial = reader->header_have > 0;
			return CORDON_PORTAL_CLI_FRAME_READ_EOF;
		}
		if (in_header) {
			reader->header_have += (size_t)n;
			if (reader->header_have < HEADER_SIZE) {
				continue;
			}
			const char *why = cordon_camera_frame_header_problem(&reader->header);
			if (why) {
				return fail(reader, "not a camera frame", why);
			}
			if (!make_room(reader, reader->header.size)) {
				return fail(reader, "cannot read the stream", "out of memory");
			}
			continue;
		}
		reader->pixels_have += (size_t)n;
		if (reader->pixels_have == reader->header.size) {
			reader->whole = true;
			reader->frames++;
			return CORDON_PORTAL_CLI_FRAME_READ_FRAME;
		}
	}
}

void cordon_portal_cli_frame_reader_finish(struct cordon_portal_cli_frame_reader *reader) {
	free(reader->pixels);
	reader->pixels = NULL;
	reader->pixels_size = 0;
}
