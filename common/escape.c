/*
 * One escaping function for everything cordon prints that a client or a file name controls:
 * cordonctl's text output and cordon's log. An app id carrying ESC ] 52 ; c ; ... BEL would
 * otherwise set the user's clipboard from the terminal that shows the listing, and a newline
 * would start a line that looks like cordon's own.
 */
#include "common/escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The length of the UTF-8 sequence at s (1 to 4) and its code point, or 0 when it is not
 * valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are not).
 */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp) {
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t len;
	uint32_t min;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, min = 0x80, *cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, min = 0x800, *cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, min = 0x10000, *cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		/* A NUL ends the string here, and fails this test too. */
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff)) {
		return 0;
	}
	return len;
}

/* Characters that move or reorder text rather than show: C1, separators, bidi controls. */
static bool invisible_control(uint32_t cp) {
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0x200e ||
		cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
		cp == 0x061c;
}

/* The escaped form of the sequence at s into piece (at least 16 bytes); its input length. */
static size_t escape_one(const char *s, unsigned flags, char *piece) {
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len = utf8_decode(u, &cp);
	if (len == 0) {
		snprintf(piece, 16, "\\x%02x", u[0]);
		return 1;
	}
	if (len > 1) {
		if (invisible_control(cp)) {
			snprintf(piece, 16, "\\u{%04x}", (unsigned)cp);
		} else {
			memcpy(piece, s, len);
			piece[len] = '\0';
		}
		return len;
	}
	switch (u[0]) {
	case '\n':
		strcpy(piece, "\\n");
		return 1;
	case '\r':
		strcpy(piece, "\\r");
		return 1;
	case '\t':
		strcpy(piece, "\\t");
		return 1;
	case '\\':
		strcpy(piece, "\\\\");
		return 1;
	case '"':
		strcpy(piece, flags & CORDON_ESCAPE_QUOTE ? "\\\"" : "\"");
		return 1;
	case ' ':
		strcpy(piece, flags & CORDON_ESCAPE_SPACE ? "\\x20" : " ");
		return 1;
	}
	if (u[0] < 0x20 || u[0] == 0x7f) {
		snprintf(piece, 16, "\\x%02x", u[0]);
	} else {
		piece[0] = (char)u[0];
		piece[1] = '\0';
	}
	return 1;
}

/* The length of s escaped, without the NUL. */
static size_t escaped_length(const char *s, unsigned flags) {
	size_t n = 0;
	while (*s) {
		char piece[16];
		s += escape_one(s, flags, piece);
		n += strlen(piece);
	}
	return n;
}

char *cordon_escape(char *out, size_t size, const char *s, unsigned flags) {
	if (size == 0) {
		return out;
	}
	if (!s) {
		s = "(null)";
	}
	static const char ellipsis[] = "...";
	/* Room is kept for "..." only when the whole does not fit. */
	size_t reserve = escaped_length(s, flags) + 1 > size ? sizeof(ellipsis) - 1 : 0;
	size_t n = 0;
	out[0] = '\0';
	while (*s) {
		char piece[16];
		size_t used = escape_one(s, flags, piece);
		size_t piece_len = strlen(piece);
		if (n + piece_len + reserve + 1 > size) {
			if (n + sizeof(ellipsis) <= size) {
				memcpy(out + n, ellipsis, sizeof(ellipsis));
			}
			return out;
		}
		memcpy(out + n, piece, piece_len + 1);
		n += piece_len;
		s += used;
	}
	return out;
}

char *cordon_escape_dup(const char *s, unsigned flags) {
	if (!s) {
		s = "(null)";
	}
	/* The longest escape, \u{xxxxxx} (10 bytes), stands for at least 2 input bytes; \xNN for 1.
	 */
	size_t size = strlen(s) * 5 + 1;
	char *out = malloc(size);
	return out ? cordon_escape(out, size, s, flags) : NULL;
}
