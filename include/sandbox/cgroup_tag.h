/* The sandbox tag of a client, derived from its cgroup v2 path (docs/sandbox-identity.md). */
#ifndef CORDON_SANDBOX_CGROUP_TAG_H
#define CORDON_SANDBOX_CGROUP_TAG_H

#include <stdbool.h>

enum cordon_sandbox_engine {
	/*
	 * A client that could not be identified, or whose cgroup does not parse: the one
	 * encoding of "unknown" (cordon_tag_unknown). Zero, so that a tag nobody set is an
	 * unknown sandbox, never the host.
	 */
	CORDON_SANDBOX_UNKNOWN,
	CORDON_SANDBOX_HOST,
	CORDON_SANDBOX_CORDON,
	CORDON_SANDBOX_FLATPAK,
	CORDON_SANDBOX_SNAP,
	CORDON_SANDBOX_SYSTEMD_APP,
	/* A sandbox engine cordon has no name for (security contexts): see engine_name. */
	CORDON_SANDBOX_OTHER,
};

#define CORDON_TAG_APP_ID_MAX 256
#define CORDON_TAG_INSTANCE_MAX 128
#define CORDON_TAG_ENGINE_MAX 64
/* A unit name component is at most 255 bytes, so a launcher name always fits. */
#define CORDON_TAG_LAUNCHER_MAX 256

struct cordon_tag {
	enum cordon_sandbox_engine engine;
	char app_id[CORDON_TAG_APP_ID_MAX];
	char instance[CORDON_TAG_INSTANCE_MAX];
	bool sandboxed;
	/* With CORDON_SANDBOX_OTHER: the engine's own name; empty when it gave none. */
	char engine_name[CORDON_TAG_ENGINE_MAX];
	/* With CORDON_SANDBOX_SYSTEMD_APP: the launcher part of the unit name; may be empty. */
	char launcher[CORDON_TAG_LAUNCHER_MAX];
};

/*
 * The one vocabulary for "who is this": every tag is a value, and an unknown sandbox is
 * the value cordon_tag_unknown (engine CORDON_SANDBOX_UNKNOWN, sandboxed, no app id), never
 * a NULL pointer, a flag beside a tag, or a host tag standing in. It is sandboxed for every
 * rule, and the same sandbox as nothing, not even another unknown one.
 */
extern const struct cordon_tag cordon_tag_unknown;
/* Whether the tag is an unknown sandbox (a NULL pointer counts as one: fail closed). */
bool cordon_tag_is_unknown(const struct cordon_tag *tag);

/*
 * Derives the tag from a cgroup v2 path (the text after "0::" in /proc/PID/cgroup, without the
 * newline). The outermost sandboxed unit (cordon, flatpak, snap) wins; otherwise the innermost
 * systemd app unit gives a host app id; otherwise the tag is the host.
 *
 * Returns false if the path is malformed before any sandboxed unit; the tag is then
 * cordon_tag_unknown.
 */
bool cordon_tag_from_cgroup_path(const char *path, struct cordon_tag *tag);

/*
 * A stable name for logs and IPC: "unknown", "host", "cordon", "flatpak", "snap",
 * "systemd-app", and "other" for CORDON_SANDBOX_OTHER.
 */
const char *cordon_sandbox_engine_name(enum cordon_sandbox_engine engine);

/*
 * Whether two tags name the same sandbox: engine (an other engine by its name), app id,
 * instance and sandboxed; an unknown sandbox is the same as nothing. The one comparison:
 * use it rather than comparing fields, so that two engines cordon only knows by name are
 * never taken for one, and an unknown tag never matches.
 */
bool cordon_tag_same_sandbox(const struct cordon_tag *a, const struct cordon_tag *b);

/* The engine's name for a tag: as above, but an other engine by its own name ("unknown" if none).
 */
const char *cordon_tag_engine_name(const struct cordon_tag *tag);

#endif
