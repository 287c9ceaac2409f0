/*
 * text/uri-list as it crosses a sandbox boundary (compositor/uri_list.c): every byte is the
 * source app's. Oracle: at most CORDON_URI_LIST_MAX_ENTRIES kept; every line either kept or
 * dropped with a reason; a file entry is an absolute path, a web entry has no blank or
 * control byte; what cordon writes back for an entry (the rewritten list) parses to the same
 * entry, and so does the D-Bus door's URI for a file; a document-view path splits into an id
 * of letters and digits and one plain name.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compositor/uri_list.h"
#include "fuzz.h"
#include "portals/dbus_options.h"

static size_t drops;

static void count_drop(void *data, size_t line, const char *reason) {
	fuzz_require(reason != NULL && line > 0, "a dropped line has its number and a reason");
	drops++;
}

static void check_round_trip(const struct cordon_uri *uri) {
	struct cordon_uri_buffer buffer;
	cordon_uri_buffer_init(&buffer, CORDON_URI_LIST_MAX);
	bool written = uri->kind == CORDON_URI_FILE ? cordon_uri_append_file(&buffer, uri->text)
						    : cordon_uri_append_line(&buffer, uri->text);
	if (!written) {
		/* Only a path too long to encode in the list's cap may fail. */
		fuzz_require(
			strlen(uri->text) * 3 + 9 > CORDON_URI_LIST_MAX, "an entry is written");
		cordon_uri_buffer_finish(&buffer);
		return;
	}
	struct cordon_uri_list again;
	fuzz_require(cordon_uri_list_parse(buffer.data, buffer.len, &again, NULL, NULL),
		"the rewritten list parses");
	fuzz_require(again.count == 1 && again.dropped == 0, "the rewritten entry is kept");
	fuzz_require(again.uris[0].kind == uri->kind && strcmp(again.uris[0].text, uri->text) == 0,
		"the rewritten entry is the same entry");
	cordon_uri_list_finish(&again);
	cordon_uri_buffer_finish(&buffer);
}

/* The D-Bus door writes its answers' URIs itself (portals/dbus/options.c): the same path back. */
static void check_dbus_uri(const char *path) {
	char *uri = cordon_dbus_file_uri(path);
	fuzz_require(uri != NULL, "memory");
	struct cordon_uri_list again;
	fuzz_require(cordon_uri_list_parse(uri, strlen(uri), &again, NULL, NULL) &&
			again.count == 1 && again.uris[0].kind == CORDON_URI_FILE &&
			strcmp(again.uris[0].text, path) == 0,
		"the D-Bus door's URI for a path parses back to the path");
	cordon_uri_list_finish(&again);
	free(uri);
}

static void check_document(const char *path) {
	char id[16], name[256];
	if (!cordon_uri_split_document(
		    path, "/run/user/1000/doc", id, sizeof(id), name, sizeof(name))) {
		return;
	}
	fuzz_require(id[0] != '\0', "a document id is not empty");
	/* xdg-document-portal 1.22's ids are base64url: letters, digits, '-' and '_'. */
	for (const char *c = id; *c; c++) {
		fuzz_require(isalnum((unsigned char)*c) || *c == '-' || *c == '_',
			"a document id is letters, digits, '-' and '_' (one component, never '.')");
	}
	fuzz_require(strcmp(id, "by-app") != 0, "the per-app view is not a document");
	fuzz_require(name[0] != '\0' && !strchr(name, '/') && strcmp(name, ".") != 0 &&
			strcmp(name, "..") != 0,
		"a document's name is one plain component");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct cordon_uri_list list;
	drops = 0;
	if (!cordon_uri_list_parse((const char *)data, size, &list, count_drop, NULL)) {
		return 0;
	}
	fuzz_require(list.count <= CORDON_URI_LIST_MAX_ENTRIES, "the entries are capped");
	fuzz_require(list.dropped == drops, "every dropped line is reported");
	for (size_t i = 0; i < list.count; i++) {
		const struct cordon_uri *uri = &list.uris[i];
		if (uri->kind == CORDON_URI_FILE) {
			fuzz_require(uri->text[0] == '/', "a file entry is an absolute path");
			check_document(uri->text);
			check_dbus_uri(uri->text);
		} else {
			fuzz_require(
				uri->kind == CORDON_URI_WEB, "an entry is a file or a web link");
			for (const unsigned char *c = (const unsigned char *)uri->text; *c; c++) {
				fuzz_require(*c > ' ' && *c != 0x7f,
					"a web link has no blank or control");
			}
		}
		check_round_trip(uri);
	}
	cordon_uri_list_finish(&list);
	return 0;
}
