/* wlr-output-management: tools like wlr-randr inspect and change outputs. */
#ifndef CORDON_COMPOSITOR_OUTPUT_MANAGEMENT_H
#define CORDON_COMPOSITOR_OUTPUT_MANAGEMENT_H

#include <wayland-server-core.h>

struct cordon_server;

struct cordon_output_management {
	struct cordon_server *server;
	struct wlr_output_manager_v1 *manager;
	struct wl_listener apply;
	struct wl_listener test;
	struct wl_listener layout_change;
};

struct cordon_output_management *cordon_output_management_create(struct cordon_server *server);
void cordon_output_management_destroy(struct cordon_output_management *management);

#endif
