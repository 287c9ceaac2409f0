/*
 * cordon.ini (compositor/config.c over common/ini.c), read from a stream as cordon reads the
 * file. Oracle, for a file that loads: numbers stay in their documented ranges, every binding
 * has an action and an exec binding a command, the portal's plugin is a name and its folder
 * absolute; a refusal names the file and line.
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
	fuzz_require(config->freeze_delay_ms <= 3600 * 1000, "the freeze delay is at most an hour");
	fuzz_require(config->boost_weight <= 10000, "the boost is a cpu.weight");
	fuzz_require(config->portal_print_max_size == 0 ||
			(config->portal_print_max_size >= 1024 &&
				config->portal_print_max_size <= (4ull << 30)),
		"the print size limit is 1 KiB to 4 GiB");
	fuzz_require(config->portal_camera_timeout_ms >= 0 && config->portal_camera_max_bytes >= 0,
		"camera limits are not negative");
	fuzz_require(!config->portal_plugin_dir || config->portal_plugin_dir[0] == '/',
		"the plugin folder is absolute");
	fuzz_require(!config->portal_ui || !strchr(config->portal_ui, '/'),
		"the UI is a plugin name, not a path");
	struct cordon_binding *binding;
	wl_list_for_each(binding, &config->bindings, link) {
		fuzz_require(binding->action != CORDON_ACTION_EXEC || binding->command != NULL,
			"an exec binding has a command");
		fuzz_require(binding->keysym != XKB_KEY_NoSymbol, "a binding has a key");
	}
	cordon_config_destroy(config);
	return 0;
}
