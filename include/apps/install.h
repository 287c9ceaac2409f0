/* Installing, switching and removing an app's versions under $XDG_DATA_HOME/cordon/installed. */
#ifndef CORDON_APPS_INSTALL_H
#define CORDON_APPS_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

#include "apps/installed.h"
#include "apps/manifest.h"
#include "apps/signature.h"

/* cordon-app's exit codes (docs/apps.md). */
enum cordon_app_exit {
	CORDON_APP_OK = 0,
	CORDON_APP_ERROR = 1, /* I/O, network, disk */
	CORDON_APP_USAGE = 2, /* a bad command line */
	CORDON_APP_REFUSED_SIGNATURE = 3, /* not a bundle, a digest or signature that fails */
	CORDON_APP_REFUSED_POLICY = 4, /* verified, but not allowed (see the message) */
	CORDON_APP_NOT_FOUND = 5, /* no such app or store */
	CORDON_APP_CANCELLED = 6, /* the user said no, or --yes was needed */
};

struct cordon_store;

/* A key a bundle may be signed with: a store's, or one the user trusts once (store NULL). */
struct cordon_trusted_key {
	unsigned char key[CORDON_KEY_SIZE];
	const struct cordon_store *store;
};

struct cordon_install_options {
	bool yes; /* install without asking */
	bool allow_downgrade; /* an older version than the installed one */
	bool replace_origin; /* another store's (or key's) app may be replaced */
	const char *cordon_run; /* the launcher Exec= names */
	const char *label; /* what messages call the bundle; NULL: its path */
};

/*
 * Takes the lock every change holds (flock on installed/.lock), for the whole command: the
 * store list (its serials) and installed/ are read and written under it, so two cordon-app
 * runs never undo each other's changes. The functions below that change anything expect the
 * caller to hold it. -1 with *error.
 */
int cordon_install_lock(char **error);
/* Verifies path against keys and installs it; prints progress; returns an exit code. */
int cordon_install_bundle(const char *path, const struct cordon_trusted_key *keys, size_t key_count,
	const struct cordon_install_options *options);
int cordon_install_rollback(const char *id, const struct cordon_install_options *options);
int cordon_install_remove(const char *id, bool delete_data);

#endif
