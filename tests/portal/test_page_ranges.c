/*
 * The page-range parser (portals/page_ranges.c) with what apps may send: well-formed
 * ranges in both numberings, and hostile numbers (twenty digits, the limits of int,
 * long and uint32), shapes and lengths, each refused without overflow (this test runs
 * under UBSan in the sanitizer build).
 */
#include <stdlib.h>

#include "../unit/check.h"
#include "portals/page_ranges.h"

static bool parses(const char *text, uint32_t first_page) {
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX];
	size_t count;
	const char *why = NULL;
	bool ok = cordon_page_ranges_parse(text, first_page, ranges, &count, &why);
	CHECK(ok || why);
	return ok;
}

static const char *shift(const char *text, uint32_t first_page, int delta) {
	static char out[256];
	const char *why = NULL;
	bool ok = cordon_page_ranges_shift(text, first_page, delta, out, sizeof(out), &why);
	CHECK(ok || why);
	return ok ? out : NULL;
}

static void test_good(void) {
	struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX];
	size_t count;
	const char *why;
	CHECK(cordon_page_ranges_parse("1-3,5", 1, ranges, &count, &why));
	CHECK(count == 2 && ranges[0].first == 1 && ranges[0].last == 3);
	CHECK(ranges[1].first == 5 && ranges[1].last == 5);
	CHECK(parses("0", 0));
	CHECK(parses("1000000", 1));
	CHECK(parses("7-7", 1));
	CHECK_STR(shift("0-2,4", 0, 1), "1-3,5");
	CHECK_STR(shift("1-3,5", 1, -1), "0-2,4");
	CHECK_STR(shift("999999", 0, 1), "1000000");
}

static void test_hostile(void) {
	static const char *const bad[] = {
		"99999999999999999999", /* the number that overflowed a long */
		"0-99999999999999999999",
		"1000001",
		"2147483647",
		"2147483648",
		"4294967295",
		"4294967296",
		"9223372036854775807",
		"9223372036854775808",
		"18446744073709551615",
		"18446744073709551616",
		"-1",
		"1--2",
		"3-1",
		"1,",
		",1",
		"1,,2",
		"",
		"-",
		"1-",
		" 1",
		"1 ",
		"+1",
		"0x10",
		"1e3",
		"1-2-3",
		"a",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parses(bad[i], 1) || parses(bad[i], 0)) {
			fprintf(stderr, "accepted: '%s'\n", bad[i]);
			CHECK(false);
		}
	}
	/* 0 is no IPP page; one past the end cannot be shifted to IPP. */
	CHECK(!parses("0", 1));
	CHECK(shift("1000000", 0, 1) == NULL);
	CHECK(shift("0", 0, -1) == NULL);
	/* More ranges than the cap, and a text longer than the output. */
	char many[4096] = "";
	for (int i = 1; i <= CORDON_PAGE_RANGES_MAX + 1; i++) {
		char item[16];
		snprintf(item, sizeof(item), i > 1 ? ",%d" : "%d", i);
		strcat(many, item);
	}
	CHECK(!parses(many, 1));
	char out[8];
	const char *why;
	CHECK(!cordon_page_ranges_shift("100000,200000", 1, 0, out, sizeof(out), &why));
	/* A long run of digits of every length up to 4000: refused from the seventh on. */
	char digits[4001];
	for (size_t len = 1; len < sizeof(digits); len++) {
		memset(digits, '9', len);
		digits[len] = '\0';
		CHECK(parses(digits, 1) == (len <= 6));
	}
}

int main(void) {
	test_good();
	test_hostile();
	return check_result();
}
