/* A small INI reader: "[section]" and "key = value" lines, handed to a callback one at a time. */
#ifndef CORDON_COMMON_INI_H
#define CORDON_COMMON_INI_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Called once for each "[section]" line (key and value NULL) and once for each
 * "key = value" line, with the section it is in. key and value are trimmed;
 * value may be empty. Return false to stop; *reason may then be set to a
 * malloc'ed explanation (NULL is reported as "out of memory").
 */
typedef bool (*cordon_ini_handler)(void *data, const char *section, const char *key,
	const char *value, int line, char **reason);

/*
 * Parses the whole stream. name is what error messages call it (usually the
 * path). Returns false on a malformed line, a read error or a refusal by the
 * handler, with *error (if error is not NULL) set to a malloc'ed
 * "NAME:LINE: reason" (or "NAME: reason" for read errors).
 */
bool cordon_ini_parse_file(
	FILE *file, const char *name, cordon_ini_handler handler, void *data, char **error);

/* The same for text already in memory, e.g. in tests. */
bool cordon_ini_parse_string(
	const char *text, const char *name, cordon_ini_handler handler, void *data, char **error);

#endif
