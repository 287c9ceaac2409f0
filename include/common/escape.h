/* Text a client or a file name controls, made safe to print to a terminal or a log line. */
#ifndef CORDON_COMMON_ESCAPE_H
#define CORDON_COMMON_ESCAPE_H

#include <stddef.h>

/*
 * What is escaped, always: C0 controls and DEL (ESC starts OSC 52, which sets the clipboard in
 * many terminals; a newline starts a fake line), C1 controls written in UTF-8 (U+0080..U+009F,
 * CSI and OSC for terminals that take them), bytes that are not UTF-8 (a lone 0x9b is CSI in an
 * 8-bit terminal), line and paragraph separators and bidirectional overrides (which reorder
 * what follows), and the backslash itself, so that an escape is never ambiguous. Controls
 * become \n, \r, \t or \xNN; characters become \u{XXXX}.
 */
enum cordon_escape_flags {
	CORDON_ESCAPE_QUOTE = 1 << 0, /* also '"': for text printed between quotes */
	CORDON_ESCAPE_SPACE = 1 << 1, /* also ' ': for a word in a space-separated listing */
};

/*
 * Escapes s (NULL prints as "(null)") into out, which always ends up NUL-terminated: text that
 * does not fit ends in "..." and is never cut inside an escape. Returns out.
 */
char *cordon_escape(char *out, size_t size, const char *s, unsigned flags);

/* The whole of s escaped, malloc'ed; NULL when memory ran out. */
char *cordon_escape_dup(const char *s, unsigned flags);

/*
 * For a log line's argument: wlr_log(WLR_INFO, "app %s", cordon_log_text(app_id)). The buffer
 * is a compound literal, alive until the end of the enclosing block, so the call needs no free.
 */
#define CORDON_LOG_TEXT_MAX 512
#define cordon_log_text(s)                                                                         \
	cordon_escape((char[CORDON_LOG_TEXT_MAX]){0}, CORDON_LOG_TEXT_MAX, (s), 0)

#endif
