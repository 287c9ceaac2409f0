/*
 * The user's store list, stores.json (apps/store.c): written by cordon-app, but a file in
 * the user's data folder that an editor or another tool may have left in any shape. The
 * input is parsed as json_object_from_file parses a file, then read by cordon's own code.
 * Oracle: a loaded store has a name "store add" takes, a URL and at most
 * CORDON_STORE_APPS_MAX app patterns, each an app id or a prefix; a refusal says why; nothing
 * leaks either way.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "apps/store.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size > 1 << 20) {
		return 0;
	}
	struct json_tokener *tokener = json_tokener_new();
	fuzz_require(tokener != NULL, "memory");
	json_object *root = json_tokener_parse_ex(tokener, (const char *)data, (int)size);
	if (json_tokener_get_error(tokener) != json_tokener_success) {
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tokener);

	struct cordon_stores stores = {0};
	stores.path = strdup("stores.json");
	fuzz_require(stores.path != NULL, "memory");
	char *error = NULL;
	if (cordon_stores_from_json(&stores, root, &error)) {
		for (size_t i = 0; i < stores.count; i++) {
			const struct cordon_store *s = &stores.items[i];
			fuzz_require(
				s->name != NULL && s->url != NULL, "a store has a name and a URL");
			fuzz_require(
				s->app_count <= CORDON_STORE_APPS_MAX, "app patterns are capped");
			fuzz_require(cordon_store_name_problem(s->name) == NULL,
				"a store's name is one \"store add\" takes");
			for (size_t j = 0; j < s->app_count; j++) {
				fuzz_require(s->apps[j] != NULL &&
						cordon_store_pattern_problem(s->apps[j]) == NULL,
					"an app pattern is an app id or a prefix of one");
			}
			fuzz_require(
				cordon_stores_find(&stores, s->name) != NULL, "a store is found");
		}
	} else {
		fuzz_require(error != NULL, "a refusal says why");
	}
	free(error);
	json_object_put(root);
	cordon_stores_finish(&stores);
	return 0;
}
