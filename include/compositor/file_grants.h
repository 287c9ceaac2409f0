/* Files crossing a sandbox boundary as document portal grants, with their uri-lists rewritten. */
#ifndef CORDON_COMPOSITOR_FILE_GRANTS_H
#define CORDON_COMPOSITOR_FILE_GRANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cordon_session_bus;
struct cordon_file_grants;
struct wl_event_loop;

/*
 * The rewritten uri-list for the transfer id (malloc'd, the callee takes it), or NULL when
 * nothing could be granted. files: how many file entries went through.
 */
typedef void (*cordon_file_grants_done_fn)(
	void *data, uint64_t id, char *list, size_t len, size_t files);

/*
 * Asks the document portal (org.freedesktop.portal.Documents on the session bus) for its
 * mount point, without waiting. bus NULL, or no portal answering: file grants stay off, and
 * that is logged once. Returns NULL only when out of memory.
 */
struct cordon_file_grants *cordon_file_grants_create(
	struct wl_event_loop *loop, struct cordon_session_bus *bus);
/* Pending requests are dropped: their callbacks are not called. */
void cordon_file_grants_destroy(struct cordon_file_grants *grants);

/* The document portal answered: grants can be made. */
bool cordon_file_grants_ready(const struct cordon_file_grants *grants);
/*
 * A request is on its way (its files being opened, or the portal not answered yet): what
 * the Wayland fuzzer waits for, so that an input replays the same way.
 */
bool cordon_file_grants_pending(const struct cordon_file_grants *grants);

/*
 * Host to sandbox: opens every file:// path of list (never following a symlink, on a thread
 * of its own), grants app_id read access to each through the document portal (AddFull) and
 * calls done with a uri-list of the paths the app sees (/run/user/UID/doc/DOC_ID/NAME);
 * http(s) links pass, the rest is dropped. done may be called before this returns.
 */
void cordon_file_grants_export(struct cordon_file_grants *grants, const char *app_id,
	const char *list, size_t len, cordon_file_grants_done_fn done, void *data, uint64_t id);

/*
 * Sandbox to host: keeps the paths under the app's document view (/run/user/UID/doc/ID/NAME)
 * of documents app_id really holds (the portal's Info), as the host sees them
 * (MOUNT_POINT/ID/NAME); other file paths are dropped, http(s) links pass.
 */
void cordon_file_grants_translate(struct cordon_file_grants *grants, const char *app_id,
	const char *list, size_t len, cordon_file_grants_done_fn done, void *data, uint64_t id);

#endif
