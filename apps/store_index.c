/*
 * A store's index (docs/apps.md): index.json and its detached signature index.json.sig, both
 * fetched from the store. The signature is checked against the store's pinned key before a
 * byte of the JSON is parsed; then the serial must not go back (a replayed older index would
 * offer older, vulnerable versions), and every entry must be an app the store may serve.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "apps/bundle.h"
#include "apps/manifest.h"
#include "apps/store.h"
#include "common/app_id.h"
#include "common/format.h"

static bool file_name_ok(const char *s) {
	size_t len = strlen(s);
	if (len == 0 || len > 128 || s[0] == '.') {
		return false;
	}
	for (const char *p = s; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || strchr("._-+", *p) != NULL)) {
			return false;
		}
	}
	return true;
}

static const char *json_string(json_object *o, const char *key) {
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		? json_object_get_string(v)
		: NULL;
}

static bool parse_entry(const struct cordon_store *store, json_object *item,
	struct cordon_index_entry *e, char **error) {
	const char *id = json_string(item, "id"), *version = json_string(item, "version");
	const char *file = json_string(item, "file"), *sha = json_string(item, "sha256");
	json_object *size;
	if (id == NULL || version == NULL || file == NULL || sha == NULL ||
		!json_object_object_get_ex(item, "size", &size) ||
		!json_object_is_type(size, json_type_int)) {
		*error = cordon_format("store %s: an index entry lacks id, version, file, sha256 "
				       "or size",
			store->name);
		return false;
	}
	if (!cordon_app_id_valid(id) || !cordon_version_valid(version) || !file_name_ok(file) ||
		!cordon_hex_decode(sha, e->sha256, 32) || json_object_get_int64(size) <= 0 ||
		(uint64_t)json_object_get_int64(size) > CORDON_BUNDLE_IMAGE_MAX + (4u << 20)) {
		*error = cordon_format("store %s: a malformed index entry", store->name);
		return false;
	}
	if (!cordon_store_may_serve(store, id)) {
		*error = cordon_format("store %s claims app %s, which it may not serve (its apps: "
				       "%s%s)",
			store->name, id, store->app_count > 0 ? store->apps[0] : "none",
			store->app_count > 1 ? ", ..." : "");
		return false;
	}
	e->id = strdup(id);
	e->version = strdup(version);
	e->file = strdup(file);
	e->size = (uint64_t)json_object_get_int64(size);
	return e->id != NULL && e->version != NULL && e->file != NULL;
}

static bool check_signature(const struct cordon_store *store, const char *text, size_t len,
	const char *signature_hex, char **error) {
	unsigned char sig[CORDON_SIG_SIZE];
	size_t hex_len = strcspn(signature_hex, "\n");
	char hex[CORDON_SIG_HEX_LEN + 1];
	if (hex_len != CORDON_SIG_HEX_LEN) {
		*error = cordon_format("store %s: the index signature is malformed", store->name);
		return false;
	}
	memcpy(hex, signature_hex, hex_len);
	hex[hex_len] = '\0';
	size_t prefix = strlen(CORDON_INDEX_SIGNED_PREFIX);
	char *message = malloc(prefix + len);
	if (message == NULL || !cordon_hex_decode(hex, sig, sizeof(sig))) {
		free(message);
		*error = cordon_format("store %s: the index signature is malformed", store->name);
		return false;
	}
	memcpy(message, CORDON_INDEX_SIGNED_PREFIX, prefix);
	memcpy(message + prefix, text, len);
	bool ok = cordon_signature_verify(store->key, message, prefix + len, sig);
	free(message);
	if (!ok) {
		char fingerprint[32];
		cordon_key_fingerprint(store->key, fingerprint);
		*error = cordon_format(
			"store %s: the index is not signed by the store's key (%s); if the store "
			"changed its key, confirm the new one with 'cordon-app store add %s URL "
			"--key NEW --replace-key'",
			store->name, fingerprint, store->name);
	}
	return ok;
}

bool cordon_index_load(const struct cordon_store *store, const char *text, size_t len,
	const char *signature_hex, bool allow_older, struct cordon_index *index, char **error) {
	memset(index, 0, sizeof(*index));
	if (!check_signature(store, text, len, signature_hex, error)) {
		return false;
	}
	json_tokener *tok = json_tokener_new_ex(8);
	json_object *root = tok != NULL ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
	json_tokener_free(tok);
	json_object *serial, *apps;
	if (root == NULL || !json_object_object_get_ex(root, "serial", &serial) ||
		!json_object_is_type(serial, json_type_int) || json_object_get_int64(serial) <= 0 ||
		!json_object_object_get_ex(root, "apps", &apps) ||
		!json_object_is_type(apps, json_type_array) ||
		json_object_array_length(apps) > CORDON_INDEX_ENTRIES_MAX) {
		json_object_put(root);
		*error = cordon_format("store %s: the index is not a valid index", store->name);
		return false;
	}
	index->serial = (uint64_t)json_object_get_int64(serial);
	if (index->serial < store->serial && !allow_older) {
		json_object_put(root);
		*error =
			cordon_format("store %s: the index (serial %llu) is older than one already "
				      "seen (serial %llu): a replayed index is refused "
				      "(--allow-older to accept it)",
				store->name, (unsigned long long)index->serial,
				(unsigned long long)store->serial);
		return false;
	}
	size_t n = json_object_array_length(apps);
	index->entries = calloc(n > 0 ? n : 1, sizeof(*index->entries));
	bool ok = index->entries != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ok = parse_entry(
			store, json_object_array_get_idx(apps, i), &index->entries[i], error);
		index->count++;
	}
	json_object_put(root);
	if (!ok) {
		if (*error == NULL) {
			*error = cordon_format("out of memory");
		}
		cordon_index_finish(index);
	}
	return ok;
}

void cordon_index_finish(struct cordon_index *index) {
	for (size_t i = 0; i < index->count; i++) {
		free(index->entries[i].id);
		free(index->entries[i].version);
		free(index->entries[i].file);
	}
	free(index->entries);
	memset(index, 0, sizeof(*index));
}

const struct cordon_index_entry *cordon_index_find(
	const struct cordon_index *index, const char *id) {
	const struct cordon_index_entry *best = NULL;
	for (size_t i = 0; i < index->count; i++) {
		const struct cordon_index_entry *e = &index->entries[i];
		if (strcmp(e->id, id) == 0 &&
			(best == NULL || cordon_version_compare(e->version, best->version) > 0)) {
			best = e;
		}
	}
	return best;
}
