/* The print portal (docs/portals.md): prepare and print requests, tokens, the document. */
#ifndef CORDON_PORTALS_PRINT_H
#define CORDON_PORTALS_PRINT_H

#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_portals;
struct cordon_print_portal;

/* The largest document the print portal takes unless [portal] print-max-size says. */
#define CORDON_PRINT_DEFAULT_MAX_SIZE (512ull << 20)

/* The portal's shared state: the CUPS tasks and the tokens of recent prepares. */
struct cordon_print_portal *cordon_print_portal_create(struct cordon_portals *portals);
/* Waits for jobs still being sent. */
void cordon_print_portal_destroy(struct cordon_print_portal *print);

/* manager.get_print: a new request object, or a protocol error on the manager. */
void cordon_print_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id, uint32_t kind);

#endif
