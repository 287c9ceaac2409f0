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

/* Whether this client may see (and bind) this global. */
bool cordon_global_visible(const struct wl_client *client, const struct wl_global *global);

#endif
