/*
 * What a camera provider writes (portals/camera_relay.c's header check, portals/camera_capture.c's
 * photo check). A provider runs sandboxed, in a cordon-run of its own, so its stream is as
 * untrusted as an app's. Input: one byte choosing the size cap, then the stream; it is walked as
 * the relay walks it (a 48-byte header, checked, then the pixels it announces), and the whole
 * input is also checked as a photo of each type. Oracle: an accepted header announces a frame
 * within 1..4096 pixels a side, a stride of at least width x 3 with at most 64 bytes of padding,
 * exactly stride x height bytes of pixels and no more than the cap; a refusal says why; a photo
 * accepted as PNG starts with PNG's signature, one accepted as JPEG starts and ends as JPEG does.
 */
#include <string.h>

#include "cordon/camera-frame.h"
#include "fuzz.h"
#include "portals/camera_capture.h"
#include "portals/camera_relay.h"

static void check_header(const struct cordon_camera_frame_header *h, size_t max_bytes) {
	const char *reason = NULL;
	if (!cordon_camera_frame_header_check(h, max_bytes, &reason)) {
		fuzz_require(reason != NULL && !fuzz_has_control(reason), "a refusal says why");
		return;
	}
	fuzz_require(h->width >= 1 && h->width <= CORDON_CAMERA_FRAME_MAX_SIDE && h->height >= 1 &&
			h->height <= CORDON_CAMERA_FRAME_MAX_SIDE,
		"a frame's sides are 1 to 4096 pixels");
	uint64_t row = (uint64_t)h->width * 3;
	fuzz_require(h->stride >= row && h->stride <= row + CORDON_CAMERA_FRAME_MAX_ROW_PADDING,
		"a stride fits its row");
	fuzz_require((uint64_t)h->size == (uint64_t)h->stride * h->height && h->size <= max_bytes,
		"the pixels are stride x height, within the cap");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size == 0) {
		return 0;
	}
	/* Caps as cordon sets them: a preview's, a stream's, none to speak of. */
	static const size_t caps[] = {1 << 20, 64 << 20, (size_t)-1};
	size_t max_bytes = caps[data[0] % 3];
	const uint8_t *p = data + 1, *end = data + size;
	while ((size_t)(end - p) >= sizeof(struct cordon_camera_frame_header)) {
		struct cordon_camera_frame_header header;
		memcpy(&header, p, sizeof(header));
		check_header(&header, max_bytes);
		const char *reason;
		if (!cordon_camera_frame_header_check(&header, max_bytes, &reason)) {
			break;
		}
		p += sizeof(header);
		p += (size_t)(end - p) < header.size ? (size_t)(end - p) : header.size;
	}
	static const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (cordon_camera_check_magic(data + 1, size - 1, "image/png")) {
		fuzz_require(size - 1 >= sizeof(png) && memcmp(data + 1, png, sizeof(png)) == 0,
			"a PNG starts with its signature");
	}
	if (cordon_camera_check_magic(data + 1, size - 1, "image/jpeg")) {
		fuzz_require(size - 1 >= 5 && data[1] == 0xff && data[2] == 0xd8 &&
				data[size - 2] == 0xff && data[size - 1] == 0xd9,
			"a JPEG starts with SOI and ends with EOI");
	}
	fuzz_require(!cordon_camera_check_magic(data + 1, size - 1, "image/gif"),
		"only the types cordon checks pass");
	return 0;
}
