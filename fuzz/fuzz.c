/* Helpers of the fuzz targets (fuzz/fuzz.h). */
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void fuzz_require(bool ok, const char *rule) {
	if (!ok) {
		fprintf(stderr, "fuzz oracle: broken rule: %s\n", rule);
		abort();
	}
}

char *fuzz_string(const uint8_t *data, size_t size) {
	const uint8_t *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	char *s = malloc(len + 1);
	fuzz_require(s != NULL, "memory for the input");
	memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

FILE *fuzz_stream(const uint8_t *data, size_t size) {
	/* fmemopen refuses a zero size; an empty file is still a file to parse. */
	static char empty[1];
	FILE *file = size > 0 ? fmemopen((void *)data, size, "r") : fmemopen(empty, 1, "r");
	fuzz_require(file != NULL, "fmemopen of the input");
	if (size == 0) {
		fgetc(file);
	}
	return file;
}

/* The length of the UTF-8 sequence at s, 0 when it is not one (or is a forbidden one). */
static size_t utf8_allowed(const unsigned char *s) {
	if (s[0] < 0x80) {
		return 1;
	}
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (len == 0 || s[0] > 0xf4) {
		return 0;
	}
	uint32_t cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
	bool surrogate = cp >= 0xd800 && cp <= 0xdfff;
	bool c1 = cp >= 0x80 && cp <= 0x9f;
	bool separator = cp == 0x2028 || cp == 0x2029;
	bool bidi = (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
		cp == 0x200e || cp == 0x200f || cp == 0x61c;
	if (overlong || surrogate || c1 || separator || bidi || cp > 0x10ffff) {
		return 0;
	}
	return len;
}

bool fuzz_terminal_safe(const char *s) {
	for (const unsigned char *c = (const unsigned char *)s; *c;) {
		size_t len = *c < 0x20 || *c == 0x7f ? 0 : utf8_allowed(c);
		if (len == 0) {
			return false;
		}
		c += len;
	}
	return true;
}

bool fuzz_has_control(const char *s) {
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			return true;
		}
	}
	return false;
}
