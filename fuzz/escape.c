/*
 * Escaping what clients control before it is printed (common/escape.c): app ids, titles,
 * mime types and file names reach terminals and logs. Input: one byte of flags, then the
 * text. Oracle: the output has no control byte, no C1 control, no bidirectional override or
 * line separator, and is valid UTF-8; with the flags, no '"' or ' '; it always ends in a NUL
 * within its buffer, and a whole escape equals the start of the cut one.
 */
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "fuzz.h"

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

static void check_output(const char *out, unsigned flags) {
	fuzz_require(!fuzz_has_control(out), "no control byte in escaped text");
	for (const unsigned char *c = (const unsigned char *)out; *c;) {
		size_t len = utf8_allowed(c);
		fuzz_require(len > 0, "escaped text is UTF-8 without C1, bidi or line separators");
		c += len;
	}
	/* Outside its escapes (a backslash and what follows), no quote or space when asked. */
	for (const char *c = out; *c; c++) {
		if (*c == '\\') {
			fuzz_require(c[1] != '\0', "an escape is never cut");
			c++;
			continue;
		}
		fuzz_require(!(flags & CORDON_ESCAPE_QUOTE) || *c != '"', "quotes are escaped");
		fuzz_require(!(flags & CORDON_ESCAPE_SPACE) || *c != ' ', "spaces are escaped");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size == 0) {
		return 0;
	}
	unsigned flags = data[0] & (CORDON_ESCAPE_QUOTE | CORDON_ESCAPE_SPACE);
	size_t cut = 1 + data[0] / 4; /* a buffer of 1 to 64 bytes */
	char *text = fuzz_string(data + 1, size - 1);
	char *whole = cordon_escape_dup(text, flags);
	fuzz_require(whole != NULL, "memory");
	check_output(whole, flags);

	char *small = malloc(cut + 1);
	fuzz_require(small != NULL, "memory");
	small[cut] = 'X'; /* a canary just past the buffer given */
	cordon_escape(small, cut, text, flags);
	fuzz_require(small[cut] == 'X' && memchr(small, '\0', cut), "the buffer ends in a NUL");
	check_output(small, flags);
	size_t len = strlen(small);
	bool ellipsis = len >= 3 && strcmp(small + len - 3, "...") == 0;
	fuzz_require(strncmp(small, whole, ellipsis ? len - 3 : len) == 0,
		"a cut escape is the start of the whole one");
	free(small);
	free(whole);
	free(text);
	return 0;
}
