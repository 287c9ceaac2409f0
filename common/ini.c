#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/ini.h"

struct ini_parser {
	const char *name;
	cordon_ini_handler handler;
	void *data;
	char *section; /* NULL until the first "[section]" line */
	int line;
	char *error; /* "NAME:LINE: reason" once something failed */
};

__attribute__((format(printf, 2, 3))) static void set_error(
	struct ini_parser *parser, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	char *reason = cordon_vformat(fmt, args);
	va_end(args);

	const char *text = reason != NULL ? reason : "out of memory";
	free(parser->error);
	parser->error = cordon_format("%s:%d: %s", parser->name, parser->line, text);
	free(reason);
}

static bool is_space(char c) {
	return isspace((unsigned char)c);
}

/* Trims in place: returns the first non-space character and cuts the trailing spaces. */
static char *trim(char *s) {
	while (is_space(*s)) {
		s++;
	}
	size_t len = strlen(s);
	while (len > 0 && is_space(s[len - 1])) {
		s[--len] = '\0';
	}
	return s;
}

static bool call_handler(struct ini_parser *parser, const char *key, const char *value) {
	char *reason = NULL;
	if (parser->handler(parser->data, parser->section, key, value, parser->line, &reason)) {
		free(reason);
		return true;
	}
	set_error(parser, "%s", reason != NULL ? reason : "out of memory");
	free(reason);
	return false;
}

static bool parse_section(struct ini_parser *parser, char *line) {
	size_t len = strlen(line);
	if (line[len - 1] != ']') {
		set_error(
			parser, "a section header must end with ']' (comments take a whole line)");
		return false;
	}
	line[len - 1] = '\0';
	char *name = trim(line + 1);
	if (name[0] == '\0') {
		set_error(parser, "empty section name");
		return false;
	}
	if (strpbrk(name, "[]") != NULL) {
		set_error(parser, "'[' or ']' inside the section name");
		return false;
	}

	char *section = strdup(name);
	if (section == NULL) {
		set_error(parser, "out of memory");
		return false;
	}
	free(parser->section);
	parser->section = section;
	return call_handler(parser, NULL, NULL);
}

static bool parse_key_value(struct ini_parser *parser, char *line) {
	char *eq = strchr(line, '=');
	if (eq == NULL) {
		set_error(parser, "expected '[section]', 'key = value' or a comment, got '%.60s'",
			line);
		return false;
	}
	*eq = '\0';
	char *key = trim(line);
	char *value = trim(eq + 1);
	if (key[0] == '\0') {
		set_error(parser, "missing key before '='");
		return false;
	}
	if (parser->section == NULL) {
		set_error(parser, "'%.60s' comes before any [section]", key);
		return false;
	}
	return call_handler(parser, key, value);
}

/* line is one line of the input without its '\n'; len counts any NUL bytes in it. */
static bool parse_line(struct ini_parser *parser, char *line, size_t len) {
	parser->line++;
	if (memchr(line, '\0', len) != NULL) {
		set_error(parser, "NUL byte in the line");
		return false;
	}
	/* Editors on some systems start UTF-8 files with a byte order mark. */
	if (parser->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
	}

	char *text = trim(line);
	if (text[0] == '\0' || text[0] == '#' || text[0] == ';') {
		return true;
	}
	if (text[0] == '[') {
		return parse_section(parser, text);
	}
	return parse_key_value(parser, text);
}

/* Hands the error to the caller (who may not want it) and frees the rest. */
static bool finish(struct ini_parser *parser, bool ok, char **error) {
	free(parser->section);
	if (ok || error == NULL) {
		free(parser->error);
		parser->error = NULL;
	}
	if (error != NULL) {
		*error = parser->error;
	}
	return ok;
}

bool cordon_ini_parse_file(
	FILE *file, const char *name, cordon_ini_handler handler, void *data, char **error) {
	struct ini_parser parser = {
		.name = name,
		.handler = handler,
		.data = data,
	};

	char *buf = NULL;
	size_t cap = 0;
	bool ok = true;
	ssize_t len;
	while (ok) {
		errno = 0;
		len = getline(&buf, &cap, file);
		if (len < 0) {
			break;
		}
		if (len > 0 && buf[len - 1] == '\n') {
			buf[--len] = '\0';
		}
		ok = parse_line(&parser, buf, (size_t)len);
	}
	int read_errno = errno != 0 ? errno : EIO;
	free(buf);

	if (ok && ferror(file)) {
		free(parser.error);
		parser.error = cordon_format("%s: %s", name, strerror(read_errno));
		ok = false;
	}
	return finish(&parser, ok, error);
}

bool cordon_ini_parse_string(
	const char *text, const char *name, cordon_ini_handler handler, void *data, char **error) {
	struct ini_parser parser = {
		.name = name,
		.handler = handler,
		.data = data,
	};

	bool ok = true;
	const char *start = text;
	while (ok && *start != '\0') {
		const char *end = strchr(start, '\n');
		size_t len = end != NULL ? (size_t)(end - start) : strlen(start);
		char *line = strndup(start, len);
		if (line == NULL) {
			parser.line++;
			set_error(&parser, "out of memory");
			ok = false;
			break;
		}
		ok = parse_line(&parser, line, len);
		free(line);
		start += len;
		if (*start == '\n') {
			start++;
		}
	}
	return finish(&parser, ok, error);
}
