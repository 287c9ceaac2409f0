/*
 * A store's index (apps/store_index.c). The signature is checked before a byte is parsed, so
 * this target signs each input with a key made for the run and pins that key in a store that
 * may serve org.example.* and org.fuzz.App, at serial 5. Input: one byte (odd: allow an
 * older serial), then the index's JSON. Oracle: the index is refused when one byte of it
 * differs from what was signed; a loaded index is not older than the store's serial (unless
 * allowed), and every entry is an app the store may serve, with a valid version, a plain file
 * name and a size; a lookup finds an entry's highest version.
 */
#include <stdlib.h>
#include <string.h>

#include "apps/manifest.h"
#include "apps/signature.h"
#include "apps/store.h"
#include "common/app_id.h"
#include "fuzz.h"

static unsigned char seed[CORDON_KEY_SIZE];
static struct cordon_store store;

static void make_store(void) {
	static char *apps[] = {"org.example.*", "org.fuzz.App"};
	if (store.name) {
		return;
	}
	fuzz_require(cordon_key_generate(seed, store.key), "a key for the run");
	store.name = "fuzz";
	store.url = "https://store.invalid/";
	store.apps[0] = apps[0];
	store.apps[1] = apps[1];
	store.app_count = 2;
	store.serial = 5;
}

static void sign(const char *text, size_t len, char hex[CORDON_SIG_HEX_LEN + 1]) {
	size_t prefix = strlen(CORDON_INDEX_SIGNED_PREFIX);
	char *message = malloc(prefix + len + 1);
	fuzz_require(message != NULL, "memory");
	memcpy(message, CORDON_INDEX_SIGNED_PREFIX, prefix);
	memcpy(message + prefix, text, len);
	unsigned char sig[CORDON_SIG_SIZE];
	fuzz_require(cordon_signature_sign(seed, message, prefix + len, sig), "signing");
	cordon_hex_encode(sig, sizeof(sig), hex);
	free(message);
}

static void check_index(const struct cordon_index *index, bool allow_older) {
	fuzz_require(allow_older || index->serial >= store.serial, "no replayed older index");
	fuzz_require(index->count <= CORDON_INDEX_ENTRIES_MAX, "entries are capped");
	for (size_t i = 0; i < index->count; i++) {
		const struct cordon_index_entry *e = &index->entries[i];
		fuzz_require(cordon_app_id_valid(e->id) && cordon_store_may_serve(&store, e->id),
			"an entry is an app the store may serve");
		fuzz_require(cordon_version_valid(e->version), "an entry's version is valid");
		fuzz_require(e->file[0] && e->file[0] != '.' && !strchr(e->file, '/'),
			"an entry's file is a plain name beside the index");
		fuzz_require(e->size > 0, "an entry has a size");
		const struct cordon_index_entry *best = cordon_index_find(index, e->id);
		fuzz_require(best && cordon_version_compare(best->version, e->version) >= 0,
			"a lookup finds the highest version");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size == 0) {
		return 0;
	}
	make_store();
	bool allow_older = data[0] & 1;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	char hex[CORDON_SIG_HEX_LEN + 1];
	sign(text, len, hex);

	struct cordon_index index;
	char *error = NULL;
	if (cordon_index_load(&store, text, len, hex, allow_older, &index, &error)) {
		check_index(&index, allow_older);
		cordon_index_finish(&index);
	} else {
		fuzz_require(error != NULL, "a refusal says why");
		free(error);
		error = NULL;
	}
	if (len > 0) {
		/* The signature covers every byte: one changed byte and nothing is parsed. */
		char *tampered = malloc(len);
		fuzz_require(tampered != NULL, "memory");
		memcpy(tampered, text, len);
		tampered[len / 2] ^= 1;
		fuzz_require(
			!cordon_index_load(&store, tampered, len, hex, allow_older, &index, &error),
			"a changed index is refused");
		free(error);
		free(tampered);
	}
	return 0;
}
