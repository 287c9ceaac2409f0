/* printf into a new string, the one way cordon builds its error messages. */
#ifndef CORDON_COMMON_FORMAT_H
#define CORDON_COMMON_FORMAT_H

#include <stdarg.h>

/* A malloc'ed string, or NULL when memory ran out. */
char *cordon_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *cordon_vformat(const char *fmt, va_list args) __attribute__((format(printf, 1, 0)));

#endif
