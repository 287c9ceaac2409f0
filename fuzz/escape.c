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

static void check_output(const char *out, unsigned flags) {
	fuzz_require(fuzz_terminal_safe(out),
		"escaped text is UTF-8 without controls, C1, bidi overrides or line separators");
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
