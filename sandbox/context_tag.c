/*
 * Tags from security-context metadata. The launcher is trusted (only an unsandboxed client can
 * make a listener), but its strings still end up in logs and in cordonctl's JSON, so they are
 * held to printable ASCII and to the sizes of struct cordon_tag instead of being truncated.
 */
#include "sandbox/context_tag.h"

#include <stdio.h>
#include <string.h>

#include "common/app_id.h"

static const struct {
	const char *name;
	enum cordon_sandbox_engine engine;
} known_engines[] = {
	{"cordon", CORDON_SANDBOX_CORDON},
	{"org.flatpak", CORDON_SANDBOX_FLATPAK},
	{"io.snapcraft", CORDON_SANDBOX_SNAP},
};

static size_t field_size(enum cordon_context_field field) {
	/* The sizes of struct cordon_tag's buffers, NUL included. */
	switch (field) {
	case CORDON_CONTEXT_ENGINE:
		return CORDON_TAG_ENGINE_MAX;
	case CORDON_CONTEXT_APP_ID:
		return CORDON_TAG_APP_ID_MAX;
	case CORDON_CONTEXT_INSTANCE:
		return CORDON_TAG_INSTANCE_MAX;
	}
	return 0;
}

size_t cordon_context_value_max(enum cordon_context_field field) {
	return field_size(field) - 1;
}

bool cordon_context_value_valid(enum cordon_context_field field, const char *value) {
	size_t len = strlen(value);
	if (len == 0 || len >= field_size(field)) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)value[i];
		if (c < 0x21 || c > 0x7e) {
			return false;
		}
	}
	/*
	 * An app id is one vocabulary whichever way a tag was made: policy sections, the
	 * permission store and cordon-run all take ids of common/app_id.c's rule, so an id
	 * outside it ("../x", "org.example.") would be an app nothing could be granted to.
	 */
	return field != CORDON_CONTEXT_APP_ID || cordon_app_id_valid(value);
}

void cordon_tag_from_context(
	const char *engine, const char *app_id, const char *instance, struct cordon_tag *tag) {
	memset(tag, 0, sizeof(*tag));
	/* Whatever the launcher said (or left out), its clients are in a sandbox. */
	tag->sandboxed = true;
	tag->engine = CORDON_SANDBOX_OTHER;
	if (engine) {
		snprintf(tag->engine_name, sizeof(tag->engine_name), "%s", engine);
		for (size_t i = 0; i < sizeof(known_engines) / sizeof(known_engines[0]); i++) {
			if (strcmp(engine, known_engines[i].name) == 0) {
				tag->engine = known_engines[i].engine;
				tag->engine_name[0] = '\0';
				break;
			}
		}
	}
	if (app_id) {
		snprintf(tag->app_id, sizeof(tag->app_id), "%s", app_id);
	}
	if (instance) {
		snprintf(tag->instance, sizeof(tag->instance), "%s", instance);
	}
}
