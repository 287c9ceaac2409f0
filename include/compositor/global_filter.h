/* Which globals a client may see: sandboxed clients get only those offered to sandboxes. */
#ifndef CORDON_COMPOSITOR_GLOBAL_FILTER_H
#define CORDON_COMPOSITOR_GLOBAL_FILTER_H

#include <stdbool.h>

struct cordon_server;
struct wl_client;
struct wl_global;

/* The two tables every global cordon creates is in, exactly one of them. */
enum cordon_global_class {
	CORDON_GLOBAL_OFFERED = 1 << 0, /* to every client, sandboxed or not */
	CORDON_GLOBAL_HOST_ONLY = 1 << 1, /* to host clients, and sandboxed ones granted it */
};

/* The tables (CORDON_GLOBAL_* bits) that name this interface: 0 for none. */
unsigned cordon_global_tables_holding(const char *interface);
/* One table, NULL-terminated. */
const char *const *cordon_global_table(enum cordon_global_class class);

/* Installs the filter on the server's display, and the count of what each client sees. */
void cordon_global_filter_init(struct cordon_server *server);
void cordon_global_filter_finish(struct cordon_server *server);

/* Whether this client may see (and bind) this global. */
bool cordon_global_visible(const struct wl_client *client, const struct wl_global *global);

#endif
