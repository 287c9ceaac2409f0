/*
 * The Wayland fuzzer's policy oracle: the rules of cordon's isolation, checked from the
 * clients' side after every step. A broken rule prints what broke and aborts, so that
 * libFuzzer keeps the input as a finding (docs/fuzzing.md, "The policy oracle").
 */
#ifndef CORDON_FUZZ_WAYLAND_ORACLE_H
#define CORDON_FUZZ_WAYLAND_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "wayland_cordon.h"

#define FUZZ_ORACLE_OWNED 512

/* The files the fuzzer's clients made, by inode, with the sandbox of the client that made each. */
struct fuzz_oracle {
	struct {
		dev_t dev;
		ino_t ino;
		enum fuzz_sandbox sandbox;
	} owned[FUZZ_ORACLE_OWNED];
	int owned_count;
};

/* Records fd as made by a client of this sandbox. */
void fuzz_oracle_own_fd(struct fuzz_oracle *oracle, int fd, enum fuzz_sandbox sandbox);

/* What a source client writes when asked for its data: the marker of its sandbox. */
size_t fuzz_oracle_marker(enum fuzz_sandbox sandbox, char *buffer, size_t size);

/* A client of this sandbox was told of this global: a sandboxed one only of offered ones. */
void fuzz_oracle_check_global(enum fuzz_sandbox receiver, const char *interface);

/*
 * What cordon holds for a client of this sandbox: no object of a host-only global, however
 * it asked (a bind by a name it was not told, a wrong interface or version).
 */
void fuzz_oracle_check_resources(struct wl_client *client, enum fuzz_sandbox sandbox);

/* An fd came to a client of this sandbox with an event: never one of another sandbox's. */
void fuzz_oracle_check_fd(const struct fuzz_oracle *oracle, int fd, enum fuzz_sandbox receiver,
	const char *interface, const char *event);

/*
 * Bytes came out of a pipe a client of this sandbox gave cordon to read a selection or a drop
 * into: data from across a boundary reaches a sandboxed reader only after the user acted on
 * one of its surfaces (a key or button the fuzzer injected while it had the focus).
 */
void fuzz_oracle_check_data(
	const char *bytes, size_t length, enum fuzz_sandbox reader, bool user_acted);

/* What came through one reader's pipe so far, for the uri-list rule: its last line. */
struct fuzz_oracle_stream {
	char line[1024];
	size_t length; /* of the line so far; past the buffer only its start is kept */
	bool after_own_marker; /* the line before was a marker of the reader's own side */
};

/*
 * What the oracle asks the document portal (which documents an app holds) and the fuzzer
 * (which documents the lists of an app's clients name).
 */
struct fuzz_oracle_portal {
	const char *mount_point; /* the portal's view on the host */
	bool (*holds)(void *data, enum fuzz_sandbox app, const char *id);
	bool (*wrote)(void *data, enum fuzz_sandbox app, const char *id);
	void *data;
};

/*
 * The file URIs of a text/uri-list that crossed a boundary (every one that does not come
 * right after a marker of the reader's own side: those were passed on as written) name only
 * documents: for a sandboxed reader, a document in its own view (/run/user/UID/doc/ID/NAME,
 * NAME one name) that the portal says its app holds, read after a user action in it; for a
 * host reader, a document in the portal's view on the host that an app whose clients' lists
 * name it holds (not one another app holds). Never a host path. The last
 * document URI a reader read goes in document (size bytes), for lists its side writes.
 */
void fuzz_oracle_check_uris(struct fuzz_oracle_stream *stream, const char *bytes, size_t length,
	enum fuzz_sandbox reader, bool user_acted, const struct fuzz_oracle_portal *portal,
	char *document, size_t size);

/*
 * A document an app holds (its host path): none without a user action in one of its surfaces in
 * this input (the fuzzer deletes them all at the end of each), and each of a regular file reached
 * without a symlink (its host path is its real path), never of a file in hidden (the folder
 * only symlinks lead to). Folders are left out: the file chooser grants them as documents
 * after a choice in cordon's own dialog (portals/folder_grant.c).
 */
void fuzz_oracle_check_document(
	const char *path, enum fuzz_sandbox app, bool user_acted, const char *hidden);

/* A host client's wl_display.sync was answered within the bound. */
void fuzz_oracle_check_roundtrip(bool answered, bool disconnected);

/*
 * With every client gone, cordon holds no more fds than before the input (its output's
 * swapchain buffers, counted apart, grow to their cap of 4 at most).
 */
void fuzz_oracle_check_fd_count(int now, int baseline, int swapchain, int swapchain_baseline);

#endif
