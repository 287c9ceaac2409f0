/* The tag as policy.ini amends it (systemd app units marked as sandboxes), and an app's cgroup. */
#ifndef CORDON_COMPOSITOR_TAG_POLICY_H
#define CORDON_COMPOSITOR_TAG_POLICY_H

#include <stdbool.h>

#include "sandbox/cgroup_tag.h"

struct cordon_policy;

/*
 * A systemd app unit is a host app unless the policy marks the app (`sandboxed = true`), or
 * the launcher that started it (`sandboxed-launchers`), as a sandbox. Applies the mark to a
 * tag the cgroup parser made; never makes a tag less sandboxed. Returns what marked it ("the
 * app", "its launcher"), or NULL when nothing did. policy may be NULL.
 */
const char *cordon_tag_policy_mark(const struct cordon_policy *policy, struct cordon_tag *tag);

/*
 * The cgroup that is the app of a client in path with this tag (the marked tag it was given):
 * the shortest prefix of path (at a '/') whose tag, marked by the same policy, is the same
 * sandbox, which is the unit that named the app; anything below it (the app's own
 * sub-cgroups) belongs to the app too. A host client without an app unit, or an unknown one,
 * is its own cgroup. NULL when out of memory.
 */
char *cordon_tag_policy_app_cgroup(
	const struct cordon_policy *policy, const char *path, const struct cordon_tag *tag);

#endif
