/* Page ranges as apps write them ("1-3,5"), every number range-checked as it is read. */
#ifndef CORDON_PORTALS_PAGE_RANGES_H
#define CORDON_PORTALS_PAGE_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No document has more pages; any number above is refused, never wrapped. */
#define CORDON_PAGE_MAX 1000000u
/* Ranges in one setting: more than a person types, few enough for CUPS's IPP attribute. */
#define CORDON_PAGE_RANGES_MAX 64

struct cordon_page_range {
	uint32_t first, last;
};

/*
 * Parses TEXT: ranges "N" or "N-M" (N <= M) separated by commas, nothing else, with
 * pages numbered from FIRST_PAGE (0 for GTK's settings, 1 for IPP's) up to CORDON_PAGE_MAX.
 * Each number is checked against the limit while its digits are read, so no arithmetic on
 * it can overflow. Fills RANGES (CORDON_PAGE_RANGES_MAX of them) and *COUNT; false with
 * *why (static text) for anything else.
 */
bool cordon_page_ranges_parse(const char *text, uint32_t first_page,
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX], size_t *count, const char **why);

/*
 * Writes RANGES back as text, each page number plus DELTA (+1: GTK's to IPP's, -1: back):
 * false if a number would leave 0..CORDON_PAGE_MAX or the text does not fit SIZE bytes.
 */
bool cordon_page_ranges_format(
	const struct cordon_page_range *ranges, size_t count, int delta, char *out, size_t size);

/* Parse with FIRST_PAGE, then format shifted by DELTA (the D-Bus door); false with *why. */
bool cordon_page_ranges_shift(
	const char *text, uint32_t first_page, int delta, char *out, size_t size, const char **why);

#endif
