/* text/uri-list (RFC 2483) as it crosses a sandbox boundary: parsed, checked, rewritten; pure. */
#ifndef CORDON_COMPOSITOR_URI_LIST_H
#define CORDON_COMPOSITOR_URI_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* The most of a uri-list cordon reads from a source, and the most entries it keeps. */
#define CORDON_URI_LIST_MAX (1024 * 1024)
#define CORDON_URI_LIST_MAX_ENTRIES 1024

enum cordon_uri_kind {
	CORDON_URI_FILE, /* a local file: text is its decoded absolute path */
	CORDON_URI_WEB, /* http or https: text is the URI as the source gave it */
};

struct cordon_uri {
	enum cordon_uri_kind kind;
	char *text;
};

struct cordon_uri_list {
	struct cordon_uri *uris;
	size_t count;
	size_t dropped; /* lines that were not kept (reported through the drop callback) */
};

/* A line that is not kept: its 1-based number and why. */
typedef void (*cordon_uri_drop_fn)(void *data, size_t line, const char *reason);

/*
 * Parses a uri-list. Kept: file:///PATH and file://localhost/PATH (PATH percent-decoded,
 * absolute, without NUL, query or fragment), http and https URIs. Dropped, each reported
 * with its line: other schemes, file URIs of another host, anything with a blank or a
 * control character, bad percent escapes. Comments and empty lines are skipped. Returns
 * false only when out of memory. drop may be NULL.
 */
bool cordon_uri_list_parse(const char *data, size_t len, struct cordon_uri_list *list,
	cordon_uri_drop_fn drop, void *drop_data);
void cordon_uri_list_finish(struct cordon_uri_list *list);

/* A growing string, capped: appending past max fails and leaves it as it was. */
struct cordon_uri_buffer {
	char *data; /* NUL-terminated */
	size_t len, cap, max;
};

void cordon_uri_buffer_init(struct cordon_uri_buffer *buffer, size_t max);
void cordon_uri_buffer_finish(struct cordon_uri_buffer *buffer);
/* Appends "file://PATH\r\n" with PATH percent-encoded (all but unreserved bytes and '/'). */
bool cordon_uri_append_file(struct cordon_uri_buffer *buffer, const char *path);
/* Appends "URI\r\n" as it is (a web URI the parser kept). */
bool cordon_uri_append_line(struct cordon_uri_buffer *buffer, const char *uri);

/*
 * Whether ID, shorter than SIZE, is a document id the portal may have made: one path
 * component of letters, digits, '-' and '_' (xdg-document-portal 1.22's base64url ids),
 * never '.', '/' or the portal's by-app view.
 */
bool cordon_document_id_valid(const char *id, size_t size);
/*
 * Splits a path inside a document view (ROOT/DOC_ID/NAME, ROOT e.g. /run/user/1000/doc):
 * DOC_ID as cordon_document_id_valid says, NAME one component that is not "." or "..".
 * Returns false for anything else, and for an id or a name that does not fit its buffer
 * (ID_SIZE and NAME_SIZE bytes, NUL included): the lengths are checked before anything is
 * copied.
 */
bool cordon_uri_split_document(const char *path, const char *root, char *doc_id, size_t id_size,
	char *name, size_t name_size);

#endif
