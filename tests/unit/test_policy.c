/* Unit tests for the per-app policy: profile lookups, overrides, and errors with their line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/policy.h"

static struct cordon_policy *load_ok(const char *text) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(text, "p.ini", &error);
	if (policy == NULL) {
		fprintf(stderr, "unexpected error: %s\n", error);
		free(error);
		exit(1);
	}
	return policy;
}

/* The error a text gives, or "(loaded)" when it loads. */
static void check_error(const char *text, const char *want, int line) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(text, "p.ini", &error);
	check_str(policy == NULL ? error : "(loaded)", want, __FILE__, line);
	cordon_policy_destroy(policy);
	free(error);
}

static void test_builtin_profiles(void) {
	struct cordon_policy *policy = load_ok("");
	const char *profiles[] = {"default", "network-client", "game", "devel"};
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		CHECK(cordon_policy_has_profile(policy, profiles[i]));
	}
	CHECK(!cordon_policy_has_profile(policy, "nonesuch"));
	CHECK(!cordon_policy_has_profile(policy, NULL));

	/* Without a section an app gets the default profile, which shares nothing. */
	CHECK_STR(cordon_policy_app_profile(policy, "org.example.App"), "default");
	CHECK_STR(cordon_policy_app_profile(policy, NULL), "default");
	CHECK_STR(cordon_policy_get(policy, "org.example.App", NULL, "share"), "");
	CHECK(!cordon_policy_list_contains(policy, "org.example.App", NULL, "share", "network"));

	/* An explicit profile (cordon-run --profile) wins over the app's own. */
	CHECK(cordon_policy_list_contains(policy, "org.example.App", "game", "share", "network"));
	CHECK(cordon_policy_list_contains(policy, "org.example.App", "game", "devices", "dri"));
	/* A key the profile leaves unset comes from the default profile. */
	CHECK_STR(cordon_policy_get(policy, NULL, "network-client", "devices"), "");
	cordon_policy_destroy(policy);
}

static void test_app_sections(void) {
	struct cordon_policy *policy = load_ok("# a comment\n"
					       "[profile builder]\n"
					       "share = network\n"
					       "allow = devel\n"
					       "[app org.example.Ide]\n"
					       "profile = builder\n"
					       "devices = dri, video\n"
					       "[app org.example.Game]\n"
					       "profile = game\n"
					       "share =\n");
	CHECK_STR(cordon_policy_app_profile(policy, "org.example.Ide"), "builder");
	CHECK(cordon_policy_list_contains(policy, "org.example.Ide", NULL, "allow", "devel"));
	CHECK(cordon_policy_list_contains(policy, "org.example.Ide", NULL, "devices", "video"));
	CHECK(cordon_policy_list_contains(policy, "org.example.Ide", NULL, "devices", "dri"));
	/* The app's own line beats its profile, even when it empties a list. */
	CHECK(!cordon_policy_list_contains(policy, "org.example.Game", NULL, "share", "network"));
	CHECK(cordon_policy_list_contains(policy, "org.example.Game", NULL, "devices", "dri"));
	/* Section names are exact: no prefix or case folding. */
	CHECK_STR(cordon_policy_app_profile(policy, "org.example"), "default");
	CHECK_STR(cordon_policy_app_profile(policy, "ORG.EXAMPLE.IDE"), "default");
	cordon_policy_destroy(policy);
}

static void test_changing_builtin_profile(void) {
	struct cordon_policy *policy = load_ok("[profile default]\nshare = network\n");
	CHECK(cordon_policy_list_contains(policy, "any.App", NULL, "share", "network"));
	/* Only the key the file set changed. */
	CHECK_STR(cordon_policy_get(policy, "any.App", NULL, "devices"), "");
	cordon_policy_destroy(policy);
}

static void test_word_lists(void) {
	CHECK(cordon_policy_word_in_list("a, b ,c", "b"));
	CHECK(cordon_policy_word_in_list("a, b ,c", "c"));
	CHECK(!cordon_policy_word_in_list("a, b ,c", "a, b"));
	CHECK(!cordon_policy_word_in_list("abc", "ab"));
	CHECK(!cordon_policy_word_in_list("", "a"));
	CHECK(!cordon_policy_word_in_list(NULL, "a"));
}

static void test_typed_values(void) {
	struct cordon_policy *policy = load_ok("[app a.b]\n"
					       "freeze = off\n"
					       "freeze-delay = 250ms\n"
					       "boost-weight = 200\n"
					       "clipboard-size-limit = 2M\n"
					       "[app c.d]\n"
					       "freeze-delay = 2min\n"
					       "clipboard-size-limit = 4096\n"
					       "[app e.f]\n"
					       "freeze-delay = 3\n"
					       "clipboard-size-limit = 1 GiB\n");
	CHECK(!cordon_policy_get_bool(policy, "a.b", NULL, "freeze", true));
	CHECK(cordon_policy_get_duration_ms(policy, "a.b", NULL, "freeze-delay", 0) == 250);
	CHECK(cordon_policy_get_uint(policy, "a.b", NULL, "boost-weight", 0) == 200);
	CHECK(cordon_policy_get_size(policy, "a.b", NULL, "clipboard-size-limit", 0) == 2u << 20);
	CHECK(cordon_policy_get_duration_ms(policy, "c.d", NULL, "freeze-delay", 0) == 120000);
	CHECK(cordon_policy_get_size(policy, "c.d", NULL, "clipboard-size-limit", 0) == 4096);
	/* A bare number of seconds; units with a space before them. */
	CHECK(cordon_policy_get_duration_ms(policy, "e.f", NULL, "freeze-delay", 0) == 3000);
	CHECK(cordon_policy_get_size(policy, "e.f", NULL, "clipboard-size-limit", 0) == 1u << 30);
	/* Unset: the caller's fallback. */
	CHECK(cordon_policy_get_bool(policy, "c.d", NULL, "freeze", true));
	CHECK(cordon_policy_get_uint(policy, "c.d", NULL, "boost-weight", 7) == 7);
	cordon_policy_destroy(policy);

	check_error("[app a.b]\nfreeze = maybe\n",
		"p.ini:2: 'freeze' must be true or false, not 'maybe'", __LINE__);
	check_error("[app a.b]\nfreeze-delay = 10h\n",
		"p.ini:2: 'freeze-delay' must be a duration such as 500ms, 10s or 2min, not '10h'",
		__LINE__);
	check_error("[app a.b]\nboost-weight = -1\n",
		"p.ini:2: 'boost-weight' must be a whole number, not '-1'", __LINE__);
	check_error("[app a.b]\nclipboard-size-limit = 99999999999999999999\n",
		"p.ini:2: 'clipboard-size-limit' must be a size such as 4096, 64K, 64M or 1G, not "
		"'99999999999999999999'",
		__LINE__);
	check_error("[app a.b]\nclipboard-size-limit = 17179869184G\n",
		"p.ini:2: 'clipboard-size-limit' must be a size such as 4096, 64K, 64M or 1G, not "
		"'17179869184G'",
		__LINE__);
}

static void test_errors(void) {
	check_error("[profile default]\nshare = network, bluetooth\n",
		"p.ini:2: 'bluetooth' is not a value of 'share'", __LINE__);
	check_error("[profile default]\nshare = network,,\n",
		"p.ini:2: 'share' needs a comma-separated list of words", __LINE__);
	check_error("[app a.b]\ncolour = red\n",
		"p.ini:2: unknown key 'colour' (docs/policy.md lists the keys)", __LINE__);
	check_error("[profile p]\nprofile = default\n",
		"p.ini:2: 'profile' belongs in an [app APP_ID] section", __LINE__);
	check_error("[app a.b]\nprofile = missing\n",
		"p.ini:2: [app a.b] uses the profile 'missing', which is not defined", __LINE__);
	check_error("[app a.b]\nprofile = two words\n",
		"p.ini:2: 'profile' needs one word, not 'two words'", __LINE__);
	check_error("[apps a.b]\n",
		"p.ini:1: unknown section [apps a.b] (expected [profile NAME] or [app APP_ID])",
		__LINE__);
	check_error("[app]\n",
		"p.ini:1: unknown section [app] (expected [profile NAME] or [app APP_ID])",
		__LINE__);
	check_error("[app a b]\n", "p.ini:1: [app a b] needs one name without spaces or commas",
		__LINE__);
	/* No tag carries such an id: the section could never apply (found by fuzz-policy). */
	check_error("[app org.example.]\n",
		"p.ini:1: [app org.example.]: the app id ends with '.' (docs/sandbox-identity.md)",
		__LINE__);
	check_error("[app ../x]\n",
		"p.ini:1: [app ../x]: the app id begins with '.' or '-' (docs/sandbox-identity.md)",
		__LINE__);
	check_error("[app a.b]\nshare = network\n[profile x]\n[app a.b]\nshare =\n",
		"p.ini:5: 'share' is already set on line 2", __LINE__);
	/* A profile defined after the app that uses it is fine: the check runs at the end. */
	check_error("[app a.b]\nprofile = late\n[profile late]\nshare = network\n", "(loaded)",
		__LINE__);
}

static void test_files(void) {
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load("/nonexistent/policy.ini", &error);
	CHECK(policy == NULL);
	CHECK_STR(error, "/nonexistent/policy.ini: No such file or directory");
	free(error);

	/* No file at the default place: the built-in profiles. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	error = NULL;
	policy = cordon_policy_load(NULL, &error);
	CHECK(policy != NULL && error == NULL);
	CHECK(policy != NULL && cordon_policy_has_profile(policy, "devel"));
	cordon_policy_destroy(policy);

	char path[] = "/tmp/cordon-test-policy-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char text[] = "[app a.b]\nprofile = devel\n";
	CHECK(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fd);
	policy = cordon_policy_load(path, &error);
	CHECK(policy != NULL && cordon_policy_list_contains(policy, "a.b", NULL, "allow", "devel"));
	cordon_policy_destroy(policy);
	unlink(path);
}

/* Bus names (dbus-talk, dbus-own, dbus-see, dbus-system-talk): the bus's grammar, or ".*". */
static void test_bus_names(void) {
	check_error("[app a.b]\ndbus-talk = org.example.A, org.mpris.*, a_b.c-d.E9\n"
		    "dbus-own = org.example.A.*\ndbus-see =\ndbus-a11y = false\n",
		"(loaded)", __LINE__);
	check_error("[app a.b]\ndbus-talk = org.example.A, 9x.y\n",
		"p.ini:2: '9x.y' in 'dbus-talk' has an element starting with a digit", __LINE__);
	check_error("[app a.b]\ndbus-own = :1.42\n",
		"p.ini:2: ':1.42' in 'dbus-own' is a unique connection name, not a service name",
		__LINE__);
	check_error("[app a.b]\ndbus-see = org\n",
		"p.ini:2: 'org' in 'dbus-see' needs at least two elements (org.example.Name)",
		__LINE__);
	check_error("[app a.b]\ndbus-talk = org.\n",
		"p.ini:2: 'org.' in 'dbus-talk' has an empty element", __LINE__);
	check_error(
		"[app a.b]\ndbus-talk = .*\n", "p.ini:2: '.*' in 'dbus-talk' is empty", __LINE__);
	check_error("[app a.b]\ndbus-system-talk = org.*.x\n",
		"p.ini:2: 'org.*.x' in 'dbus-system-talk' may only hold letters, digits, '_', '-' "
		"and '.' (and end in .*)",
		__LINE__);
	check_error("[app a.b]\ndbus-talk = org.example.A,,\n",
		"p.ini:2: '' in 'dbus-talk' needs a comma-separated list of names", __LINE__);
	char long_name[300];
	memset(long_name, 'a', sizeof(long_name));
	long_name[1] = '.';
	long_name[sizeof(long_name) - 1] = '\0';
	char text[400];
	snprintf(text, sizeof(text), "[app a.b]\ndbus-talk = %s\n", long_name);
	char want[400];
	snprintf(want, sizeof(want), "p.ini:2: '%.255s' in 'dbus-talk' is longer than 255 bytes",
		long_name);
	check_error(text, want, __LINE__);
}

int main(void) {
	test_builtin_profiles();
	test_app_sections();
	test_changing_builtin_profile();
	test_word_lists();
	test_typed_values();
	test_errors();
	test_bus_names();
	test_files();
	return check_result();
}
