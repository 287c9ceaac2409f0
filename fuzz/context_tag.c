/*
 * Security-context metadata (sandbox/context_tag.c): the sandbox engine, app id and instance
 * a launcher attaches to a wp_security_context_v1 listener. Input: the three values separated
 * by NUL bytes. Oracle: a value cordon accepts fits its field whole (never truncated) and is
 * printable; a tag from them is always sandboxed, never the host, and its app id passes the
 * one app id rule (common/app_id.c), like every other tag's.
 */
#include <stdlib.h>
#include <string.h>

#include "common/app_id.h"
#include "fuzz.h"
#include "sandbox/context_tag.h"

static const char *next_value(const uint8_t **data, size_t *size, char **owned) {
	if (*size == 0) {
		*owned = NULL;
		return NULL;
	}
	const uint8_t *nul = memchr(*data, '\0', *size);
	size_t len = nul ? (size_t)(nul - *data) : *size;
	*owned = fuzz_string(*data, len);
	*data += len + (nul ? 1 : 0);
	*size -= len + (nul ? 1 : 0);
	return *owned;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static const enum cordon_context_field fields[] = {
		CORDON_CONTEXT_ENGINE,
		CORDON_CONTEXT_APP_ID,
		CORDON_CONTEXT_INSTANCE,
	};
	char *owned[3];
	const char *accepted[3];
	for (size_t i = 0; i < 3; i++) {
		const char *value = next_value(&data, &size, &owned[i]);
		accepted[i] = value && cordon_context_value_valid(fields[i], value) ? value : NULL;
		if (accepted[i]) {
			fuzz_require(strlen(value) <= cordon_context_value_max(fields[i]),
				"an accepted value fits its field");
			fuzz_require(!fuzz_has_control(value) && !strchr(value, ' '),
				"an accepted value is printable without spaces");
		}
	}
	struct cordon_tag tag;
	cordon_tag_from_context(accepted[0], accepted[1], accepted[2], &tag);
	fuzz_require(tag.sandboxed, "a security context's clients are sandboxed");
	fuzz_require(tag.engine != CORDON_SANDBOX_HOST &&
			tag.engine != CORDON_SANDBOX_SYSTEMD_APP && !cordon_tag_is_unknown(&tag),
		"a security context's tag names a sandbox engine");
	fuzz_require(
		!accepted[1] || strcmp(tag.app_id, accepted[1]) == 0, "the app id is kept whole");
	fuzz_require(!accepted[2] || strcmp(tag.instance, accepted[2]) == 0,
		"the instance is kept whole");
	fuzz_require(tag.app_id[0] == '\0' || cordon_app_id_valid(tag.app_id),
		"a tag's app id passes common/app_id.c");
	fuzz_require(!fuzz_has_control(cordon_tag_engine_name(&tag)), "engine names are plain");
	for (size_t i = 0; i < 3; i++) {
		free(owned[i]);
	}
	return 0;
}
