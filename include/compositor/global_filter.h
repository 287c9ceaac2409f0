/* Which globals a client may see: sandboxed clients get only an allow-list. */
#ifndef CORDON_COMPOSITOR_GLOBAL_FILTER_H
#define CORDON_COMPOSITOR_GLOBAL_FILTER_H

#include <stdbool.h>

struct cordon_server;
struct wl_client;
struct wl_global;

/* Installs the filter on the server's display, and the count of what each client sees. */
void cordon_global_filter_init(struct cordon_server *server);
void cordon_global_filter_finish(struct cordon_server *server);

enum cordon_global_class {
	CORDON_GLOBAL_UNCLASSIFIED, /* in neither table: hidden from sandboxed apps */
	CORDON_GLOBAL_OFFERED, /* to every client */
	CORDON_GLOBAL_HOST_ONLY, /* to the host, and to apps whose policy grants it by name */
	CORDON_GLOBAL_X_SERVER_ONLY, /* to one of cordon's X servers, its own (xwayland.c) */
	CORDON_GLOBAL_IN_BOTH, /* a mistake in the tables: hidden from sandboxed apps */
};

/* Which table a global's interface is in (tests/wlcs/descriptor-check.c checks every one). */
enum cordon_global_class cordon_global_class_of(const char *interface_name);

/* Whether this client may see (and bind) this global. */
bool cordon_global_visible(const struct wl_client *client, const struct wl_global *global);

#endif
