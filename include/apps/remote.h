/* Installing and updating from the user's stores: index, download, then the install. */
#ifndef CORDON_APPS_REMOTE_H
#define CORDON_APPS_REMOTE_H

#include <stdbool.h>

#include "apps/install.h"
#include "apps/store.h"

struct cordon_remote_options {
	struct cordon_install_options install;
	bool allow_older; /* an index older than one seen */
};

/* STORE/APP-ID: the newest version the store's index lists. Returns an exit code. */
int cordon_remote_install(struct cordon_stores *stores, const char *store_name, const char *id,
	const struct cordon_remote_options *options);
/* Every installed app from a store (or only id): installs the newer version the index lists. */
int cordon_remote_update(
	struct cordon_stores *stores, const char *id, const struct cordon_remote_options *options);

#endif
