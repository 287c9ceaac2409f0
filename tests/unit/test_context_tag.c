/* Unit tests for security-context metadata: which strings are accepted, and the tags they give. */
#include <stdio.h>
#include <string.h>

#include "sandbox/context_tag.h"

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)

static void check(bool ok, const char *what, const char *file, int line) {
	if (!ok) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
		failures++;
	}
}

static void test_values(void) {
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_ENGINE, "org.flatpak"));
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "org.example.App-2_x"));
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, "1234567890"));
	/* Empty is the protocol's own invalid_metadata. */
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_ENGINE, ""));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, ""));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, ""));
	/* Strings that would corrupt a log line or a terminal showing cordonctl's output. */
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "org.example\nforged line"));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "a b"));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "\x1b[2Jx"));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "caf\xc3\xa9"));
	/* The one app id rule, as for every tag (found by fuzz-context-tag). */
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "../x"));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, "org.example."));
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, "../x"));
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_ENGINE, "\x7f"));
	/* Too long for the tag: refused, never truncated into another app's id. */
	char long_value[CORDON_TAG_APP_ID_MAX + 1];
	memset(long_value, 'a', sizeof(long_value) - 1);
	long_value[CORDON_TAG_APP_ID_MAX] = '\0';
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_APP_ID, long_value));
	long_value[CORDON_TAG_APP_ID_MAX - 1] = '\0';
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_APP_ID, long_value));
	long_value[CORDON_TAG_INSTANCE_MAX] = '\0';
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, long_value));
	long_value[CORDON_TAG_INSTANCE_MAX - 1] = '\0';
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_INSTANCE, long_value));
	long_value[CORDON_TAG_ENGINE_MAX] = '\0';
	CHECK(!cordon_context_value_valid(CORDON_CONTEXT_ENGINE, long_value));
	long_value[CORDON_TAG_ENGINE_MAX - 1] = '\0';
	CHECK(cordon_context_value_valid(CORDON_CONTEXT_ENGINE, long_value));
}

static void test_engines(void) {
	static const struct {
		const char *engine;
		enum cordon_sandbox_engine want;
		const char *want_name;
	} rows[] = {
		{"cordon", CORDON_SANDBOX_CORDON, "cordon"},
		{"org.flatpak", CORDON_SANDBOX_FLATPAK, "flatpak"},
		{"io.snapcraft", CORDON_SANDBOX_SNAP, "snap"},
		{"org.example.jail", CORDON_SANDBOX_OTHER, "org.example.jail"},
		/* cordon's own words for its engines are not the launchers' reverse-DNS names. */
		{"flatpak", CORDON_SANDBOX_OTHER, "flatpak"},
		{"host", CORDON_SANDBOX_OTHER, "host"},
		{"org.flatpak.x", CORDON_SANDBOX_OTHER, "org.flatpak.x"},
		{NULL, CORDON_SANDBOX_OTHER, "unknown"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct cordon_tag tag;
		memset(&tag, 0x5a, sizeof(tag));
		cordon_tag_from_context(rows[i].engine, "org.example.App", "7", &tag);
		bool ok = tag.engine == rows[i].want && tag.sandboxed &&
			strcmp(cordon_tag_engine_name(&tag), rows[i].want_name) == 0 &&
			strcmp(tag.app_id, "org.example.App") == 0 &&
			strcmp(tag.instance, "7") == 0;
		if (!ok) {
			fprintf(stderr, "engine %s: got %s (%d), sandboxed %d\n",
				rows[i].engine ? rows[i].engine : "(unset)",
				cordon_tag_engine_name(&tag), (int)tag.engine, tag.sandboxed);
			failures++;
		}
	}
	/* Nothing set at all: still sandboxed, with empty ids. */
	struct cordon_tag tag;
	cordon_tag_from_context(NULL, NULL, NULL, &tag);
	CHECK(tag.sandboxed);
	CHECK(tag.app_id[0] == '\0' && tag.instance[0] == '\0');
	CHECK(strcmp(cordon_tag_engine_name(&tag), "unknown") == 0);
}

static void test_same_sandbox(void) {
	struct cordon_tag a, b;
	cordon_tag_from_context("org.example.jail", "org.example.App", "1", &a);
	cordon_tag_from_context("org.example.other", "org.example.App", "1", &b);
	/* Two engines cordon knows only by name are two sandboxes. */
	CHECK(!cordon_tag_same_sandbox(&a, &b));
	cordon_tag_from_context("org.example.jail", "org.example.App", "1", &b);
	CHECK(cordon_tag_same_sandbox(&a, &b));
	cordon_tag_from_context("org.example.jail", "org.example.App", "2", &b);
	CHECK(!cordon_tag_same_sandbox(&a, &b));
	/* The listener's cordon tag and the cgroup's cordon tag of one app are one sandbox. */
	struct cordon_tag scope;
	cordon_tag_from_cgroup_path("/app-cordon-org.example.App-1.scope", &scope);
	cordon_tag_from_context("cordon", "org.example.App", "1", &b);
	CHECK(cordon_tag_same_sandbox(&scope, &b));
}

int main(void) {
	test_values();
	test_same_sandbox();
	test_engines();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
