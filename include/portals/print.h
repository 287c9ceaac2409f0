/* The print portal (docs/portals.md): prepare and print requests, tokens, the document. */
#ifndef CORDON_PORTALS_PRINT_H
#define CORDON_PORTALS_PRINT_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * The same requests for another door (portals/dbus/print.c): created for a caller,
 * configured, submitted; the answer comes once through an answer function, then the
 * door destroys the request (also to dismiss it before then).
 */
struct cordon_print;
struct cordon_portal_caller;
struct cordon_portal_request;
struct cordon_portal_response;
struct cordon_print_answer {
	const struct cordon_portal_response *response;
	/* A prepare the user confirmed: the chosen settings and the token to print with. */
	const char *const *keys;
	const char *const *values;
	size_t count;
	const char *token;
	uint32_t job_id; /* a print CUPS queued */
};
typedef void (*cordon_print_answer_func)(void *data, const struct cordon_print_answer *answer);

struct cordon_print *cordon_print_create_for(struct cordon_portals *portals,
	const struct cordon_portal_caller *caller, bool prepare, cordon_print_answer_func answer,
	void *data, bool *over_cap);
struct cordon_portal_request *cordon_print_request(struct cordon_print *print);
/* A setting the app suggests (the keys of the Wayland door); false with *why when refused. */
bool cordon_print_suggest(
	struct cordon_print *print, const char *key, const char *value, const char **why);
/* TOKEN: a prepare's token, or NULL. False when too long or out of memory. */
bool cordon_print_set_options(
	struct cordon_print *print, const char *title, bool modal, const char *token);
/* Takes FD (closes it on failure too). */
bool cordon_print_set_document(struct cordon_print *print, int fd, const char *mime_type);
void cordon_print_submit(struct cordon_print *print);
void cordon_print_destroy(struct cordon_print *print);

#endif
