/*
 * The files a text/uri-list of the Wayland fuzzer names (wayland_files.c): real files the
 * fuzzer makes in its scratch folder, one of each kind a hostile source would name (a
 * regular file, a symlink to a file nobody listed, a path through a symlinked folder, a
 * folder, a fifo, a file in a closed folder, ../ and %-escapes), host files outside it
 * (/etc/passwd, /proc/self/environ, /dev/null), a web link, a very long list, a document
 * path, and bytes from the input.
 */
#ifndef CORDON_FUZZ_WAYLAND_FILES_H
#define CORDON_FUZZ_WAYLAND_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wayland_cordon.h"

/* What one source writes: enough for a list past file_grants.c's 1024 entries. */
#define FUZZ_URI_LIST_MAX (80 * 1024)

enum fuzz_file_kind {
	FUZZ_FILE_PLAIN,
	FUZZ_FILE_SYMLINK, /* to a file no list names */
	FUZZ_FILE_THROUGH_SYMLINK, /* a file in a folder reached through a symlink */
	FUZZ_FILE_DIRECTORY,
	FUZZ_FILE_FIFO,
	FUZZ_FILE_CLOSED, /* in a folder of mode 0 */
	FUZZ_FILE_PASSWD,
	FUZZ_FILE_ENVIRON, /* /proc/self/environ: cordon's own environment */
	FUZZ_FILE_DEVICE,
	FUZZ_FILE_DOTDOT,
	FUZZ_FILE_ESCAPED, /* %-escapes that name a real file */
	FUZZ_FILE_ESCAPED_DOTDOT, /* %2e%2e */
	FUZZ_FILE_NUL, /* %00 */
	FUZZ_FILE_LOCALHOST,
	FUZZ_FILE_WEB,
	FUZZ_FILE_LONG, /* 1100 entries */
	FUZZ_FILE_DOCUMENT, /* a document path a client of the writer's side was given */
	FUZZ_FILE_OTHERS_DOCUMENT, /* one a client of another side was given */
	FUZZ_FILE_RAW, /* bytes from the input, one line */
	FUZZ_FILE_KIND_COUNT,
};

struct fuzz_uri_list {
	char bytes[FUZZ_URI_LIST_MAX];
	size_t length;
};

/* Makes the files in dir/files and dir/hidden (once, when the cordon is made). */
void fuzz_files_create(const char *dir);

/* The folder only symlinks lead to: no document may ever be of a file in it. */
void fuzz_files_hidden(const char *dir, char *out, size_t size);

/*
 * Appends an entry of this kind, after the writer's marker line (what the oracle knows a
 * list by when it was passed on as it was, not rewritten). raw: the input's bytes for
 * FUZZ_FILE_RAW; document: the URI for FUZZ_FILE_DOCUMENT and FUZZ_FILE_OTHERS_DOCUMENT ("" for
 * none yet). What does not
 * fit is left out.
 */
void fuzz_files_append(struct fuzz_uri_list *list, const char *dir, enum fuzz_sandbox writer,
	enum fuzz_file_kind kind, const uint8_t *raw, size_t raw_length, const char *document);

#endif
