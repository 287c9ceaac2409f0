/*
 * The control socket's request lines: {"command": "NAME", "args": ["WORD", ...]}. Apart from
 * the socket so that what a peer sends is parsed by one function over bytes (and fuzzed).
 */
#include "compositor/ipc_request.h"

#include <limits.h>
#include <stdlib.h>

#define MALFORMED "a request is a JSON object with a string \"command\""
#define BAD_ARGS "\"args\" must be an array of strings"

static bool refuse(struct cordon_ipc_request *request, const char *why, const char **error) {
	cordon_ipc_request_finish(request);
	*error = why;
	return false;
}

bool cordon_ipc_request_parse(
	const char *line, size_t len, struct cordon_ipc_request *request, const char **error) {
	*request = (struct cordon_ipc_request){0};
	if (len > INT_MAX) {
		return refuse(request, MALFORMED, error);
	}
	struct json_tokener *tokener = json_tokener_new();
	request->json = tokener ? json_tokener_parse_ex(tokener, line, (int)len) : NULL;
	bool complete = tokener && json_tokener_get_error(tokener) == json_tokener_success;
	json_tokener_free(tokener);

	struct json_object *command = NULL, *args = NULL;
	if (!complete || !json_object_is_type(request->json, json_type_object) ||
		!json_object_object_get_ex(request->json, "command", &command) ||
		!json_object_is_type(command, json_type_string)) {
		return refuse(request, MALFORMED, error);
	}
	if (json_object_object_get_ex(request->json, "args", &args)) {
		if (!json_object_is_type(args, json_type_array)) {
			return refuse(request, BAD_ARGS, error);
		}
		request->argc = json_object_array_length(args);
	}
	request->argv = calloc(request->argc + 1, sizeof(*request->argv));
	if (!request->argv) {
		return refuse(request, "out of memory", error);
	}
	for (size_t i = 0; i < request->argc; i++) {
		struct json_object *arg = json_object_array_get_idx(args, i);
		if (!json_object_is_type(arg, json_type_string)) {
			return refuse(request, BAD_ARGS, error);
		}
		request->argv[i] = json_object_get_string(arg);
	}
	request->command = json_object_get_string(command);
	return true;
}

void cordon_ipc_request_finish(struct cordon_ipc_request *request) {
	free(request->argv);
	json_object_put(request->json);
	*request = (struct cordon_ipc_request){0};
}
