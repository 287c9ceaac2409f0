/*
 * What the attention overlay shows (compositor/attention.c), for tests and for a user who
 * wants the same words in a terminal. Not read-only: a sandboxed peer learns nothing here.
 */
#include "commands.h"

#include "compositor/attention.h"
#include "compositor/server.h"

CORDON_IPC_HANDLER(cordon_ipc_attention) {
	if (argc != 0) {
		return cordon_ipc_fail(error, "usage: attention");
	}
	struct cordon_attention *attention = server->attention;
	*result = json_object_new_object();
	json_object_object_add(*result, "open", json_object_new_boolean(attention->open));
	struct json_object *lines = json_object_new_array();
	for (size_t i = 0; attention->open && i < attention->line_count; i++) {
		json_object_array_add(lines, json_object_new_string(attention->lines[i].text));
	}
	json_object_object_add(*result, "lines", lines);
	return true;
}
