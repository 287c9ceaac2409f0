/*
 * The portal permission store's file (portals/permission_store.c), read as a store is loaded.
 * Oracle, for a file that parses: every app id and portal is a name the store can hold,
 * folders are absolute and at most CORDON_PERMISSION_MAX_FOLDERS per entry, lookups agree
 * with the listing, and what a save would write parses back to the same text (a save never
 * changes or loses what it did not touch).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "portals/permission_store.h"

static void check_entry(void *data, const char *app_id, const char *portal,
	enum cordon_permission permission, const char *const *folders, size_t folder_count) {
	struct cordon_permission_store *store = data;
	fuzz_require(cordon_permission_valid_name(app_id) && cordon_permission_valid_name(portal),
		"entries have names the store can hold");
	fuzz_require(folder_count <= CORDON_PERMISSION_MAX_FOLDERS, "folders are capped");
	for (size_t i = 0; i < folder_count; i++) {
		fuzz_require(folders[i][0] == '/' && !strpbrk(folders[i], "\r\n"),
			"a folder is absolute and on one line");
	}
	fuzz_require(permission == CORDON_PERMISSION_ASK || permission == CORDON_PERMISSION_ALLOW ||
			permission == CORDON_PERMISSION_DENY,
		"a permission is ask, allow or deny");
	fuzz_require(cordon_permission_store_get(store, app_id, portal) == permission,
		"a lookup finds the listed permission");
}

static char *save_text(struct cordon_permission_store *store) {
	char *text = cordon_permission_store_serialize(store);
	fuzz_require(text != NULL, "the store serializes");
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	FILE *file = fuzz_stream(data, size);
	char *error = NULL;
	struct cordon_permission_store *store =
		cordon_permission_store_parse(file, "permissions", &error);
	fclose(file);
	if (!store) {
		fuzz_require(error != NULL && strncmp(error, "permissions", 11) == 0,
			"a refusal names the file");
		free(error);
		return 0;
	}
	cordon_permission_store_for_each(store, check_entry, store);
	char *text = save_text(store);
	FILE *saved = fmemopen(text, strlen(text), "r");
	fuzz_require(saved != NULL, "fmemopen");
	struct cordon_permission_store *again =
		cordon_permission_store_parse(saved, "saved", &error);
	fclose(saved);
	if (!again) {
		fprintf(stderr, "%s\n--- saved text:\n%s", error, text);
	}
	fuzz_require(again != NULL, "what a save writes parses");
	char *text_again = save_text(again);
	fuzz_require(strcmp(text, text_again) == 0, "a saved store reads back the same");
	free(text);
	free(text_again);
	cordon_permission_store_destroy(again);
	cordon_permission_store_destroy(store);
	return 0;
}
