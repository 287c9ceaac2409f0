/* The compositor's side of the portal host interface (include/portals/host.h). */
#ifndef CORDON_COMPOSITOR_PORTAL_HOST_H
#define CORDON_COMPOSITOR_PORTAL_HOST_H

struct cordon_portal_host;
struct cordon_server;

/*
 * Fills HOST with what the portals may use of SERVER: its display, loop, scene, policy,
 * [portal] settings and session bus, and callbacks into its clients, windows, outputs,
 * labels, seat and freezer. After the scene, seat, xdg-foreign and session bus exist.
 */
void cordon_portal_host_init(struct cordon_portal_host *host, struct cordon_server *server);

#endif
