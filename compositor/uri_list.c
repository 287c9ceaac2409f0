/*
 * The uri-list that crosses a sandbox boundary with files (docs/mediation.md). The source
 * chooses every byte of it, so the parser keeps only what cordon knows how to carry: local
 * file paths (which file_grants.c exports and rewrites, never passing the host path on) and
 * web links; everything else is dropped, with its line and the reason. No I/O here: the
 * unit test runs it as a table.
 */
#include "compositor/uri_list.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int hex_value(char c) {
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	return -1;
}

/* Decodes %XX escapes. NULL with *reason set for a bad escape or an encoded NUL. */
static char *percent_decode(const char *s, size_t len, const char **reason) {
	char *out = malloc(len + 1);
	if (!out) {
		*reason = NULL;
		return NULL;
	}
	size_t j = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '%') {
			out[j++] = s[i];
			continue;
		}
		int hi = i + 2 < len ? hex_value(s[i + 1]) : -1;
		int lo = i + 2 < len ? hex_value(s[i + 2]) : -1;
		if (hi < 0 || lo < 0) {
			free(out);
			*reason = "bad percent escape";
			return NULL;
		}
		char c = (char)(hi * 16 + lo);
		if (c == '\0') {
			free(out);
			*reason = "an encoded NUL";
			return NULL;
		}
		out[j++] = c;
		i += 2;
	}
	out[j] = '\0';
	return out;
}

static bool has_scheme(const char *line, size_t len, const char *scheme) {
	size_t n = strlen(scheme);
	return len > n && strncasecmp(line, scheme, n) == 0 && line[n] == ':';
}

/*
 * One line, without its end: the kept URI's text, or NULL when dropped (with *reason set) or
 * out of memory (*reason NULL).
 */
static char *parse_line(
	const char *line, size_t len, enum cordon_uri_kind *kind, const char **reason) {
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c <= ' ' || c == 0x7f) {
			*reason = "a blank or control character";
			return NULL;
		}
	}
	if (has_scheme(line, len, "http") || has_scheme(line, len, "https")) {
		char *text = strndup(line, len);
		*reason = NULL;
		*kind = CORDON_URI_WEB;
		return text;
	}
	if (!has_scheme(line, len, "file")) {
		*reason = "a scheme other than file, http or https";
		return NULL;
	}
	const char *rest = line + 5;
	size_t rest_len = len - 5;
	if (rest_len >= 2 && rest[0] == '/' && rest[1] == '/') {
		/* file://HOST/PATH: only the local host, spelt empty or "localhost". */
		const char *slash = memchr(rest + 2, '/', rest_len - 2);
		if (!slash) {
			*reason = "a file URI without a path";
			return NULL;
		}
		size_t host_len = (size_t)(slash - (rest + 2));
		if (host_len != 0 &&
			!(host_len == 9 && strncasecmp(rest + 2, "localhost", 9) == 0)) {
			*reason = "a file URI of another host";
			return NULL;
		}
		rest_len -= (size_t)(slash - rest);
		rest = slash;
	}
	if (rest_len == 0 || rest[0] != '/') {
		*reason = "a file URI whose path is not absolute";
		return NULL;
	}
	if (memchr(rest, '?', rest_len) || memchr(rest, '#', rest_len)) {
		*reason = "a file URI with a query or fragment";
		return NULL;
	}
	char *path = percent_decode(rest, rest_len, reason);
	*kind = CORDON_URI_FILE;
	return path;
}

bool cordon_uri_list_parse(const char *data, size_t len, struct cordon_uri_list *list,
	cordon_uri_drop_fn drop, void *drop_data) {
	memset(list, 0, sizeof(*list));
	size_t line_number = 0;
	size_t pos = 0;
	while (pos < len) {
		const char *start = data + pos;
		const char *end = memchr(start, '\n', len - pos);
		size_t line_len = end ? (size_t)(end - start) : len - pos;
		pos += line_len + (end ? 1 : 0);
		line_number++;
		if (line_len > 0 && start[line_len - 1] == '\r') {
			line_len--;
		}
		if (line_len == 0 || start[0] == '#') {
			continue;
		}
		const char *reason = NULL;
		enum cordon_uri_kind kind = CORDON_URI_FILE;
		char *text = NULL;
		if (list->count >= CORDON_URI_LIST_MAX_ENTRIES) {
			reason = "too many entries";
		} else {
			text = parse_line(start, line_len, &kind, &reason);
		}
		if (!text) {
			if (!reason) {
				cordon_uri_list_finish(list);
				return false;
			}
			list->dropped++;
			if (drop) {
				drop(drop_data, line_number, reason);
			}
			continue;
		}
		struct cordon_uri *uris = realloc(list->uris, (list->count + 1) * sizeof(*uris));
		if (!uris) {
			free(text);
			cordon_uri_list_finish(list);
			return false;
		}
		list->uris = uris;
		list->uris[list->count++] = (struct cordon_uri){.kind = kind, .text = text};
	}
	return true;
}

void cordon_uri_list_finish(struct cordon_uri_list *list) {
	for (size_t i = 0; i < list->count; i++) {
		free(list->uris[i].text);
	}
	free(list->uris);
	memset(list, 0, sizeof(*list));
}

void cordon_uri_buffer_init(struct cordon_uri_buffer *buffer, size_t max) {
	memset(buffer, 0, sizeof(*buffer));
	buffer->max = max;
}

void cordon_uri_buffer_finish(struct cordon_uri_buffer *buffer) {
	free(buffer->data);
	memset(buffer, 0, sizeof(*buffer));
}

static bool buffer_reserve(struct cordon_uri_buffer *buffer, size_t more) {
	if (more > buffer->max || buffer->len > buffer->max - more) {
		return false;
	}
	if (buffer->len + more + 1 <= buffer->cap) {
		return true;
	}
	size_t cap = buffer->cap ? buffer->cap : 256;
	while (cap < buffer->len + more + 1) {
		cap *= 2;
	}
	char *data = realloc(buffer->data, cap);
	if (!data) {
		return false;
	}
	buffer->data = data;
	buffer->cap = cap;
	return true;
}

static bool unreserved(unsigned char c) {
	return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

bool cordon_uri_append_file(struct cordon_uri_buffer *buffer, const char *path) {
	size_t need = strlen("file://") + 2;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		need += unreserved(*p) ? 1 : 3;
	}
	if (!buffer_reserve(buffer, need)) {
		return false;
	}
	static const char hex[] = "0123456789ABCDEF";
	char *out = buffer->data + buffer->len;
	out += sprintf(out, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (unreserved(*p)) {
			*out++ = (char)*p;
		} else {
			*out++ = '%';
			*out++ = hex[*p >> 4];
			*out++ = hex[*p & 0xf];
		}
	}
	*out++ = '\r';
	*out++ = '\n';
	*out = '\0';
	buffer->len += need;
	return true;
}

bool cordon_uri_append_line(struct cordon_uri_buffer *buffer, const char *uri) {
	size_t len = strlen(uri);
	if (!buffer_reserve(buffer, len + 2)) {
		return false;
	}
	memcpy(buffer->data + buffer->len, uri, len);
	memcpy(buffer->data + buffer->len + len, "\r\n", 3);
	buffer->len += len + 2;
	return true;
}

/*
 * A document id: letters and digits, and since xdg-document-portal 1.22 (base64url ids)
 * '-' and '_'. Never '.' or '/': an id is one path component that cannot climb.
 */
static bool document_id_char(char c) {
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

bool cordon_document_id_valid(const char *id, size_t size) {
	size_t len = 0;
	while (document_id_char(id[len])) {
		len++;
	}
	/* The portal's per-app view sits beside the documents: it is not one. */
	return len > 0 && id[len] == '\0' && len < size && strcmp(id, "by-app") != 0;
}

bool cordon_uri_split_document(const char *path, const char *root, char *doc_id, size_t id_size,
	char *name, size_t name_size) {
	size_t root_len = strlen(root);
	if (strncmp(path, root, root_len) != 0 || path[root_len] != '/') {
		return false;
	}
	const char *id = path + root_len + 1;
	size_t id_len = 0;
	while (document_id_char(id[id_len])) {
		id_len++;
	}
	if (id_len == 0 || id[id_len] != '/' || id_len >= id_size) {
		return false;
	}
	/* The portal's per-app view sits beside the documents: it is not one. */
	if (id_len == strlen("by-app") && strncmp(id, "by-app", id_len) == 0) {
		return false;
	}
	const char *base = id + id_len + 1;
	size_t base_len = strlen(base);
	if (base_len == 0 || base_len >= name_size || strchr(base, '/') || strcmp(base, ".") == 0 ||
		strcmp(base, "..") == 0) {
		return false;
	}
	memcpy(doc_id, id, id_len);
	doc_id[id_len] = '\0';
	memcpy(name, base, base_len + 1);
	return true;
}
