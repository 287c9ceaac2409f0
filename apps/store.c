/*
 * The user's stores ($XDG_DATA_HOME/cordon/stores.json, docs/apps.md): what cordon-app trusts.
 * A store's key is pinned when it is added; its app list bounds what it may install or
 * replace; its serial only goes up, so an older index replayed by a mirror is refused.
 */
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/files.h"
#include "apps/store.h"
#include "common/app_id.h"
#include "common/format.h"
#include "common/xdg.h"

const char *cordon_store_name_problem(const char *name) {
	size_t len = strlen(name);
	if (len == 0 || len > 32) {
		return "a store name has 1 to 32 characters";
	}
	for (const char *p = name; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) {
			return "a store name has lower-case letters, digits and '-' only";
		}
	}
	return name[0] == '-' ? "a store name does not begin with '-'" : NULL;
}

const char *cordon_store_pattern_problem(const char *pattern) {
	size_t len = strlen(pattern);
	if (len > 2 && strcmp(pattern + len - 2, ".*") == 0) {
		char prefix[CORDON_APP_ID_MAX + 1];
		if (len - 2 > CORDON_APP_ID_MAX) {
			return "too long";
		}
		memcpy(prefix, pattern, len - 2);
		prefix[len - 2] = '\0';
		return cordon_app_id_problem(prefix);
	}
	return cordon_app_id_problem(pattern);
}

bool cordon_store_may_serve(const struct cordon_store *store, const char *id) {
	for (size_t i = 0; i < store->app_count; i++) {
		const char *p = store->apps[i];
		size_t len = strlen(p);
		if (len > 2 && strcmp(p + len - 2, ".*") == 0) {
			/* "org.example.*" covers org.example.X, not org.exampleX nor org.example.
			 */
			if (strncmp(id, p, len - 1) == 0 && id[len - 1] != '\0') {
				return true;
			}
		} else if (strcmp(id, p) == 0) {
			return true;
		}
	}
	return false;
}

static void store_free(struct cordon_store *s) {
	free(s->name);
	free(s->url);
	for (size_t i = 0; i < s->app_count; i++) {
		free(s->apps[i]);
	}
	memset(s, 0, sizeof(*s));
}

void cordon_stores_finish(struct cordon_stores *stores) {
	for (size_t i = 0; i < stores->count; i++) {
		store_free(&stores->items[i]);
	}
	free(stores->items);
	free(stores->path);
	memset(stores, 0, sizeof(*stores));
}

struct cordon_store *cordon_stores_find(struct cordon_stores *stores, const char *name) {
	for (size_t i = 0; i < stores->count; i++) {
		if (strcmp(stores->items[i].name, name) == 0) {
			return &stores->items[i];
		}
	}
	return NULL;
}

struct cordon_store *cordon_stores_add(
	struct cordon_stores *stores, const char *name, const char *url) {
	struct cordon_store *items =
		realloc(stores->items, (stores->count + 1) * sizeof(*stores->items));
	if (items == NULL) {
		return NULL;
	}
	stores->items = items;
	struct cordon_store *s = &items[stores->count++];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->url = strdup(url);
	return s;
}

void cordon_stores_remove(struct cordon_stores *stores, const char *name) {
	struct cordon_store *s = cordon_stores_find(stores, name);
	if (s == NULL) {
		return;
	}
	store_free(s);
	size_t index = (size_t)(s - stores->items);
	memmove(s, s + 1, (stores->count - index - 1) * sizeof(*s));
	stores->count--;
}

static bool is_string(json_object *o) {
	return json_object_is_type(o, json_type_string);
}

/*
 * One store of the list. The file is cordon-app's, but an editor may have left anything in
 * it: a null or a number where a string belongs was a NULL pointer passed to strdup, so
 * every field is checked for its type, and the name and patterns for what "store add"
 * takes, before anything is copied.
 */
static bool load_one(struct cordon_stores *stores, json_object *item, char **error) {
	json_object *name, *url, *key, *apps, *serial;
	if (!json_object_object_get_ex(item, "name", &name) ||
		!json_object_object_get_ex(item, "url", &url) ||
		!json_object_object_get_ex(item, "key", &key) ||
		!json_object_object_get_ex(item, "apps", &apps) ||
		!json_object_is_type(apps, json_type_array) || !is_string(name) ||
		!is_string(url) || !is_string(key)) {
		*error = cordon_format("%s: a store without name, url, key or apps", stores->path);
		return false;
	}
	const char *problem = cordon_store_name_problem(json_object_get_string(name));
	for (size_t i = 0; problem == NULL && i < json_object_array_length(apps); i++) {
		json_object *pattern = json_object_array_get_idx(apps, i);
		problem = !is_string(pattern)
			? "an app pattern is not a string"
			: cordon_store_pattern_problem(json_object_get_string(pattern));
	}
	if (problem == NULL && json_object_object_get_ex(item, "serial", &serial) &&
		!json_object_is_type(serial, json_type_int)) {
		problem = "the serial is not a number";
	}
	if (problem != NULL) {
		*error = cordon_format("%s: a malformed store: %s", stores->path, problem);
		return false;
	}
	struct cordon_store *s = cordon_stores_add(
		stores, json_object_get_string(name), json_object_get_string(url));
	if (s == NULL || s->name == NULL || s->url == NULL) {
		*error = cordon_format("out of memory");
		return false;
	}
	if (!cordon_hex_decode(json_object_get_string(key), s->key, CORDON_KEY_SIZE)) {
		*error = cordon_format("%s: store %s has a malformed key", stores->path, s->name);
		return false;
	}
	for (size_t i = 0; i < json_object_array_length(apps) && i < CORDON_STORE_APPS_MAX; i++) {
		s->apps[s->app_count++] =
			strdup(json_object_get_string(json_object_array_get_idx(apps, i)));
	}
	if (json_object_object_get_ex(item, "serial", &serial)) {
		s->serial = (uint64_t)json_object_get_int64(serial);
	}
	return true;
}

bool cordon_stores_load(struct cordon_stores *stores, char **error) {
	memset(stores, 0, sizeof(*stores));
	stores->path = cordon_user_data_path("stores.json");
	if (stores->path == NULL) {
		*error = cordon_format("no home directory for the store list");
		return false;
	}
	if (access(stores->path, F_OK) < 0 && errno == ENOENT) {
		return true;
	}
	json_object *root = json_object_from_file(stores->path);
	bool ok = cordon_stores_from_json(stores, root, error);
	json_object_put(root);
	return ok;
}

bool cordon_stores_from_json(struct cordon_stores *stores, json_object *root, char **error) {
	json_object *list;
	if (root == NULL || !json_object_object_get_ex(root, "stores", &list) ||
		!json_object_is_type(list, json_type_array)) {
		*error = cordon_format("%s: not a store list (left as it is)", stores->path);
		return false;
	}
	bool ok = true;
	for (size_t i = 0; ok && i < json_object_array_length(list); i++) {
		ok = load_one(stores, json_object_array_get_idx(list, i), error);
	}
	return ok;
}

bool cordon_stores_save(const struct cordon_stores *stores, char **error) {
	char *dir = strdup(stores->path);
	bool made = dir != NULL && cordon_mkdirs(dirname(dir), 0755);
	free(dir);
	if (!made) {
		*error = cordon_format(
			"creating the folder of %s: %s", stores->path, strerror(errno));
		return false;
	}
	json_object *root = json_object_new_object();
	json_object *list = json_object_new_array();
	json_object_object_add(root, "stores", list);
	for (size_t i = 0; i < stores->count; i++) {
		const struct cordon_store *s = &stores->items[i];
		json_object *item = json_object_new_object();
		char key[CORDON_KEY_HEX_LEN + 1];
		cordon_hex_encode(s->key, CORDON_KEY_SIZE, key);
		json_object_object_add(item, "name", json_object_new_string(s->name));
		json_object_object_add(item, "url", json_object_new_string(s->url));
		json_object_object_add(item, "key", json_object_new_string(key));
		json_object *apps = json_object_new_array();
		for (size_t j = 0; j < s->app_count; j++) {
			json_object_array_add(apps, json_object_new_string(s->apps[j]));
		}
		json_object_object_add(item, "apps", apps);
		json_object_object_add(item, "serial", json_object_new_int64((int64_t)s->serial));
		json_object_array_add(list, item);
	}
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
	bool ok = cordon_write_atomic(stores->path, text, strlen(text), 0600, error);
	json_object_put(root);
	return ok;
}
