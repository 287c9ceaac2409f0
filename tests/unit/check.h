/* The checks the unit tests share: report a failed expectation with its place, count it, go on. */
#ifndef CORDON_TESTS_UNIT_CHECK_H
#define CORDON_TESTS_UNIT_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int failures;

static inline void check(bool ok, const char *what, const char *file, int line) {
	if (!ok) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
		failures++;
	}
}

static inline void check_str(const char *got, const char *want, const char *file, int line) {
	if ((got == NULL) != (want == NULL) || (got != NULL && strcmp(got, want) != 0)) {
		fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", file, line,
			got != NULL ? got : "(null)", want != NULL ? want : "(null)");
		failures++;
	}
}

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), __FILE__, __LINE__)

/* main's return: 0 when every check held. */
static inline int check_result(void) {
	if (failures > 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	return 0;
}

#endif
