/*
 * Camera provider files (portals/camera_providers.c), read from a stream as the folders'
 * files are. Oracle, for a file that parses: a name, at most CORDON_CAMERA_MAX_ARGS words of
 * Exec starting with an absolute path and ending in NULL, only the image types cordon checks,
 * the id it was given; a refusal names the file, and a refused provider holds nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "portals/camera_providers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	FILE *file = fuzz_stream(data, size);
	struct cordon_camera_provider provider;
	char *error = NULL;
	bool ok = cordon_camera_provider_parse_stream(
		&provider, file, "fuzz.provider", "fuzz", &error);
	fclose(file);
	if (!ok) {
		fuzz_require(error != NULL && strncmp(error, "fuzz.provider", 13) == 0,
			"a refusal names the file");
		fuzz_require(provider.argc == 0 && provider.name == NULL && provider.id == NULL,
			"a refused provider holds nothing");
		free(error);
		return 0;
	}
	fuzz_require(error == NULL, "no error with a provider");
	fuzz_require(provider.id && strcmp(provider.id, "fuzz") == 0, "the provider has its id");
	fuzz_require(provider.name && provider.name[0] && provider.icon, "a name and an icon");
	fuzz_require(provider.argc >= 1 && provider.argc <= CORDON_CAMERA_MAX_ARGS &&
			provider.argv[provider.argc] == NULL,
		"Exec has 1 to CORDON_CAMERA_MAX_ARGS words and ends in NULL");
	fuzz_require(provider.argv[0][0] == '/', "the program is an absolute path");
	for (size_t i = 0; i < provider.argc; i++) {
		fuzz_require(provider.argv[i][0] != '\0' && !strpbrk(provider.argv[i], " \t"),
			"a word of Exec is one word");
	}
	fuzz_require(provider.mime_type_count >= 1 &&
			provider.mime_type_count <= CORDON_CAMERA_MAX_MIME_TYPES,
		"1 to CORDON_CAMERA_MAX_MIME_TYPES types");
	for (size_t i = 0; i < provider.mime_type_count; i++) {
		fuzz_require(strcmp(provider.mime_types[i], "image/png") == 0 ||
				strcmp(provider.mime_types[i], "image/jpeg") == 0,
			"only the image types cordon checks");
	}
	const char *accepted[] = {"image/jpeg"};
	const char *match = cordon_camera_provider_match(&provider, accepted, 1);
	fuzz_require(!match || strcmp(match, "image/jpeg") == 0, "a match is an accepted type");
	cordon_camera_provider_finish(&provider);
	return 0;
}
