/*
 * Page ranges (portals/page_ranges.c), as apps write them through either door. Input: one
 * byte choosing the numbering (even: GTK's 0-based, odd: IPP's 1-based), then the text.
 * Oracle: every range lies within first page..CORDON_PAGE_MAX with first <= last, at most
 * CORDON_PAGE_RANGES_MAX of them; formatting and parsing again gives the same ranges; a shift
 * to the other numbering and back gives the same ranges, and fails only at the bounds.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "portals/page_ranges.h"

static bool same_ranges(const struct cordon_page_range *a, size_t a_count,
	const struct cordon_page_range *b, size_t b_count) {
	if (a_count != b_count) {
		return false;
	}
	for (size_t i = 0; i < a_count; i++) {
		if (a[i].first != b[i].first || a[i].last != b[i].last) {
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size == 0) {
		return 0;
	}
	uint32_t first_page = data[0] & 1;
	char *text = fuzz_string(data + 1, size - 1);
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX];
	size_t count;
	const char *why = NULL;
	if (!cordon_page_ranges_parse(text, first_page, ranges, &count, &why)) {
		fuzz_require(why != NULL, "a refusal says why");
		free(text);
		return 0;
	}
	fuzz_require(count >= 1 && count <= CORDON_PAGE_RANGES_MAX, "1 to CORDON_PAGE_RANGES_MAX");
	bool at_bound = false;
	for (size_t i = 0; i < count; i++) {
		fuzz_require(ranges[i].first >= first_page && ranges[i].first <= ranges[i].last &&
				ranges[i].last <= CORDON_PAGE_MAX,
			"every range is within the pages, first <= last");
		at_bound = at_bound || ranges[i].first == 0 || ranges[i].last == CORDON_PAGE_MAX;
	}
	/* 64 ranges of two 7-digit numbers: 64 * 16 bytes. */
	char out[64 * 16 + 1];
	fuzz_require(cordon_page_ranges_format(ranges, count, 0, out, sizeof(out)),
		"parsed ranges format");
	struct cordon_page_range again[CORDON_PAGE_RANGES_MAX];
	size_t again_count;
	fuzz_require(cordon_page_ranges_parse(out, first_page, again, &again_count, &why) &&
			same_ranges(ranges, count, again, again_count),
		"formatted ranges parse to the same ranges");

	int delta = first_page == 0 ? 1 : -1;
	char shifted[sizeof(out)], back[sizeof(out)];
	if (!cordon_page_ranges_shift(text, first_page, delta, shifted, sizeof(shifted), &why)) {
		fuzz_require(at_bound, "a shift fails only at the bounds");
	} else {
		fuzz_require(cordon_page_ranges_shift(
				     shifted, 1 - first_page, -delta, back, sizeof(back), &why),
			"a shifted text shifts back");
		fuzz_require(
			cordon_page_ranges_parse(back, first_page, again, &again_count, &why) &&
				same_ranges(ranges, count, again, again_count),
			"a shift there and back gives the same ranges");
	}
	free(text);
	return 0;
}
