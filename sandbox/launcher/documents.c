/*
 * The app's own documents (docs/sandbox.md, docs/mediation.md): when the host's document
 * portal (xdg-document-portal) is mounted at $XDG_RUNTIME_DIR/doc, its by-app/APP_ID view
 * is bound at the sandbox's XDG_RUNTIME_DIR/doc, where Flatpak puts it too and where the
 * paths cordon rewrites pasted and dropped files to point. In that view the portal shows
 * only the documents granted to APP_ID, and checks each access itself; the rest of the
 * host's documents stay out of reach.
 *
 * The view is a FUSE file system: the kernel lets only the user who mounted it in (no
 * allow_other), so another user's runtime dir gives nothing, which is not an error (the app
 * runs without documents). The sandbox maps the user to itself, so inside the access
 * check still passes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/*
 * Whether path is the mount point of a FUSE file system, from mountinfo: the portal answers
 * statfs with EPERM, so f_type cannot tell. Mount points there escape blanks as \ooo.
 */
static bool is_fuse_mount(const char *path) {
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (f == NULL) {
		return false;
	}
	char line[4096];
	bool found = false;
	while (fgets(line, sizeof(line), f) != NULL) {
		char point[4096], type[256];
		/* ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
		const char *dash = strstr(line, " - ");
		if (dash == NULL || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
			sscanf(dash + 3, "%255s", type) != 1) {
			continue;
		}
		char *out = point;
		for (const char *in = point; *in != '\0'; in++) {
			if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] != '\0' &&
				in[3] != '\0') {
				*out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 +
					(in[3] - '0'));
				in += 3;
			} else {
				*out++ = *in;
			}
		}
		*out = '\0';
		/* The last mount at a point is the one seen there. */
		if (strcmp(point, path) == 0) {
			found = strncmp(type, "fuse", 4) == 0;
		}
	}
	fclose(f);
	return found;
}

void cordon_launch_open_documents(struct cordon_launch *launch) {
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime == NULL || runtime[0] != '/') {
		return;
	}
	cleanup_free char *doc = cordon_strdup_printf("%s/doc", runtime);
	if (!is_fuse_mount(doc)) {
		cordon_debug("no document portal at %s: the app has no documents", doc);
		return;
	}
	cleanup_fd int doc_fd = open(doc, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (doc_fd < 0) {
		cordon_debug("the document portal at %s is not ours to use (%s): the app has no "
			     "documents",
			doc, strerror(errno));
		return;
	}
	/* Looking the app's dir up is what makes the portal create it. */
	cleanup_fd int by_app =
		openat(doc_fd, "by-app", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = by_app < 0 ? -1
			    : openat(by_app, launch->options.app_id,
				      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		cordon_debug("the document portal at %s has no view for %s (%s): the app has no "
			     "documents",
			doc, launch->options.app_id, strerror(errno));
		return;
	}
	launch->documents_fd = fd;
	launch->documents_host_path = strdup(doc);
	cordon_debug("documents: %s/by-app/%s", doc, launch->options.app_id);
}
