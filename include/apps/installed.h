/* What is installed: an app's current and previous versions, origin and manifest. */
#ifndef CORDON_APPS_INSTALLED_H
#define CORDON_APPS_INSTALLED_H

#include <stdbool.h>

#include "apps/manifest.h"

/* What is installed of one app. */
struct cordon_installed {
	char *id;
	char *dir; /* .../installed/ID */
	char *version; /* current */
	char *previous; /* the version rollback returns to, or NULL */
	char *origin_store; /* NULL: installed from a file */
	char *origin_key; /* hex */
	struct cordon_manifest *manifest;
};

/* $XDG_DATA_HOME/cordon/installed, malloc'ed. */
char *cordon_installed_root(void);
/* false when id is not installed (or unreadable: *error set then). */
bool cordon_installed_load(const char *id, struct cordon_installed *out, char **error);
void cordon_installed_finish(struct cordon_installed *inst);
/* The installed app ids, sorted, NULL-terminated, malloc'ed. */
char **cordon_installed_list(void);

#endif
