/* vasprintf leaves its pointer undefined on failure: these return NULL instead. */
#include "common/format.h"

#include <stdio.h>

char *cordon_vformat(const char *fmt, va_list args) {
	char *s;
	if (vasprintf(&s, fmt, args) < 0) {
		return NULL;
	}
	return s;
}

char *cordon_format(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	char *s = cordon_vformat(fmt, args);
	va_end(args);
	return s;
}
