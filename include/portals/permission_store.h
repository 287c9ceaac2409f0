/*
 * The portal permission store: per app id and portal, ask (the default), allow or
 * deny, and the folders the user chose for the app before. Persisted atomically
 * in $XDG_STATE_HOME/cordon/permissions (format in docs/portals.md).
 */
#ifndef CORDON_PORTALS_PERMISSION_STORE_H
#define CORDON_PORTALS_PERMISSION_STORE_H

#include <stdbool.h>
#include <stddef.h>

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
 * an empty store. A file that does not parse is logged with its line, renamed to
 * PATH.corrupt as a backup and replaced by the defaults; never a failure.
 * NULL only when memory ran out.
 */
struct cordon_permission_store *cordon_permission_store_load(const char *path);
void cordon_permission_store_destroy(struct cordon_permission_store *store);

/* $XDG_STATE_HOME/cordon/permissions, else ~/.local/state/cordon/permissions; malloc'ed. */
char *cordon_permission_store_default_path(void);

enum cordon_permission cordon_permission_store_get(
	const struct cordon_permission_store *store, const char *app_id, const char *portal);
/*
 * Sets and saves. False with *error (malloc'ed) for an app id or portal the file
 * cannot hold, or when the save failed (the change is then undone).
 */
bool cordon_permission_store_set(struct cordon_permission_store *store, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error);
/* Remembers FOLDER as the most recent for the app and portal, and saves. */
bool cordon_permission_store_add_folder(struct cordon_permission_store *store, const char *app_id,
	const char *portal, const char *folder, char **error);
/* The remembered folders, most recent first; valid until the next change. */
const char *const *cordon_permission_store_get_folders(const struct cordon_permission_store *store,
	const char *app_id, const char *portal, size_t *count);

/* Calls FN for every stored entry, in file order. */
typedef void (*cordon_permission_iterator)(void *data, const char *app_id, const char *portal,
	enum cordon_permission permission, const char *const *folders, size_t folder_count);
void cordon_permission_store_for_each(
	const struct cordon_permission_store *store, cordon_permission_iterator fn, void *data);

/* Writes the store to its file: temporary file in the same folder, fsync, rename, fsync. */
bool cordon_permission_store_save(const struct cordon_permission_store *store, char **error);

const char *cordon_permission_name(enum cordon_permission permission);
bool cordon_permission_parse(const char *name, enum cordon_permission *permission);

/* Whether a word can be an app id or portal name in the file (no spaces, brackets, '='). */
bool cordon_permission_valid_name(const char *name);

#endif
