/* wp_security_context_v1: listening sockets from sandbox launchers whose clients carry a tag. */
#ifndef CORDON_COMPOSITOR_SECURITY_CONTEXT_H
#define CORDON_COMPOSITOR_SECURITY_CONTEXT_H

#include "sandbox/cgroup_tag.h"

struct cordon_server;
struct cordon_security_context_manager;

/* How many listeners one connected client may hold at once (committed or not). */
#define CORDON_SECURITY_CONTEXTS_PER_CLIENT 32

/* Creates the manager global. NULL on failure (logged). */
struct cordon_security_context_manager *cordon_security_context_manager_create(
	struct cordon_server *server);
/* Stops every listener and closes its fds; the global goes too. Accepts NULL. */
void cordon_security_context_manager_destroy(struct cordon_security_context_manager *manager);

/*
 * While a listener is creating the wl_client for a connection it accepted (that is, inside
 * the display's client-created signal): the tag the new client must get. NULL otherwise, and
 * for a NULL manager.
 */
const struct cordon_tag *cordon_security_context_accepting(
	const struct cordon_security_context_manager *manager);

#endif
