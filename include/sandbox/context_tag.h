/* Sandbox tags from the metadata a launcher attached to a security-context listener. */
#ifndef CORDON_SANDBOX_CONTEXT_TAG_H
#define CORDON_SANDBOX_CONTEXT_TAG_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox/cgroup_tag.h"

enum cordon_context_field {
	CORDON_CONTEXT_ENGINE,
	CORDON_CONTEXT_APP_ID,
	CORDON_CONTEXT_INSTANCE,
};

/*
 * Whether a metadata string may be attached: not empty, printable ASCII without spaces, and
 * short enough for its field of struct cordon_tag; an app id also of common/app_id.c's rule
 * (the protocol's invalid_metadata otherwise).
 */
bool cordon_context_value_valid(enum cordon_context_field field, const char *value);
/* The longest value cordon_context_value_valid accepts for the field. */
size_t cordon_context_value_max(enum cordon_context_field field);

/*
 * The tag of the clients of a listener, from values cordon_context_value_valid accepted; NULL
 * for a value the launcher did not set. Always sandboxed: "cordon", "org.flatpak" and
 * "io.snapcraft" are the engines cordon knows, any other engine is kept by its name.
 */
void cordon_tag_from_context(
	const char *engine, const char *app_id, const char *instance, struct cordon_tag *tag);

#endif
