/*
 * A folder chosen by a sandboxed app goes to it as a directory document of the document
 * portal (xdg-document-portal, the store Flatpak and cordon's file grants use), never as a
 * directory fd. A directory fd is not confined: openat(fd, "..") is resolved in the mount
 * tree the fd lives in, the host's, so it walks up to the host's root, and what may be
 * written there follows the files' own permissions, not the fd's open mode. The document
 * portal's FUSE view, bound in the app's own mount namespace at /run/user/UID/doc, shows
 * the app only the folder: ".." from it stays in the app's view (SECURITY-NOTES, "a
 * directory fd is not a folder grant"). The app gets the path of the folder there.
 */
#include "portals/folder_grant.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "portals/host.h"

#define PORTAL_NAME "org.freedesktop.portal.Documents"
#define PORTAL_PATH "/org/freedesktop/portal/documents"
#define PORTAL_INTERFACE "org.freedesktop.portal.Documents"
/*
 * AddFull flags: reuse an existing document of the same folder, and export it as a
 * directory (version 4 of the interface). Not persistent: the grant lasts while the
 * document portal runs, as cordon's other file grants.
 */
#define ADD_FLAG_REUSE_EXISTING 1u
#define ADD_FLAG_DIRECTORY 8u
#define ID_MAX 64

struct call {
	struct cordon_folder_grant *grant;
	size_t index;
	sd_bus_slot *slot;
};

struct cordon_folder_grant {
	const struct cordon_portal_host *host;
	cordon_folder_grant_done_fn done;
	void *data;
	char *app_id;
	size_t count, pending;
	struct call *calls;
	char **names;
	char **paths;
	const char *reason; /* the first failure */
	char root[64]; /* the app's view of its documents */
};

static void grant_free(struct cordon_folder_grant *grant) {
	for (size_t i = 0; i < grant->count; i++) {
		sd_bus_slot_unref(grant->calls[i].slot);
		free(grant->names[i]);
		free(grant->paths[i]);
	}
	free(grant->calls);
	free(grant->names);
	free(grant->paths);
	free(grant->app_id);
	free(grant);
}

void cordon_folder_grant_cancel(struct cordon_folder_grant *grant) {
	if (grant) {
		grant_free(grant);
	}
}

static void finish(struct cordon_folder_grant *grant) {
	if (grant->reason) {
		grant->done(grant->data, NULL, 0, grant->reason);
	} else {
		grant->done(grant->data, (const char *const *)grant->paths, grant->count, NULL);
	}
	grant_free(grant);
}

/*
 * The portal made the id; still, only what one path component that cannot climb may hold
 * goes into a path: letters, digits, and the '-' and '_' of xdg-document-portal 1.22's
 * base64url ids.
 */
static bool valid_id(const char *id) {
	return id[0] && strlen(id) < ID_MAX && strcmp(id, "by-app") != 0 &&
		id[strspn(
			id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")] ==
		'\0';
}

static int handle_add_reply(sd_bus_message *reply, void *data, sd_bus_error *ret_error) {
	struct call *call = data;
	struct cordon_folder_grant *grant = call->grant;
	call->slot = sd_bus_slot_unref(call->slot);
	const sd_bus_error *error = sd_bus_message_get_error(reply);
	char **ids = NULL;
	if (error) {
		wlr_log(WLR_ERROR, "Folder grant for %s: the document portal refused: %s",
			cordon_log_text(grant->app_id),
			cordon_log_text(error->message ? error->message : error->name));
		grant->reason = "the document portal refused the folder";
	} else if (sd_bus_message_read_strv(reply, &ids) < 0 || !ids || !ids[0] || ids[1] ||
		!valid_id(ids[0])) {
		wlr_log(WLR_ERROR,
			"Folder grant for %s: a bad reply from the document portal (%s document "
			"id '%s')",
			cordon_log_text(grant->app_id),
			!ids || !ids[0]  ? "no"
				: ids[1] ? "more than one"
					 : "one",
			ids && ids[0] ? cordon_log_text(ids[0]) : "");
		grant->reason = "the document portal gave no document for the folder";
	} else if (asprintf(&grant->paths[call->index], "%s/%s/%s", grant->root, ids[0],
			   grant->names[call->index]) < 0) {
		grant->paths[call->index] = NULL;
		grant->reason = "out of memory";
	} else {
		wlr_log(WLR_INFO, "Folder grant for %s: '%s' is its document %s",
			cordon_log_text(grant->app_id), cordon_log_text(grant->names[call->index]),
			ids[0]);
	}
	for (char **p = ids; p && *p; p++) {
		free(*p);
	}
	free(ids);
	if (--grant->pending == 0) {
		finish(grant);
	}
	return 0;
}

/* One AddFull call for one folder: an O_PATH fd of it, as the portal wants, read and write. */
static int send_add(struct cordon_folder_grant *grant, size_t index, int fd) {
	/* "." of the folder cordon opened with O_NOFOLLOW: the same folder, no link followed. */
	int path_fd = openat(fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (path_fd < 0) {
		return -1;
	}
	sd_bus *bus = grant->host->session_bus;
	sd_bus_message *m = NULL;
	int r = sd_bus_message_new_method_call(
		bus, &m, PORTAL_NAME, PORTAL_PATH, PORTAL_INTERFACE, "AddFull");
	if (r >= 0) {
		/* sd-bus keeps a duplicate of the fd in the message. */
		r = sd_bus_message_append(m, "ah", 1, path_fd);
	}
	close(path_fd);
	if (r >= 0) {
		r = sd_bus_message_append(
			m, "us", ADD_FLAG_REUSE_EXISTING | ADD_FLAG_DIRECTORY, grant->app_id);
	}
	if (r >= 0) {
		r = sd_bus_message_append_strv(m, (char *[]){"read", "write", NULL});
	}
	struct call *call = &grant->calls[index];
	call->grant = grant;
	call->index = index;
	if (r >= 0) {
		r = sd_bus_call_async(bus, &call->slot, m, handle_add_reply, call, 0);
	}
	sd_bus_message_unref(m);
	return r;
}

struct cordon_folder_grant *cordon_folder_grant_start(const struct cordon_portal_host *host,
	const char *app_id, const int *fds, const char *const *names, size_t count,
	cordon_folder_grant_done_fn done, void *data) {
	if (!host->session_bus || count == 0 || !app_id[0]) {
		return NULL;
	}
	struct cordon_folder_grant *grant = calloc(1, sizeof(*grant));
	if (!grant) {
		return NULL;
	}
	grant->host = host;
	grant->done = done;
	grant->data = data;
	grant->count = count;
	snprintf(grant->root, sizeof(grant->root), "/run/user/%u/doc", (unsigned)getuid());
	grant->app_id = strdup(app_id);
	grant->calls = calloc(count, sizeof(*grant->calls));
	grant->names = calloc(count, sizeof(*grant->names));
	grant->paths = calloc(count, sizeof(*grant->paths));
	if (!grant->app_id || !grant->calls || !grant->names || !grant->paths) {
		grant_free(grant);
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		grant->names[i] = strdup(names[i]);
		if (!grant->names[i] || send_add(grant, i, fds[i]) < 0) {
			wlr_log(WLR_ERROR, "Folder grant for %s: cannot ask the document portal",
				cordon_log_text(app_id));
			grant_free(grant);
			return NULL;
		}
		grant->pending++;
	}
	host->session_bus_changed(host->data);
	return grant;
}
