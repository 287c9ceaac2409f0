/* What cordon-portal's commands share: exit statuses, failure names, finding the portal. */
#ifndef CORDON_PORTAL_CLI_COMMON_H
#define CORDON_PORTAL_CLI_COMMON_H

#include <stdint.h>
#include <wayland-client.h>

#include "cordon-portal-v1-client-protocol.h"

/* The exit statuses of every command (cordon-portal --help lists them). */
enum {
	EXIT_CHOSEN = 0,
	EXIT_CANCELLED = 1,
	EXIT_USAGE = 2,
	EXIT_FAILED = 3,
	EXIT_NO_PORTAL = 4,
};

/* A failed event's failure for people: "denied", "busy", "too large", ... */
const char *cordon_portal_cli_failure_name(uint32_t failure);

/*
 * Connects to the Wayland display and binds the portal manager at version (the
 * compositor must offer at least that). NULL after saying why on stderr, naming the
 * portal as what ("camera", "print"); *display is then NULL too.
 */
struct cordon_portal_manager_v1 *cordon_portal_cli_connect(
	struct wl_display **display, uint32_t version, const char *what);

#endif
