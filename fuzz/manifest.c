/*
 * A bundle's manifest (apps/manifest.c): a store's JSON, signed, but still a store's text.
 * Oracle, for a manifest that parses: the id passes common/app_id.c and fits a scope name,
 * versions are valid, the name and summary print as they are (nothing to escape, no '%'),
 * the command names a program (not an option) in plain words, and the permissions, written
 * as policy.ini lines under the app's section, load as a policy (cordon-app writes them so);
 * a refusal, which cordon-app prints, is safe on a terminal.
 */
#include <stdlib.h>
#include <string.h>

#include "apps/manifest.h"
#include "common/app_id.h"
#include "common/escape.h"
#include "common/format.h"
#include "common/policy.h"
#include "fuzz.h"

static void check_text(const char *text) {
	if (!text) {
		return;
	}
	char *escaped = cordon_escape_dup(text, 0);
	fuzz_require(escaped && strcmp(escaped, text) == 0 && !strchr(text, '%'),
		"shown text needs no escape and has no field code");
	free(escaped);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *error = NULL;
	struct cordon_manifest *m = cordon_manifest_parse((const char *)data, size, &error);
	if (!m) {
		fuzz_require(error != NULL, "a refusal says why");
		/* cordon-app prints it to a terminal: nothing of the store's text unescaped. */
		fuzz_require(fuzz_terminal_safe(error), "a refusal is safe on a terminal");
		free(error);
		return 0;
	}
	fuzz_require(cordon_app_id_valid(m->id) && strlen(m->id) <= CORDON_APP_ID_SCOPE_MAX,
		"the id is an app id that fits a scope name");
	fuzz_require(cordon_version_valid(m->version) && cordon_version_valid(m->min_cordon),
		"versions are valid");
	check_text(m->name);
	check_text(m->summary);
	fuzz_require(m->command_len >= 1 && m->command[m->command_len] == NULL &&
			m->command[0][0] != '-',
		"the command names a program");
	for (size_t i = 0; i < m->command_len; i++) {
		fuzz_require(!fuzz_has_control(m->command[i]) && !strpbrk(m->command[i], " \"'\\%"),
			"a command word is plain");
	}
	char *lines = cordon_manifest_profile_lines(m);
	char *text = lines ? cordon_format("[app %s]\n%s", m->id, lines) : NULL;
	fuzz_require(text != NULL, "memory");
	char *policy_error = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(text, "manifest", &policy_error);
	fuzz_require(policy != NULL, "the permissions load as the app's policy");
	cordon_policy_destroy(policy);
	free(text);
	free(lines);
	cordon_manifest_destroy(m);
	return 0;
}
