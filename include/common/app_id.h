/* What an app id may be: one rule for cordon-run, which makes them, and the cgroup parser. */
#ifndef CORDON_SANDBOX_APP_ID_H
#define CORDON_SANDBOX_APP_ID_H

#include <stdbool.h>
#include <stddef.h>

/* The longest id a tag holds (struct cordon_tag's app_id, NUL excluded). */
#define CORDON_APP_ID_MAX 255
/*
 * The longest id cordon-run takes: it names the scope app-cordon-ID-INSTANCE.scope, and a
 * cgroup's name is at most 255 bytes.
 */
#define CORDON_APP_ID_SCOPE_MAX 200

/*
 * NULL if id is a valid app id, else why not, for a message: reverse-DNS style, letters,
 * digits, '.', '_' and '-'; not beginning with '.' or '-', not ending with '.', no empty
 * element ("..") and at most CORDON_APP_ID_MAX bytes.
 */
const char *cordon_app_id_problem(const char *id);

static inline bool cordon_app_id_valid(const char *id) {
	return cordon_app_id_problem(id) == NULL;
}

#endif
