/*
 * The portal permission store: per app id and portal, ask (the default), allow or
 * deny, and the folders the user chose for the app before. Persisted atomically
 * in $XDG_STATE_HOME/cordon/permissions (format in docs/portals.md), shared safely
 * by several cordon instances: each change is merged into the file under a lock.
 */
#ifndef CORDON_PORTALS_PERMISSION_STORE_H
#define CORDON_PORTALS_PERMISSION_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cordon_permission {
	CORDON_PERMISSION_ASK,
	CORDON_PERMISSION_ALLOW,
	CORDON_PERMISSION_DENY,
};

/* Remembered folders per app and portal, most recent first; older ones drop out. */
#define CORDON_PERMISSION_MAX_FOLDERS 8

struct cordon_permission_store;

/*
 * Loads the store from PATH (NULL: memory only, never saved). A missing file is
 * an empty store. A file that does not parse is logged with its line and left as
 * it is: the store answers ask for everything and is read-only (every change
 * fails, saying why) until the file is fixed or removed; never a failure.
 * NULL only when memory ran out.
 */
struct cordon_permission_store *cordon_permission_store_load(const char *path);
/*
 * The text of a store file as a memory-only store (never saved); NULL with *error
 * ("NAME:LINE: reason", malloc'ed) when it does not parse. name is what errors call it.
 */
struct cordon_permission_store *cordon_permission_store_parse(
	FILE *file, const char *name, char **error);
void cordon_permission_store_destroy(struct cordon_permission_store *store);
/* What a save writes: the store as the file's text, malloc'ed; NULL when out of memory. */
char *cordon_permission_store_serialize(struct cordon_permission_store *store);

/* $XDG_STATE_HOME/cordon/permissions, else ~/.local/state/cordon/permissions; malloc'ed. */
char *cordon_permission_store_default_path(void);

/*
 * Lookups read the file again when it changed on disk (another cordon instance saved a
 * change), so they take no const store. A version that does not parse is not taken:
 * the last good one still answers, and the store is read-only.
 */
enum cordon_permission cordon_permission_store_get(
	struct cordon_permission_store *store, const char *app_id, const char *portal);
/*
 * Sets and saves: under an flock on PATH.lock, the file is read again, this one change
 * made to what it says and the result written (temporary file, fsync, rename, fsync of
 * the folder), so a change another instance saved meanwhile is kept. False with *error
 * (malloc'ed) for an app id or portal the file cannot hold, a file that does not parse
 * (read-only), a lock held for more than 2 s, or a failed save; nothing changes then.
 */
bool cordon_permission_store_set(struct cordon_permission_store *store, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error);
/* Remembers FOLDER as the most recent for the app and portal, and saves. */
bool cordon_permission_store_add_folder(struct cordon_permission_store *store, const char *app_id,
	const char *portal, const char *folder, char **error);
/* The remembered folders, most recent first; valid until the next call into the store. */
const char *const *cordon_permission_store_get_folders(struct cordon_permission_store *store,
	const char *app_id, const char *portal, size_t *count);

/* Calls FN for every stored entry, in file order. */
typedef void (*cordon_permission_iterator)(void *data, const char *app_id, const char *portal,
	enum cordon_permission permission, const char *const *folders, size_t folder_count);
void cordon_permission_store_for_each(
	struct cordon_permission_store *store, cordon_permission_iterator fn, void *data);

/* Why the store is read-only ("PATH:LINE: reason"), or NULL when it can be written. */
const char *cordon_permission_store_read_only_reason(struct cordon_permission_store *store);

const char *cordon_permission_name(enum cordon_permission permission);
bool cordon_permission_parse(const char *name, enum cordon_permission *permission);

/* Whether a word can be an app id or portal name in the file (no spaces, brackets, '='). */
bool cordon_permission_valid_name(const char *name);

#endif
