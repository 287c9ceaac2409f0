/*
 * Unit tests for the uri-list that crosses with files (compositor/uri_list.c): what is kept
 * and how it is decoded, what is dropped and the line and reason given for it, the encoding
 * of rewritten paths, and the split of a document view path.
 */
#include <stdlib.h>

#include "check.h"
#include "compositor/uri_list.h"

struct drops {
	size_t lines[16];
	const char *reasons[16];
	size_t count;
};

static void record_drop(void *data, size_t line, const char *reason) {
	struct drops *drops = data;
	if (drops->count < 16) {
		drops->lines[drops->count] = line;
		drops->reasons[drops->count++] = reason;
	}
}

static void test_parse(void) {
	static const char list[] = "# a comment\r\n"
				   "file:///home/u/a%20b%C3%BC.txt\r\n"
				   "file://localhost/tmp/x\r\n"
				   "\r\n"
				   "https://example.org/page?q=1#top\r\n"
				   "ftp://example.org/file\r\n"
				   "file://otherhost/etc/passwd\r\n"
				   "file:///with space\r\n"
				   "file:///bad%zzescape\r\n"
				   "file:///nul%00byte\r\n"
				   "file:/single/slash\n"
				   "file:relative\r\n"
				   "file:///q?x\r\n"
				   "javascript:alert(1)\r\n"
				   "HTTP://EXAMPLE.ORG/\r\n"
				   "file:///last/without/end";
	struct drops drops = {0};
	struct cordon_uri_list parsed;
	CHECK(cordon_uri_list_parse(list, sizeof(list) - 1, &parsed, record_drop, &drops));
	CHECK(parsed.count == 6);
	if (parsed.count == 6) {
		CHECK(parsed.uris[0].kind == CORDON_URI_FILE);
		CHECK_STR(parsed.uris[0].text, "/home/u/a b\xc3\xbc.txt");
		CHECK_STR(parsed.uris[1].text, "/tmp/x");
		CHECK(parsed.uris[2].kind == CORDON_URI_WEB);
		CHECK_STR(parsed.uris[2].text, "https://example.org/page?q=1#top");
		CHECK_STR(parsed.uris[3].text, "/single/slash");
		CHECK(parsed.uris[4].kind == CORDON_URI_WEB);
		CHECK_STR(parsed.uris[5].text, "/last/without/end");
	}
	CHECK(parsed.dropped == 8 && drops.count == 8);
	static const size_t lines[] = {6, 7, 8, 9, 10, 12, 13, 14};
	static const char *const reasons[] = {
		"a scheme other than file, http or https",
		"a file URI of another host",
		"a blank or control character",
		"bad percent escape",
		"an encoded NUL",
		"a file URI whose path is not absolute",
		"a file URI with a query or fragment",
		"a scheme other than file, http or https",
	};
	for (size_t i = 0; i < 8 && i < drops.count; i++) {
		CHECK(drops.lines[i] == lines[i]);
		CHECK_STR(drops.reasons[i], reasons[i]);
	}
	cordon_uri_list_finish(&parsed);
}

static void test_edges(void) {
	struct cordon_uri_list parsed;
	CHECK(cordon_uri_list_parse("", 0, &parsed, NULL, NULL) && parsed.count == 0);
	cordon_uri_list_finish(&parsed);
	/* A NUL byte in the data is a control character, not the end of the line. */
	static const char nul[] = "file:///a\0/etc/passwd\r\n";
	CHECK(cordon_uri_list_parse(nul, sizeof(nul) - 1, &parsed, NULL, NULL));
	CHECK(parsed.count == 0 && parsed.dropped == 1);
	cordon_uri_list_finish(&parsed);
	/* A truncated escape at the very end. */
	CHECK(cordon_uri_list_parse("file:///a%4", 11, &parsed, NULL, NULL));
	CHECK(parsed.count == 0 && parsed.dropped == 1);
	cordon_uri_list_finish(&parsed);
	CHECK(cordon_uri_list_parse("file:///a%41", 12, &parsed, NULL, NULL));
	CHECK(parsed.count == 1 && strcmp(parsed.uris[0].text, "/aA") == 0);
	cordon_uri_list_finish(&parsed);
	CHECK(cordon_uri_list_parse("file://", 7, &parsed, NULL, NULL) && parsed.count == 0);
	cordon_uri_list_finish(&parsed);
	/* Many entries: the ones past the cap are dropped, not kept. */
	size_t n = CORDON_URI_LIST_MAX_ENTRIES + 10;
	char *big = malloc(n * 8 + 1);
	for (size_t i = 0; i < n; i++) {
		memcpy(big + i * 8, "file:///", 8);
		big[i * 8 + 7] = '\n';
		big[i * 8 + 6] = 'x';
		big[i * 8 + 5] = '/';
	}
	CHECK(cordon_uri_list_parse(big, n * 8, &parsed, NULL, NULL));
	CHECK(parsed.count == CORDON_URI_LIST_MAX_ENTRIES && parsed.dropped == 10);
	cordon_uri_list_finish(&parsed);
	free(big);
}

static void test_encode(void) {
	struct cordon_uri_buffer buffer;
	cordon_uri_buffer_init(&buffer, 1024);
	CHECK(cordon_uri_append_file(
		&buffer, "/run/user/1000/doc/ab12/r\xc3\xa9sum\xc3\xa9 #1%?&.txt"));
	CHECK(cordon_uri_append_line(&buffer, "https://example.org/"));
	CHECK_STR(buffer.data,
		"file:///run/user/1000/doc/ab12/r%C3%A9sum%C3%A9%20%231%25%3F%26.txt\r\n"
		"https://example.org/\r\n");
	/* Round trip through the parser. */
	struct cordon_uri_list parsed;
	CHECK(cordon_uri_list_parse(buffer.data, buffer.len, &parsed, NULL, NULL) &&
		parsed.count == 2);
	if (parsed.count == 2) {
		CHECK_STR(parsed.uris[0].text,
			"/run/user/1000/doc/ab12/r\xc3\xa9sum\xc3\xa9 #1%?&.txt");
	}
	cordon_uri_list_finish(&parsed);
	cordon_uri_buffer_finish(&buffer);
	/* The cap: an append that does not fit fails and leaves the buffer as it was. */
	cordon_uri_buffer_init(&buffer, 20);
	CHECK(cordon_uri_append_file(&buffer, "/a"));
	size_t len = buffer.len;
	CHECK(!cordon_uri_append_file(&buffer, "/a/long/path/that/does/not/fit"));
	CHECK(buffer.len == len && strcmp(buffer.data, "file:///a\r\n") == 0);
	cordon_uri_buffer_finish(&buffer);
}

static void test_split(void) {
	char id[64], name[256];
	const char *root = "/run/user/1000/doc";
	CHECK(cordon_uri_split_document(
		"/run/user/1000/doc/a1b2/x y.txt", root, id, sizeof(id), name, sizeof(name)));
	CHECK_STR(id, "a1b2");
	CHECK_STR(name, "x y.txt");
	/* xdg-document-portal 1.22 makes base64url ids. */
	CHECK(cordon_uri_split_document("/run/user/1000/doc/bYDxiaAbyvPfI5j_QAI9-g/x.txt", root, id,
		sizeof(id), name, sizeof(name)));
	CHECK_STR(id, "bYDxiaAbyvPfI5j_QAI9-g");
	CHECK_STR(name, "x.txt");
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/by-app/x", root, id, sizeof(id), name, sizeof(name)));
	CHECK(cordon_document_id_valid("bYDxiaAbyvPfI5j_QAI9-g", 64));
	CHECK(!cordon_document_id_valid("", 64));
	CHECK(!cordon_document_id_valid("..", 64));
	CHECK(!cordon_document_id_valid("a/b", 64));
	CHECK(!cordon_document_id_valid("by-app", 64));
	CHECK(!cordon_document_id_valid("abcdefgh", 8));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/a1b2/sub/x", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/a1b2/..", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/a1b2/.", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/a1b2/", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/../etc/passwd", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc/by-app/x/y", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/docx/a1/x", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document(
		"/run/user/1000/doc", root, id, sizeof(id), name, sizeof(name)));
	CHECK(!cordon_uri_split_document("/etc/passwd", root, id, sizeof(id), name, sizeof(name)));
	/*
	 * An app's uri-list may name a document id of any length: one that does not fit the id
	 * buffer is refused before it is copied (it once went into 64 bytes, checked after).
	 * Guard bytes on both sides show that nothing was written beyond the buffer.
	 */
	struct {
		char id[64];
		char guard[16];
	} fenced;
	memset(fenced.guard, 0x5a, sizeof(fenced.guard));
	char path[600];
	for (size_t len = 60; len <= 300; len++) {
		int n = snprintf(path, sizeof(path), "%s/", root);
		memset(path + n, 'a', len);
		snprintf(path + n + len, sizeof(path) - (size_t)n - len, "/file");
		bool split = cordon_uri_split_document(
			path, root, fenced.id, sizeof(fenced.id), name, sizeof(name));
		CHECK(split == (len < sizeof(fenced.id)));
		if (split) {
			CHECK(strlen(fenced.id) == len);
		}
	}
	for (size_t i = 0; i < sizeof(fenced.guard); i++) {
		CHECK(fenced.guard[i] == 0x5a);
	}
	/* The same for a name longer than its buffer. */
	char small_name[8];
	CHECK(cordon_uri_split_document("/run/user/1000/doc/ab/1234567", root, id, sizeof(id),
		small_name, sizeof(small_name)));
	CHECK(!cordon_uri_split_document("/run/user/1000/doc/ab/12345678", root, id, sizeof(id),
		small_name, sizeof(small_name)));
}

int main(void) {
	test_parse();
	test_edges();
	test_encode();
	test_split();
	return check_result();
}
