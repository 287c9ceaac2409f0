/*
 * Page ranges come from apps, through both doors: a GTK settings string over D-Bus
 * ("0-2,4", 0-based) and an IPP one over Wayland ("1-3,5"). A number of twenty digits
 * once went through strtol and a +1 in the D-Bus door, overflowing a long (undefined
 * behaviour, an abort under the sanitizers). Here digits are accumulated one at a time
 * against CORDON_PAGE_MAX, so a number is refused before it could overflow anything.
 */
#include "portals/page_ranges.h"

#include <stdio.h>

/* Reads one page number at *p, advancing it; false when absent or out of range. */
static bool read_number(const char **p, uint32_t first_page, uint32_t *out, const char **why) {
	const char *c = *p;
	if (*c < '0' || *c > '9') {
		*why = "a page range needs a number";
		return false;
	}
	uint32_t n = 0;
	for (; *c >= '0' && *c <= '9'; c++) {
		uint32_t digit = (uint32_t)(*c - '0');
		/* n * 10 + digit > MAX, checked without computing it. */
		if (n > (CORDON_PAGE_MAX - digit) / 10) {
			*why = "a page number is too large";
			return false;
		}
		n = n * 10 + digit;
	}
	if (n < first_page) {
		*why = "a page number is below the first page";
		return false;
	}
	*p = c;
	*out = n;
	return true;
}

bool cordon_page_ranges_parse(const char *text, uint32_t first_page,
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX], size_t *count, const char **why) {
	*count = 0;
	const char *p = text;
	for (;;) {
		if (*count == CORDON_PAGE_RANGES_MAX) {
			*why = "too many page ranges";
			return false;
		}
		struct cordon_page_range range;
		if (!read_number(&p, first_page, &range.first, why)) {
			return false;
		}
		range.last = range.first;
		if (*p == '-') {
			p++;
			if (!read_number(&p, first_page, &range.last, why)) {
				return false;
			}
			if (range.last < range.first) {
				*why = "a page range ends before it starts";
				return false;
			}
		}
		ranges[(*count)++] = range;
		if (*p == '\0') {
			return true;
		}
		if (*p != ',') {
			*why = "page ranges are numbers, '-' and ','";
			return false;
		}
		p++;
	}
}

static bool shifted(uint32_t n, int delta, uint32_t *out) {
	/* Both bounds checked before the addition. */
	if ((delta < 0 && n < (uint32_t)-delta) ||
		(delta > 0 && n > CORDON_PAGE_MAX - (uint32_t)delta)) {
		return false;
	}
	*out = delta < 0 ? n - (uint32_t)-delta : n + (uint32_t)delta;
	return true;
}

bool cordon_page_ranges_format(
	const struct cordon_page_range *ranges, size_t count, int delta, char *out, size_t size) {
	size_t len = 0;
	if (size == 0) {
		return false;
	}
	out[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		uint32_t first, last;
		if (!shifted(ranges[i].first, delta, &first) ||
			!shifted(ranges[i].last, delta, &last)) {
			return false;
		}
		int w = first == last
			? snprintf(out + len, size - len, "%s%u", i ? "," : "", first)
			: snprintf(out + len, size - len, "%s%u-%u", i ? "," : "", first, last);
		if (w < 0 || (size_t)w >= size - len) {
			return false;
		}
		len += (size_t)w;
	}
	return true;
}

bool cordon_page_ranges_shift(const char *text, uint32_t first_page, int delta, char *out,
	size_t size, const char **why) {
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX];
	size_t count;
	if (!cordon_page_ranges_parse(text, first_page, ranges, &count, why)) {
		return false;
	}
	if (!cordon_page_ranges_format(ranges, count, delta, out, size)) {
		*why = "the page ranges do not fit the other numbering";
		return false;
	}
	return true;
}
