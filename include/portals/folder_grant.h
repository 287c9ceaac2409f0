/* Folders handed to a sandboxed app as directory documents of the document portal. */
#ifndef CORDON_PORTALS_FOLDER_GRANT_H
#define CORDON_PORTALS_FOLDER_GRANT_H

#include <stddef.h>

struct cordon_portal_host;
struct cordon_folder_grant;

/*
 * The grant is answered: PATHS[COUNT] are where the app sees the folders (in its own
 * document view, /run/user/UID/doc/ID/NAME), in the order given; NULL with REASON (static
 * text) when the document portal refused or is missing. The strings are the grant's: copy
 * what is kept. The grant is freed after this returns.
 */
typedef void (*cordon_folder_grant_done_fn)(
	void *data, const char *const *paths, size_t count, const char *reason);

/*
 * Asks the document portal for a directory document of each folder FDS[i] (an fd of the
 * folder as cordon opened it; duplicated into the call, so the caller may close it at
 * once) named NAMES[i], readable and writable by APP_ID, over HOST's session bus (HOST
 * outlives the grant). NULL, with nothing called, when the call cannot be made.
 */
struct cordon_folder_grant *cordon_folder_grant_start(const struct cordon_portal_host *host,
	const char *app_id, const int *fds, const char *const *names, size_t count,
	cordon_folder_grant_done_fn done, void *data);
/* Forgets a grant not answered yet: DONE is not called. */
void cordon_folder_grant_cancel(struct cordon_folder_grant *grant);

#endif
