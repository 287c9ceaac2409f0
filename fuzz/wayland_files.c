/* The files a text/uri-list of the Wayland fuzzer names (wayland_files.h). */
#include "wayland_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wayland_oracle.h"

/* Entries of FUZZ_FILE_LONG: past file_grants.c's 1024, in more than 16 AddFull calls. */
#define LONG_ENTRIES 1100

static void die(const char *what) {
	fprintf(stderr, "fuzz-wayland: fixture files: %s: %s\n", what, strerror(errno));
	abort();
}

static void make_file(const char *dir, const char *name) {
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *file = fopen(path, "we");
	if (!file || fputs("cordon fuzz fixture\n", file) < 0 || fclose(file) != 0) {
		die(path);
	}
}

static void make_dir(const char *dir, const char *name) {
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkdir(path, 0700) != 0) {
		die(path);
	}
}

void fuzz_files_hidden(const char *dir, char *out, size_t size) {
	snprintf(out, size, "%s/hidden", dir);
}

void fuzz_files_create(const char *dir) {
	char path[4096], target[4096];
	make_dir(dir, "files");
	make_dir(dir, "hidden");
	make_file(dir, "files/plain.txt");
	make_file(dir, "files/spaced name%.txt");
	make_file(dir, "hidden/secret.txt");
	make_file(dir, "hidden/inside.txt");
	make_dir(dir, "files/folder");
	make_dir(dir, "files/closed");
	make_file(dir, "files/closed/inner.txt");
	/* Symlinks to what no list names: a grant of their target is one through the link. */
	snprintf(path, sizeof(path), "%s/files/link.txt", dir);
	snprintf(target, sizeof(target), "%s/hidden/secret.txt", dir);
	if (symlink(target, path) != 0) {
		die(path);
	}
	snprintf(path, sizeof(path), "%s/files/via", dir);
	snprintf(target, sizeof(target), "%s/hidden", dir);
	if (symlink(target, path) != 0) {
		die(path);
	}
	snprintf(path, sizeof(path), "%s/files/fifo", dir);
	if (mkfifo(path, 0600) != 0) {
		die(path);
	}
	/* Mode 0 (root, as in scripts/env, still opens what is inside). */
	snprintf(path, sizeof(path), "%s/files/closed", dir);
	if (chmod(path, 0) != 0) {
		die(path);
	}
}

static void append(struct fuzz_uri_list *list, const char *text, size_t length) {
	if (length > sizeof(list->bytes) - list->length) {
		length = sizeof(list->bytes) - list->length;
	}
	memcpy(list->bytes + list->length, text, length);
	list->length += length;
}

static void append_text(struct fuzz_uri_list *list, const char *text) {
	append(list, text, strlen(text));
}

/* A file URI of a path under the scratch folder (its name needs no escape: mkdtemp's). */
static void append_scratch(
	struct fuzz_uri_list *list, const char *prefix, const char *dir, const char *rest) {
	append_text(list, prefix);
	append_text(list, dir);
	append_text(list, rest);
	append_text(list, "\r\n");
}

/*
 * The blank line ends whatever came before in a reader's pipe (a list a full pipe cut
 * short); the comment is the writer's marker, which a list rewritten by cordon loses. The
 * oracle takes only the line right after a marker as passed on unchanged.
 */
static void append_marker(struct fuzz_uri_list *list, enum fuzz_sandbox writer) {
	char marker[64];
	size_t marker_length = fuzz_oracle_marker(writer, marker, sizeof(marker));
	append_text(list, "\r\n#");
	append(list, marker, marker_length > 0 ? marker_length - 1 : 0);
	append_text(list, "\r\n");
}

/*
 * The kinds that are one fixed entry: text is a path under the scratch folder, written after
 * prefix, or, without a prefix, the whole URI.
 */
static const struct {
	const char *prefix;
	const char *text;
} fixed_entries[] = {
	[FUZZ_FILE_PLAIN] = {"file://", "/files/plain.txt"},
	[FUZZ_FILE_SYMLINK] = {"file://", "/files/link.txt"},
	[FUZZ_FILE_THROUGH_SYMLINK] = {"file://", "/files/via/inside.txt"},
	[FUZZ_FILE_DIRECTORY] = {"file://", "/files/folder"},
	[FUZZ_FILE_FIFO] = {"file://", "/files/fifo"},
	[FUZZ_FILE_CLOSED] = {"file://", "/files/closed/inner.txt"},
	[FUZZ_FILE_PASSWD] = {NULL, "file:///etc/passwd"},
	[FUZZ_FILE_ENVIRON] = {NULL, "file:///proc/self/environ"},
	[FUZZ_FILE_DEVICE] = {NULL, "file:///dev/null"},
	[FUZZ_FILE_DOTDOT] = {"file://", "/files/folder/../plain.txt"},
	[FUZZ_FILE_ESCAPED] = {"file://", "/files/sp%61ced%20name%25.txt"},
	[FUZZ_FILE_ESCAPED_DOTDOT] = {"file://", "/files/via/%2e%2e/files/plain.txt"},
	[FUZZ_FILE_NUL] = {"file://", "/files/plain.txt%00.png"},
	[FUZZ_FILE_LOCALHOST] = {"file://localhost", "/files/plain.txt"},
	[FUZZ_FILE_WEB] = {NULL, "https://example.org/a%20b?c#d"},
};

void fuzz_files_append(struct fuzz_uri_list *list, const char *dir, enum fuzz_sandbox writer,
	enum fuzz_file_kind kind, const uint8_t *raw, size_t raw_length, const char *document) {
	append_marker(list, writer);
	if ((size_t)kind < sizeof(fixed_entries) / sizeof(fixed_entries[0]) &&
		fixed_entries[kind].text) {
		if (fixed_entries[kind].prefix) {
			append_scratch(
				list, fixed_entries[kind].prefix, dir, fixed_entries[kind].text);
		} else {
			append_text(list, fixed_entries[kind].text);
			append_text(list, "\r\n");
		}
		return;
	}
	switch (kind) {
	case FUZZ_FILE_LONG:
		append_text(list, "file:///etc/passwd\r\n");
		for (int i = 1; i < LONG_ENTRIES; i++) {
			append_marker(list, writer);
			append_text(list, "file:///etc/passwd\r\n");
		}
		break;
	case FUZZ_FILE_DOCUMENT:
	case FUZZ_FILE_OTHERS_DOCUMENT:
		/* Made up when the side was given none: a document it does not hold. */
		append_text(
			list, *document ? document : "file:///run/user/0/doc/d0c0ffee/plain.txt");
		append_text(list, "\r\n");
		break;
	case FUZZ_FILE_RAW:
		for (size_t i = 0; i < raw_length; i++) {
			/* One line: a raw entry cannot pass for a marker of its own. */
			char byte = raw[i] == '\r' || raw[i] == '\n' ? ' ' : (char)raw[i];
			append(list, &byte, 1);
		}
		append_text(list, "\r\n");
		break;
	default: /* the fixed entries above, and FUZZ_FILE_KIND_COUNT */
		break;
	}
}
