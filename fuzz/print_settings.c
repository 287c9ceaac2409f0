/*
 * Print settings (portals/print_settings.c): the keys and values an app suggests through the
 * Wayland door, and GtkPrintSettings through the D-Bus door. Input: key, a NUL, the value.
 * Oracle: an accepted value is short and has nothing CUPS would parse (no blank, quote,
 * slash, backslash or control byte); a GTK setting translated to IPP and accepted
 * translates back to GTK and again to the same IPP value.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "portals/print_settings.h"

static void check_accepted(const char *key, const char *value) {
	const char *why = NULL;
	if (!cordon_print_setting_valid(key, value, &why)) {
		fuzz_require(why != NULL, "a refusal says why");
		return;
	}
	fuzz_require(value[0] && strlen(value) < CORDON_PRINT_VALUE_MAX, "a value is short");
	fuzz_require(!fuzz_has_control(value) && !strpbrk(value, " \"'/\\"),
		"an accepted value has nothing for CUPS to parse");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *key = fuzz_string(data, size);
	size_t key_len = strlen(key);
	char *value = fuzz_string(data + key_len + (key_len < size ? 1 : 0),
		size - key_len - (key_len < size ? 1 : 0));
	check_accepted(key, value);

	const char *ipp_key, *why = NULL;
	char ipp_value[CORDON_PRINT_VALUE_MAX];
	if (cordon_print_setting_from_gtk(key, value, &ipp_key, ipp_value, &why) && ipp_key &&
		cordon_print_setting_valid(ipp_key, ipp_value, &why)) {
		check_accepted(ipp_key, ipp_value);
		const char *gtk_key;
		char gtk_value[CORDON_PRINT_VALUE_MAX];
		fuzz_require(cordon_print_setting_to_gtk(ipp_key, ipp_value, &gtk_key, gtk_value) &&
				gtk_key,
			"an accepted setting has a GTK name");
		/* GTK answers the paper as paper-format; the page setup's Name is what it sends. */
		if (strcmp(ipp_key, "media") != 0) {
			const char *ipp_again;
			char value_again[CORDON_PRINT_VALUE_MAX];
			fuzz_require(cordon_print_setting_from_gtk(
					     gtk_key, gtk_value, &ipp_again, value_again, &why) &&
					ipp_again && strcmp(ipp_again, ipp_key) == 0 &&
					strcmp(value_again, ipp_value) == 0,
				"GTK to IPP, back and again gives the same setting");
		}
	}
	free(key);
	free(value);
	return 0;
}
