/* Helpers of the fuzz targets (fuzz/fuzz.h). */
#include "fuzz.h"

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

bool fuzz_has_control(const char *s) {
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			return true;
		}
	}
	return false;
}
