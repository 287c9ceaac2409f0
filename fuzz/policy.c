/*
 * policy.ini (common/policy.c over common/ini.c), read from a stream as cordon and cordon-run
 * read the file. Oracle, for a file that loads: every [app ID] section names an id that
 * common/app_id.c accepts (no tag can carry any other); every app's profile exists; no app
 * is given a control command that is not read-only (docs/ipc.md); the typed lookups answer.
 */
#include <stdlib.h>
#include <string.h>

#include "common/app_id.h"
#include "common/ini.h"
#include "common/policy.h"
#include "fuzz.h"

/* The control socket's commands that change something: never grantable (common/policy.c). */
static const char *const write_commands[] = {
	"focus",
	"close",
	"minimize",
	"restore",
	"pointer",
	"key",
	"screenshot",
	"permissions",
	"quit",
	"freeze",
	"thaw",
	"output-add",
	"output-remove",
};

static void check_app(const struct cordon_policy *policy, const char *app_id) {
	fuzz_require(app_id == NULL || cordon_app_id_valid(app_id),
		"an [app ID] section names a valid app id");
	const char *profile = cordon_policy_app_profile(policy, app_id);
	fuzz_require(profile != NULL && cordon_policy_has_profile(policy, profile),
		"an app's profile exists");
	for (size_t i = 0; i < sizeof(write_commands) / sizeof(write_commands[0]); i++) {
		fuzz_require(!cordon_policy_list_contains(
				     policy, app_id, NULL, "control-commands", write_commands[i]),
			"no app is given a control command that changes something");
	}
	cordon_policy_get_bool(policy, app_id, NULL, "freeze", true);
	cordon_policy_get_uint(policy, app_id, NULL, "boost-weight", 0);
	cordon_policy_get_duration_ms(policy, app_id, NULL, "freeze-delay", 0);
	cordon_policy_get_size(policy, app_id, NULL, "clipboard-size-limit", 0);
	cordon_policy_list_contains(policy, app_id, NULL, "dbus-talk", "org.example.Name");
}

static bool check_section(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	if (key == NULL && strncmp(section, "app ", 4) == 0) {
		const char *name = section + 4;
		while (*name == ' ' || *name == '\t') {
			name++;
		}
		check_app(data, name);
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	FILE *file = fuzz_stream(data, size);
	char *error = NULL;
	struct cordon_policy *policy = cordon_policy_load_file(file, "policy.ini", &error);
	fclose(file);
	if (!policy) {
		fuzz_require(error != NULL && strncmp(error, "policy.ini:", 11) == 0,
			"a refusal names the file");
		free(error);
		return 0;
	}
	fuzz_require(error == NULL, "no error with a policy");
	/* A file that loads has no NUL byte: its sections can be listed from the text. */
	char *text = fuzz_string(data, size);
	fuzz_require(strlen(text) == size, "a loaded policy holds no NUL byte");
	fuzz_require(cordon_ini_parse_string(text, "policy.ini", check_section, policy, NULL),
		"the file parses again");
	check_app(policy, NULL);
	free(text);
	cordon_policy_destroy(policy);
	return 0;
}
