/* File helpers of cordon-app's transactions: every write is a temporary file, fsync, rename. */
#ifndef CORDON_APPS_FILES_H
#define CORDON_APPS_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p, each new directory with mode. */
bool cordon_mkdirs(const char *path, unsigned mode);
/* path's new content: path.tmp written, fsynced, renamed over path, the directory fsynced. */
bool cordon_write_atomic(
	const char *path, const void *data, size_t len, unsigned mode, char **error);
/* dir/name written and fsynced (inside a staging directory that is renamed later). */
bool cordon_write_at(int dirfd, const char *name, const void *data, size_t len, char **error);
bool cordon_fsync_path(const char *path);
/* rm -r without following symlinks (an app's data dir is written by the app). */
bool cordon_remove_tree(const char *path);
/* The whole of a small file, NUL-terminated; NULL when missing or larger than max. */
char *cordon_read_file(const char *path, size_t max, size_t *len);

#endif
