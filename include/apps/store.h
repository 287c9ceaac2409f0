/* The stores a user added: each with its URL, its pinned key, the app ids it may serve and the
 * highest index serial seen from it. */
#ifndef CORDON_APPS_STORE_H
#define CORDON_APPS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/signature.h"

#define CORDON_STORE_APPS_MAX 64

struct cordon_store {
	char *name;
	char *url;
	unsigned char key[CORDON_KEY_SIZE];
	char *apps[CORDON_STORE_APPS_MAX]; /* "org.example.App" or "org.example.*" */
	size_t app_count;
	uint64_t serial; /* the highest index serial accepted */
};

struct cordon_stores {
	struct cordon_store *items;
	size_t count;
	char *path; /* $XDG_DATA_HOME/cordon/stores.json */
};

/* Loads the list (a missing file is an empty list); false with *error. */
bool cordon_stores_load(struct cordon_stores *stores, char **error);
/*
 * The list's JSON (as cordon_stores_load reads it) appended to stores, whose path names the
 * file in messages; false with *error. root may be NULL (the file did not parse).
 */
struct json_object;
bool cordon_stores_from_json(struct cordon_stores *stores, struct json_object *root, char **error);
/* Writes it back atomically (temporary file, fsync, rename, fsync of the directory). */
bool cordon_stores_save(const struct cordon_stores *stores, char **error);
void cordon_stores_finish(struct cordon_stores *stores);

struct cordon_store *cordon_stores_find(struct cordon_stores *stores, const char *name);
/* Appends a copy-initialised store; returns it (NULL on no memory). */
struct cordon_store *cordon_stores_add(
	struct cordon_stores *stores, const char *name, const char *url);
void cordon_stores_remove(struct cordon_stores *stores, const char *name);

/* Whether the store's list of app ids allows id. */
bool cordon_store_may_serve(const struct cordon_store *store, const char *id);

/* NULL if name is a valid store name (lower-case letters, digits, '-', up to 32), else why not. */
const char *cordon_store_name_problem(const char *name);
/* NULL if pattern is an app id or an app id prefix ending in ".*". */
const char *cordon_store_pattern_problem(const char *pattern);

/* One app of a store's index. */
struct cordon_index_entry {
	char *id;
	char *version;
	char *file; /* a plain file name beside the index */
	unsigned char sha256[32];
	uint64_t size;
};

struct cordon_index {
	uint64_t serial;
	struct cordon_index_entry *entries;
	size_t count;
};

#define CORDON_INDEX_MAX (4u << 20)
#define CORDON_INDEX_ENTRIES_MAX 4096
#define CORDON_INDEX_SIGNED_PREFIX "cordon-app index 1\n"

/*
 * Checks the index's detached signature (hex) against the store's key before parsing it, then
 * the index: an older serial than the store's highest (a replay, unless allow_older) and an
 * entry for an app the store may not serve refuse the whole index. false with *error.
 */
bool cordon_index_load(const struct cordon_store *store, const char *text, size_t len,
	const char *signature_hex, bool allow_older, struct cordon_index *index, char **error);
void cordon_index_finish(struct cordon_index *index);
const struct cordon_index_entry *cordon_index_find(
	const struct cordon_index *index, const char *id);

#endif
