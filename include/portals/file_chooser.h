/* The file chooser portal: cordon_portal_file_chooser_v1 requests, and the fds it opens. */
#ifndef CORDON_PORTALS_FILE_CHOOSER_H
#define CORDON_PORTALS_FILE_CHOOSER_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_portals;

/* What manager.get_file_chooser does: a new request object with id ID for CLIENT. */
void cordon_file_chooser_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id, uint32_t kind);

/*
 * Opens the chosen NAME in DIR_FD as both doors hand it over: O_NOFOLLOW (a name
 * swapped for a symbolic link is refused), a regular file (or a folder with DIRECTORY),
 * read-write and created for SAVE, else read-only. -1 with *reason (static text).
 */
int cordon_file_chooser_open_at(int dir_fd, const char *name, bool save, bool directory,
	const char *token, const char **reason);

/*
 * Creates NAME in DIR_FD for a save the user did not confirm as a replacement: a new
 * regular file or nothing (O_CREAT | O_EXCL, so never a file or link that exists).
 * -1 with *exists true when the name is taken.
 */
int cordon_file_chooser_create_at(int dir_fd, const char *name, const char *token, bool *exists);

#endif
