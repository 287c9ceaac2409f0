/* Fetching a store's files: over HTTP(S) with libcurl, or from a local folder. */
#ifndef CORDON_APPS_FETCH_H
#define CORDON_APPS_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/bundle.h"

/*
 * base/name into out_fd (a file), at most max bytes: more is a refusal, not a truncation.
 * base is an http:// or https:// URL, or an absolute folder. progress may be NULL.
 */
bool cordon_fetch_to_fd(const char *base, const char *name, uint64_t max, int out_fd,
	cordon_progress_fn progress, void *data, char **error);
/* The same into memory, NUL-terminated; *len excludes the NUL. */
char *cordon_fetch_to_memory(
	const char *base, const char *name, size_t max, size_t *len, char **error);
/* NULL if url is a base cordon-app fetches from, else why not. */
const char *cordon_fetch_url_problem(const char *url);

#endif
