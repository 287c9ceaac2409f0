/*
 * The tag as the policy amends it, in one place for both of its users: client.c marks a
 * client's tag at connect, and apps.c finds the unit that is the app by comparing the tags
 * of the client's cgroup path prefixes with the client's. Both must see the same marks:
 * comparing a marked client tag (sandboxed) with unmarked prefix tags (host) matched no
 * prefix, so a marked systemd app was grouped by whatever leaf sub-cgroup its first client
 * ran in, and freezing took only that part of it.
 */
#include "compositor/tag_policy.h"

#include <stdlib.h>
#include <string.h>

#include "common/policy.h"

const char *cordon_tag_policy_mark(const struct cordon_policy *policy, struct cordon_tag *tag) {
	if (!policy || tag->engine != CORDON_SANDBOX_SYSTEMD_APP) {
		return NULL;
	}
	const char *why = NULL;
	if (cordon_policy_get_bool(policy, tag->app_id, NULL, "sandboxed", false)) {
		why = "the app";
	} else if (tag->launcher[0] &&
		cordon_policy_list_contains(
			policy, tag->app_id, NULL, "sandboxed-launchers", tag->launcher)) {
		why = "its launcher";
	}
	if (why) {
		tag->sandboxed = true;
	}
	return why;
}

char *cordon_tag_policy_app_cgroup(
	const struct cordon_policy *policy, const char *path, const struct cordon_tag *tag) {
	if (tag->engine == CORDON_SANDBOX_HOST || cordon_tag_is_unknown(tag)) {
		return strdup(path);
	}
	size_t len = strlen(path);
	for (size_t end = 1; end <= len; end++) {
		if (end < len && path[end] != '/') {
			continue;
		}
		char *prefix = strndup(path, end);
		if (!prefix) {
			return NULL;
		}
		struct cordon_tag prefix_tag;
		if (cordon_tag_from_cgroup_path(prefix, &prefix_tag)) {
			cordon_tag_policy_mark(policy, &prefix_tag);
			if (cordon_tag_same_sandbox(&prefix_tag, tag)) {
				return prefix;
			}
		}
		free(prefix);
	}
	return strdup(path);
}
