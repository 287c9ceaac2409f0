/* One request line of the control socket, parsed: the command's name and its arguments. */
#ifndef CORDON_COMPOSITOR_IPC_REQUEST_H
#define CORDON_COMPOSITOR_IPC_REQUEST_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

struct cordon_ipc_request {
	struct json_object *json; /* owns the strings below */
	const char *command;
	const char **argv; /* argc strings, then NULL */
	size_t argc;
};

/*
 * Parses LINE (LEN bytes, without its newline): a JSON object with a string "command" and an
 * optional array of strings "args". False with *error (static text, for the reply) for
 * anything else; the request is then empty.
 */
bool cordon_ipc_request_parse(
	const char *line, size_t len, struct cordon_ipc_request *request, const char **error);
void cordon_ipc_request_finish(struct cordon_ipc_request *request);

#endif
