/* wlr-output-power-management: host tools (wlopm, an idle daemon) switch displays off and on. */
#ifndef CORDON_COMPOSITOR_OUTPUT_POWER_H
#define CORDON_COMPOSITOR_OUTPUT_POWER_H

#include <wayland-server-core.h>

struct cordon_server;

struct cordon_output_power {
	struct cordon_server *server;
	struct wlr_output_power_manager_v1 *manager;
	struct wl_listener set_mode;
};

struct cordon_output_power *cordon_output_power_create(struct cordon_server *server);
void cordon_output_power_destroy(struct cordon_output_power *power);

#endif
