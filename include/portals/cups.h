/* CUPS through libcups, off the compositor's thread: printers and their options, jobs. */
#ifndef CORDON_PORTALS_CUPS_H
#define CORDON_PORTALS_CUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

#include "cordon/portal-ui.h"

struct cordon_cups;
struct cordon_cups_task;

/* One printer as CUPS reports it; the strings live as long as the list. */
struct cordon_cups_printers {
	struct cordon_portal_ui_printer *printers;
	size_t count;
};

/* What a task gives back, on the event loop. error is NULL on success. */
struct cordon_cups_result {
	const char *error;
	/* A listing: owned by the caller once the callback ran (cordon_cups_printers_free). */
	struct cordon_cups_printers *printers;
	/* A job: its id, and its state word after submission ("pending", "processing"...). */
	int job_id;
	const char *job_state;
};

typedef void (*cordon_cups_done_func)(void *data, const struct cordon_cups_result *result);

/* A job to submit: copied by cordon_cups_submit. */
struct cordon_cups_job {
	const char *printer;
	const char *title;
	const char *format; /* the document's mime type */
	int fd; /* read with pread from offset 0; duplicated, the caller's stays its own */
	uint64_t max_size; /* the job fails if the document turns out longer */
	const char *const *option_names;
	const char *const *option_values;
	size_t option_count;
};

/* The tasks of one compositor; destroying it waits for those still running. */
struct cordon_cups *cordon_cups_create(struct wl_event_loop *loop);
void cordon_cups_destroy(struct cordon_cups *cups);

/*
 * Lists the printers and their options (the server is libcups's: CUPS_SERVER, else
 * the system's). Runs on its own thread, because every IPP call blocks; DONE is
 * called from the event loop unless the task was detached first. NULL when no
 * thread could be started.
 */
struct cordon_cups_task *cordon_cups_list(
	struct cordon_cups *cups, cordon_cups_done_func done, void *data);
/* Submits a job; the same threading as cordon_cups_list. */
struct cordon_cups_task *cordon_cups_submit(struct cordon_cups *cups,
	const struct cordon_cups_job *job, cordon_cups_done_func done, void *data);
/*
 * The caller no longer wants the answer: the task finishes on its own (a job that
 * is being sent is still sent: the user asked for it) and frees itself.
 */
void cordon_cups_task_detach(struct cordon_cups_task *task);
void cordon_cups_printers_free(struct cordon_cups_printers *printers);

#endif
