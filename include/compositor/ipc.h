/* The control socket: newline-delimited JSON requests from cordonctl (docs/ipc.md). */
#ifndef CORDON_COMPOSITOR_IPC_H
#define CORDON_COMPOSITOR_IPC_H

#include <json-c/json.h>
#include <stdbool.h>

struct cordon_server;
struct cordon_ipc_server;

struct cordon_ipc_server *cordon_ipc_server_create(struct cordon_server *server);
void cordon_ipc_server_destroy(struct cordon_ipc_server *ipc);
const char *cordon_ipc_server_get_path(struct cordon_ipc_server *ipc);

/*
 * A command handler gets the words after the command. It returns true and sets
 * *result (NULL is JSON null), or returns false and sets *error to a malloc'ed
 * message.
 */
typedef bool (*cordon_ipc_command_fn)(struct cordon_server *server, int argc,
	const char *const *argv, struct json_object **result, char **error);

struct cordon_ipc_command {
	const char *name;
	cordon_ipc_command_fn run;
	/*
	 * Changes nothing and reaches no device: the only commands the policy key
	 * control-commands may give a sandboxed peer (docs/ipc.md). Input, screenshots,
	 * permissions, freezing and quitting never are.
	 */
	bool read_only;
};

/* The table of every command, NULL-terminated (compositor/ipc/commands.c). */
extern const struct cordon_ipc_command cordon_ipc_commands[];

/* Helper for handlers: sets *error from a format string and returns false. */
bool cordon_ipc_fail(char **error, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
