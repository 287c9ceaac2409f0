/*
 * The tag vocabulary on its own: the one comparison (cordon_tag_same_sandbox) with the one
 * encoding of an unknown sandbox, and the grouping of a client into its app's cgroup with
 * the policy's marks (tag_policy.c): a systemd app that the policy marks as sandboxed is
 * its unit, whatever sub-cgroup its client runs in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy.h"
#include "compositor/tag_policy.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static struct cordon_tag tag_of(enum cordon_sandbox_engine engine, const char *engine_name,
	const char *app_id, const char *instance, bool sandboxed) {
	struct cordon_tag tag = {.engine = engine, .sandboxed = sandboxed};
	snprintf(tag.engine_name, sizeof(tag.engine_name), "%s", engine_name);
	snprintf(tag.app_id, sizeof(tag.app_id), "%s", app_id);
	snprintf(tag.instance, sizeof(tag.instance), "%s", instance);
	return tag;
}

static void test_comparison(void) {
	struct cordon_tag host = tag_of(CORDON_SANDBOX_HOST, "", "", "", false);
	struct cordon_tag flatpak = tag_of(CORDON_SANDBOX_FLATPAK, "", "org.a", "1", true);
	struct cordon_tag flatpak2 = tag_of(CORDON_SANDBOX_FLATPAK, "", "org.a", "2", true);
	struct cordon_tag snap = tag_of(CORDON_SANDBOX_SNAP, "", "org.a", "1", true);
	struct cordon_tag jail_one =
		tag_of(CORDON_SANDBOX_OTHER, "org.jail.one", "org.a", "1", true);
	struct cordon_tag jail_two =
		tag_of(CORDON_SANDBOX_OTHER, "org.jail.two", "org.a", "1", true);
	struct cordon_tag jail_one_again = jail_one;
	struct cordon_tag app = tag_of(CORDON_SANDBOX_SYSTEMD_APP, "", "org.a", "", false);
	struct cordon_tag marked = app;
	marked.sandboxed = true;
	CHECK(cordon_tag_same_sandbox(&host, &host));
	CHECK(cordon_tag_same_sandbox(&flatpak, &flatpak));
	CHECK(!cordon_tag_same_sandbox(&flatpak, &flatpak2));
	CHECK(!cordon_tag_same_sandbox(&flatpak, &snap));
	/* Two engines cordon knows only by name are two sandboxes, whatever the app id. */
	CHECK(!cordon_tag_same_sandbox(&jail_one, &jail_two));
	CHECK(cordon_tag_same_sandbox(&jail_one, &jail_one_again));
	CHECK(!cordon_tag_same_sandbox(&app, &marked));

	/* One encoding of unknown, the same as nothing, not even itself. */
	const struct cordon_tag *unknown = &cordon_tag_unknown;
	CHECK(cordon_tag_is_unknown(unknown));
	CHECK(unknown->sandboxed && unknown->app_id[0] == '\0');
	CHECK(!cordon_tag_same_sandbox(unknown, unknown));
	CHECK(!cordon_tag_same_sandbox(unknown, &host));
	CHECK(!cordon_tag_same_sandbox(&host, unknown));
	CHECK(strcmp(cordon_tag_engine_name(unknown), "unknown") == 0);
	/* A tag nobody set (zeroed) is unknown, never the host; so is a NULL pointer. */
	struct cordon_tag zeroed;
	memset(&zeroed, 0, sizeof(zeroed));
	CHECK(cordon_tag_is_unknown(&zeroed));
	CHECK(!cordon_tag_same_sandbox(&zeroed, &zeroed));
	CHECK(cordon_tag_is_unknown(NULL));
	CHECK(!cordon_tag_same_sandbox(NULL, &host));
	/* A path that does not parse gives the unknown tag. */
	struct cordon_tag parsed;
	CHECK(!cordon_tag_from_cgroup_path("/app-flatpak-.scope/x", &parsed));
	CHECK(cordon_tag_is_unknown(&parsed) && parsed.sandboxed);
	CHECK(!cordon_tag_from_cgroup_path("relative", &parsed) && cordon_tag_is_unknown(&parsed));
	CHECK(cordon_tag_from_cgroup_path("/user.slice", &parsed) &&
		!cordon_tag_is_unknown(&parsed));
}

#define APPS "/user.slice/user-1000.slice/user@1000.service/app.slice"

/* The client's tag as client.c makes it, then its app's cgroup as apps.c gets it. */
static char *group(const struct cordon_policy *policy, const char *path, bool *sandboxed) {
	struct cordon_tag tag;
	if (!cordon_tag_from_cgroup_path(path, &tag)) {
		tag = cordon_tag_unknown;
	}
	cordon_tag_policy_mark(policy, &tag);
	*sandboxed = tag.sandboxed;
	return cordon_tag_policy_app_cgroup(policy, path, &tag);
}

static void expect_group(const struct cordon_policy *policy, const char *path, const char *want,
	bool want_sandboxed) {
	bool sandboxed;
	char *got = group(policy, path, &sandboxed);
	if (!got || strcmp(got, want) != 0 || sandboxed != want_sandboxed) {
		fprintf(stderr,
			"%s:\n  grouped as %s (sandboxed %d)\n  want       %s (sandboxed %d)\n",
			path, got ? got : "(null)", sandboxed, want, want_sandboxed);
		failures++;
	}
	free(got);
}

static void test_grouping(void) {
	char *error = NULL;
	struct cordon_policy *policy =
		cordon_policy_load_string("[profile default]\nsandboxed-launchers = myjail\n\n"
					  "[app org.example.Marked]\nsandboxed = true\n",
			"test", &error);
	if (!policy) {
		fprintf(stderr, "policy: %s\n", error ? error : "?");
		failures++;
		return;
	}
	const struct {
		const char *path, *app;
		bool sandboxed;
	} cases[] = {
		/* Marked by app id, its client in a sub-cgroup of the unit: the unit is the app. */
		{APPS "/app-gnome-org.example.Marked-7.scope/sub/leaf",
			APPS "/app-gnome-org.example.Marked-7.scope", true},
		{APPS "/app-gnome-org.example.Marked-7.scope",
			APPS "/app-gnome-org.example.Marked-7.scope", true},
		{APPS "/app-org.example.Marked@1a2b.service/worker",
			APPS "/app-org.example.Marked@1a2b.service", true},
		/* Marked by its launcher. */
		{APPS "/app-myjail-org.example.Jailed-8.scope/a/b",
			APPS "/app-myjail-org.example.Jailed-8.scope", true},
		/* Not marked: a host app, still its unit. */
		{APPS "/app-gnome-org.example.Plain-9.scope/sub",
			APPS "/app-gnome-org.example.Plain-9.scope", false},
		/* A sandbox engine's scope, whatever the app made below it. */
		{APPS "/app-flatpak-org.example.F-3.scope/app-gnome-org.example.Marked-7.scope",
			APPS "/app-flatpak-org.example.F-3.scope", true},
		/* The host without an app unit: its own cgroup. */
		{"/user.slice/user-1000.slice/session-2.scope",
			"/user.slice/user-1000.slice/session-2.scope", false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expect_group(policy, cases[i].path, cases[i].app, cases[i].sandboxed);
	}
	/* The mark never makes anything less sandboxed, nor touches a non-systemd-app tag. */
	struct cordon_tag flatpak = cordon_tag_unknown;
	CHECK(cordon_tag_from_cgroup_path(
		APPS "/app-flatpak-org.example.Marked-1.scope", &flatpak));
	CHECK(cordon_tag_policy_mark(policy, &flatpak) == NULL && flatpak.sandboxed);
	struct cordon_tag unknown = cordon_tag_unknown;
	CHECK(cordon_tag_policy_mark(policy, &unknown) == NULL && cordon_tag_is_unknown(&unknown));
	cordon_policy_destroy(policy);
}

int main(void) {
	test_comparison();
	test_grouping();
	if (failures) {
		fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	printf("tag comparison and grouping: all checks passed\n");
	return 0;
}
