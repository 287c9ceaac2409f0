/*
 * cordon.ini (compositor/config.c over common/ini.c), read from a stream as cordon reads the
 * file. Oracle, for a file that loads: numbers stay in their documented ranges, every binding
 * has an action and an exec binding a command; a refusal names the file and line.
 */
#include <stdlib.h>
#include <string.h>

#include "compositor/config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	FILE *file = fuzz_stream(data, size);
	char *error = NULL;
	struct cordon_config *config = cordon_config_load_file(file, "cordon.ini", &error);
	fclose(file);
	if (!config) {
		fuzz_require(error != NULL && strncmp(error, "cordon.ini", 10) == 0,
			"a refusal names the file");
		free(error);
		return 0;
	}
	fuzz_require(config->repeat_rate >= 0 && config->repeat_delay >= 0,
		"keyboard repeat is not negative");
	fuzz_require(config->xcursor_size >= 1 && config->xcursor_size <= 512,
		"the cursor size is 1 to 512");
	fuzz_require(config->portal_dialog_grace_ms >= 0, "the dialog grace is not negative");
	fuzz_require(config->terminal != NULL, "there is a terminal");
	struct cordon_binding *binding;
	wl_list_for_each(binding, &config->bindings, link) {
		fuzz_require(binding->action != CORDON_ACTION_EXEC || binding->command != NULL,
			"an exec binding has a command");
		fuzz_require(binding->keysym != XKB_KEY_NoSymbol, "a binding has a key");
	}
	cordon_config_destroy(config);
	return 0;
}
