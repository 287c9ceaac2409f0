/*
 * The control socket's request lines (compositor/ipc/request.c). The socket splits what a
 * peer sends at each newline and hands every non-empty line to the parser; so does this
 * target. Oracle: a parsed request has a command string and exactly argc argument strings
 * after which argv ends; a refused one says why and leaves nothing to free.
 */
#include <string.h>

#include "compositor/ipc_request.h"
#include "fuzz.h"

static void check_line(const char *line, size_t len) {
	struct cordon_ipc_request request;
	const char *error = NULL;
	if (!cordon_ipc_request_parse(line, len, &request, &error)) {
		fuzz_require(error != NULL && error[0] != '\0', "a refused request says why");
		fuzz_require(request.json == NULL && request.argv == NULL,
			"a refused request holds nothing");
		return;
	}
	fuzz_require(request.command != NULL, "a request has a command");
	fuzz_require(request.argv != NULL && request.argv[request.argc] == NULL,
		"argv ends after argc arguments");
	for (size_t i = 0; i < request.argc; i++) {
		fuzz_require(request.argv[i] != NULL, "every argument is a string");
		fuzz_require(strlen(request.argv[i]) < len, "an argument comes from the line");
	}
	cordon_ipc_request_finish(&request);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	const char *text = (const char *)data;
	size_t start = 0;
	for (size_t i = 0; i <= size; i++) {
		if (i == size || text[i] == '\n') {
			if (i > start) {
				check_line(text + start, i - start);
			}
			start = i + 1;
		}
	}
	return 0;
}
