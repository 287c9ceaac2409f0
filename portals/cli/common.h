/* What cordon-portal's commands share: exit statuses, failure names, finding the portal. */
#ifndef CORDON_PORTAL_CLI_COMMON_H
#define CORDON_PORTAL_CLI_COMMON_H

#include <stdbool.h>
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

/*
 * How long a command waits for anything (the compositor's reply, the answer to a request,
 * a stream's next frame) unless --timeout says otherwise: no wait is without an end, so a
 * dialog nobody answers or a camera that sends nothing ends with a message, never a hang.
 */
#define CORDON_PORTAL_CLI_DEFAULT_TIMEOUT_S 600

/* The answer to a request, as its event handlers record it. */
struct cordon_portal_cli_answer {
	bool answered;
	int status; /* EXIT_CHOSEN, EXIT_CANCELLED or EXIT_FAILED */
	char reason[512]; /* for a cancel or a failure: the one line printed */
};

void cordon_portal_cli_chosen(struct cordon_portal_cli_answer *answer);
void cordon_portal_cli_cancelled(struct cordon_portal_cli_answer *answer);
/* A failed event: its failure for people ("denied", "too large", ...) and the reason. */
void cordon_portal_cli_failed(
	struct cordon_portal_cli_answer *answer, uint32_t failure, const char *reason);

/*
 * Dispatches until *done, for at most timeout_ms: 1 when done, 0 when the time ran out,
 * -1 when the connection failed.
 */
int cordon_portal_cli_dispatch_until(struct wl_display *display, const bool *done, int timeout_ms);
/* wl_display_roundtrip for at most timeout_ms; the same results. */
int cordon_portal_cli_roundtrip(struct wl_display *display, int timeout_ms);

/*
 * Dispatches until the request is answered, for at most timeout_ms. EXIT_CHOSEN when it
 * was; otherwise the status to exit with, after printing why on stderr.
 */
int cordon_portal_cli_wait(
	struct wl_display *display, struct cordon_portal_cli_answer *answer, int timeout_ms);

/*
 * Connects to the Wayland display and binds the portal manager at version (the
 * compositor must offer at least that), waiting at most timeout_ms for its globals. NULL
 * after saying why on stderr, naming the portal as what ("camera", "print"); *display is
 * then NULL too.
 */
struct cordon_portal_manager_v1 *cordon_portal_cli_connect(
	struct wl_display **display, uint32_t version, const char *what, int timeout_ms);
/*
 * The same, binding the highest version from min_version to max_version that the
 * compositor offers (cordon_portal_manager_v1_get_version says which).
 */
struct cordon_portal_manager_v1 *cordon_portal_cli_connect_range(struct wl_display **display,
	uint32_t min_version, uint32_t max_version, const char *what, int timeout_ms);

#endif
