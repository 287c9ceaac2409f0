/*
 * cgroup path to tag (sandbox/cgroup_tag.c): the path comes from /proc/PID/cgroup, and a
 * sandboxed app can name cgroups below its own scope. Oracle: a refused path is an unknown
 * sandbox; every app id passes common/app_id.c; a tag is only unsandboxed when no component
 * of the path is a sandbox's unit (checked here by a rule of its own); what lies below a
 * sandbox's unit never changes whose sandbox it is; tag text holds no control bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "common/app_id.h"
#include "fuzz.h"
#include "sandbox/cgroup_tag.h"

static bool ends_with(const char *s, size_t len, const char *suffix) {
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Whether a unit's name (without its suffix) begins with prefix and has more after it. */
static bool unit_of(const char *s, size_t len, const char *prefix) {
	size_t n = strlen(prefix);
	return len > n && memcmp(s, prefix, n) == 0;
}

/* Whether a component looks like a unit of a sandbox engine (docs/sandbox-identity.md). */
static bool names_sandbox_unit(const char *path) {
	for (const char *p = path; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		bool scope = ends_with(p, len, ".scope"), service = ends_with(p, len, ".service");
		size_t stem = len - (scope ? 6 : service ? 8 : 0);
		bool sandbox_scope = scope &&
			(unit_of(p, stem, "app-cordon-") || unit_of(p, stem, "app-flatpak-"));
		if (sandbox_scope || ((scope || service) && unit_of(p, stem, "snap."))) {
			return true;
		}
		p += len + (slash ? 1 : 0);
	}
	return false;
}

static bool printable_word(const char *s) {
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c <= 0x20 || *c >= 0x7f) {
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *path = fuzz_string(data, size);
	struct cordon_tag tag;
	bool ok = cordon_tag_from_cgroup_path(path, &tag);
	if (!ok) {
		fuzz_require(cordon_tag_is_unknown(&tag) && tag.sandboxed,
			"a refused path is an unknown sandbox");
	}
	fuzz_require(tag.app_id[0] == '\0' || cordon_app_id_valid(tag.app_id),
		"a tag's app id passes common/app_id.c");
	fuzz_require(printable_word(tag.app_id) && printable_word(tag.instance) &&
			printable_word(tag.launcher),
		"tag text is printable ASCII without spaces");
	if (!tag.sandboxed) {
		fuzz_require(tag.engine == CORDON_SANDBOX_HOST ||
				tag.engine == CORDON_SANDBOX_SYSTEMD_APP,
			"only host tags are unsandboxed");
		fuzz_require(!names_sandbox_unit(path),
			"a path through a sandbox's unit is never a host tag");
	} else {
		fuzz_require(tag.engine != CORDON_SANDBOX_HOST &&
				tag.engine != CORDON_SANDBOX_SYSTEMD_APP,
			"a sandboxed tag names a sandbox engine");
	}
	if (tag.sandboxed && !cordon_tag_is_unknown(&tag)) {
		/* An app may make cgroups below its scope: that must not change who it is. */
		static const char child[] = "/app-gnome-org.example.Host-1.scope";
		size_t len = strlen(path);
		char *below = malloc(len + sizeof(child));
		fuzz_require(below != NULL, "memory");
		memcpy(below, path, len);
		memcpy(below + len, child, sizeof(child));
		struct cordon_tag inner;
		cordon_tag_from_cgroup_path(below, &inner);
		fuzz_require(cordon_tag_same_sandbox(&tag, &inner),
			"a cgroup below a sandbox's unit is the same sandbox");
		free(below);
	}
	fuzz_require(!fuzz_has_control(cordon_tag_engine_name(&tag)), "engine names are plain");
	free(path);
	return 0;
}
