/*
 * A bundle's header (apps/bundle.c's cordon_bundle_parse_header): the first 64 bytes of a file
 * from a store or a download, read before any signature can be checked. Input: a byte choosing
 * the file's size (odd: the size the header announces, even: the 8 bytes that follow), then the
 * header. Oracle: an accepted header has every length within its bound and the parts in order,
 * without gaps, within the file, the image aligned and ending the file; the builder's header
 * for the same lengths is byte for byte the same (one file has one meaning).
 */
#include <string.h>

#include "apps/bundle.h"
#include "fuzz.h"

static uint64_t get_u64(const uint8_t *p) {
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--) {
		v = v << 8 | p[i];
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 1 + 8) {
		return 0;
	}
	bool announced = data[0] & 1;
	uint64_t file_size = get_u64(data + 1);
	const uint8_t *header = announced ? data + 1 : data + 9;
	size_t len = size - (size_t)(header - data);
	if (announced && len >= CORDON_BUNDLE_HEADER_SIZE) {
		/* image offset + image length, as the header says (wrapping is the parser's
		 * problem) */
		file_size = get_u64(header + 24) + get_u64(header + 32);
	}
	struct cordon_bundle_layout layout;
	const char *problem = cordon_bundle_parse_header(header, len, file_size, &layout);
	if (problem) {
		fuzz_require(!fuzz_has_control(problem), "a refusal says why");
		return 0;
	}
	fuzz_require(layout.manifest_len >= 1 &&
			layout.manifest_len <= CORDON_BUNDLE_MANIFEST_MAX &&
			layout.icon_len <= CORDON_BUNDLE_ICON_MAX && layout.image_len >= 1 &&
			layout.image_len <= CORDON_BUNDLE_IMAGE_MAX,
		"every length within its bound");
	fuzz_require(layout.manifest_offset == CORDON_BUNDLE_HEADER_SIZE &&
			layout.icon_offset == layout.manifest_offset + layout.manifest_len &&
			layout.signature_offset == layout.icon_offset + layout.icon_len &&
			layout.image_offset >=
				layout.signature_offset + CORDON_BUNDLE_SIGNATURE_SIZE &&
			layout.image_offset -
					(layout.signature_offset + CORDON_BUNDLE_SIGNATURE_SIZE) <
				CORDON_BUNDLE_ALIGN,
		"the parts in order, without gaps");
	fuzz_require(layout.image_offset % CORDON_BUNDLE_ALIGN == 0 &&
			layout.image_offset + layout.image_len == file_size,
		"the image aligned and ending the file");
	unsigned char again[CORDON_BUNDLE_HEADER_SIZE];
	struct cordon_bundle_layout layout_again;
	cordon_bundle_make_header(
		again, layout.manifest_len, layout.icon_len, layout.image_len, &layout_again);
	fuzz_require(memcmp(again, header, CORDON_BUNDLE_HEADER_SIZE) == 0 &&
			memcmp(&layout, &layout_again, sizeof(layout)) == 0,
		"the builder writes the same header for the same parts");
	return 0;
}
