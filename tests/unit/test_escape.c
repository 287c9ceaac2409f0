/* common/escape.c: what a client controls comes out as one line with no terminal controls. */
#include <stdlib.h>

#include "check.h"
#include "common/escape.h"

static void check_escape(const char *in, unsigned flags, const char *want) {
	char *got = cordon_escape_dup(in, flags);
	CHECK_STR(got, want);
	free(got);
}

int main(void) {
	check_escape("org.example.App", 0, "org.example.App");
	check_escape(NULL, 0, "(null)");
	/* OSC 52 and a fake line: ESC, BEL and the newline become visible escapes. */
	check_escape("a\x1b]52;c;eA==\x07\n[host] b", 0, "a\\x1b]52;c;eA==\\x07\\n[host] b");
	check_escape("tab\there\rdel\x7f", 0, "tab\\there\\rdel\\x7f");
	check_escape("back\\slash", 0, "back\\\\slash");
	check_escape("say \"hi\"", CORDON_ESCAPE_QUOTE, "say \\\"hi\\\"");
	check_escape("say \"hi\"", 0, "say \"hi\"");
	check_escape("two words", CORDON_ESCAPE_SPACE, "two\\x20words");
	/* UTF-8 text stays; C1 controls, separators and bidi overrides do not. */
	check_escape("caf\xc3\xa9 \xe6\x97\xa5", 0, "caf\xc3\xa9 \xe6\x97\xa5");
	check_escape("\xc2\x9b"
		     "31m",
		0, "\\u{009b}31m");
	check_escape("a\xe2\x80\xae"
		     "b",
		0, "a\\u{202e}b");
	check_escape("a\xe2\x80\xa8"
		     "b",
		0, "a\\u{2028}b");
	/* Not UTF-8: each byte escaped (a lone 0x9b is CSI in an 8-bit terminal). */
	check_escape("\x9b"
		     "2J",
		0, "\\x9b2J");
	check_escape("\xc3", 0, "\\xc3");
	check_escape("\xc0\xaf", 0, "\\xc0\\xaf"); /* overlong '/' */
	check_escape("\xed\xa0\x80", 0, "\\xed\\xa0\\x80"); /* a surrogate */
	/* Truncated: ends in "...", never inside an escape, always terminated. */
	char small[12];
	CHECK_STR(cordon_escape(small, sizeof(small), "abcdefghijklmnop", 0), "abcdefgh...");
	CHECK_STR(cordon_escape(small, sizeof(small), "abcdef\x1b\x1b\x1b", 0), "abcdef...");
	CHECK_STR(cordon_escape(small, sizeof(small), "abcdefghijk", 0), "abcdefghijk");
	CHECK_STR(cordon_log_text("x\ny"), "x\\ny");
	return check_result();
}
