/* The control socket's command handlers, one group per file. */
#ifndef CORDON_IPC_COMMANDS_H
#define CORDON_IPC_COMMANDS_H

#include "compositor/ipc.h"

#define CORDON_IPC_HANDLER(name)                                                                   \
	bool name(struct cordon_server *server, int argc, const char *const *argv,                 \
		struct json_object **result, char **error)

/* query_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_outputs);
CORDON_IPC_HANDLER(cordon_ipc_windows);
CORDON_IPC_HANDLER(cordon_ipc_clients);
/* window_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_focus);
CORDON_IPC_HANDLER(cordon_ipc_close);
CORDON_IPC_HANDLER(cordon_ipc_minimize);
CORDON_IPC_HANDLER(cordon_ipc_restore);
/* input_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_pointer);
CORDON_IPC_HANDLER(cordon_ipc_key);
/* portal_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_permissions);
CORDON_IPC_HANDLER(cordon_ipc_portal_requests);
CORDON_IPC_HANDLER(cordon_ipc_camera_streams);
/* transfer_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_transfers);
CORDON_IPC_HANDLER(cordon_ipc_selection);
/* app_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_apps);
CORDON_IPC_HANDLER(cordon_ipc_freeze);
CORDON_IPC_HANDLER(cordon_ipc_thaw);
/* attention_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_attention);
/* x11_commands.c */
CORDON_IPC_HANDLER(cordon_ipc_x11_servers);
/* commands.c */
CORDON_IPC_HANDLER(cordon_ipc_screenshot);
CORDON_IPC_HANDLER(cordon_ipc_quit);
CORDON_IPC_HANDLER(cordon_ipc_output_add);
CORDON_IPC_HANDLER(cordon_ipc_output_remove);

#endif
