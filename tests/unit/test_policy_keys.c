/*
 * Every policy key cordon's code asks for is in common/policy.c's key table. A getter asked
 * for a key outside it aborts (the key is a typo in cordon, not in the user's file), so this
 * test reads the sources the way a reviewer would: each call of a cordon_policy_get* or
 * cordon_policy_list_contains, its key argument, and that key in the table. A key passed as
 * NAME[i] counts each string of the array NAME in the same file; any other expression fails
 * the test, so that no key can hide from it.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/policy.h"

/* The getters that take a key; the key is their fourth argument. */
static const char *const getters[] = {
	"cordon_policy_get",
	"cordon_policy_get_bool",
	"cordon_policy_get_uint",
	"cordon_policy_get_duration_ms",
	"cordon_policy_get_size",
	"cordon_policy_list_contains",
};
#define KEY_ARGUMENT 3
#define MAX_ARGUMENTS 8
#define MAX_ARGUMENT 256

struct scan {
	const char *file; /* what reports call the text */
	const char *text;
	size_t calls, keys; /* calls found, keys checked */
	size_t problems;
	char last_problem[512];
	bool quiet; /* the scanner's own test: its problems are expected */
};

static void problem(struct scan *scan, size_t at, const char *what, const char *detail) {
	int line = 1;
	for (size_t i = 0; i < at; i++) {
		line += scan->text[i] == '\n';
	}
	snprintf(scan->last_problem, sizeof(scan->last_problem), "%s:%d: %s%s", scan->file, line,
		what, detail);
	if (!scan->quiet) {
		fprintf(stderr, "%s\n", scan->last_problem);
	}
	scan->problems++;
}

/* Past a comment, string or character literal starting at i; i itself when none starts. */
static size_t skip_literal(const char *text, size_t i) {
	if (text[i] == '/' && text[i + 1] == '/') {
		const char *end = strchr(text + i, '\n');
		return end ? (size_t)(end - text) : strlen(text);
	}
	if (text[i] == '/' && text[i + 1] == '*') {
		const char *end = strstr(text + i + 2, "*/");
		return end ? (size_t)(end - text) + 2 : strlen(text);
	}
	if (text[i] == '"' || text[i] == '\'') {
		char quote = text[i++];
		while (text[i] && text[i] != quote) {
			i += text[i] == '\\' && text[i + 1] ? 2 : 1;
		}
		return text[i] ? i + 1 : i;
	}
	return i;
}

static bool is_ident(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_';
}

/* Text without surrounding space, at most MAX_ARGUMENT - 1 characters. */
static void copy_trimmed(char *out, const char *from, size_t len) {
	while (len > 0 && (*from == ' ' || *from == '\t' || *from == '\n')) {
		from++;
		len--;
	}
	while (len > 0 &&
		(from[len - 1] == ' ' || from[len - 1] == '\t' || from[len - 1] == '\n')) {
		len--;
	}
	if (len >= MAX_ARGUMENT) {
		len = MAX_ARGUMENT - 1;
	}
	memcpy(out, from, len);
	out[len] = '\0';
}

/* The arguments of the call whose '(' is at open; their count, or 0 when it does not close. */
static size_t split_arguments(const char *text, size_t open, char args[][MAX_ARGUMENT]) {
	size_t count = 0, start = open + 1, depth = 0;
	for (size_t i = open + 1; text[i];) {
		size_t past = skip_literal(text, i);
		if (past != i) {
			i = past;
			continue;
		}
		char c = text[i];
		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			depth--;
		} else if ((c == ',' || c == ')') && depth == 0) {
			if (count == MAX_ARGUMENTS) {
				return 0;
			}
			copy_trimmed(args[count++], text + start, i - start);
			if (c == ')') {
				return count;
			}
			start = i + 1;
		}
		i++;
	}
	return 0;
}

static void check_key(struct scan *scan, size_t at, const char *key, size_t len) {
	char name[MAX_ARGUMENT];
	snprintf(name, sizeof(name), "%.*s", (int)len, key);
	scan->keys++;
	if (!cordon_policy_has_key(name)) {
		problem(scan, at,
			"asks for a policy key that is not in common/policy.c's table: ", name);
	}
}

/* Each string in the initializer of "ARRAY[] = {...}" in the scanned text. */
static bool check_array_keys(struct scan *scan, size_t at, const char *array) {
	char declaration[MAX_ARGUMENT + 8];
	snprintf(declaration, sizeof(declaration), "%s[] = {", array);
	const char *found = strstr(scan->text, declaration);
	if (!found) {
		return false;
	}
	size_t strings = 0;
	for (const char *c = found + strlen(declaration); *c && *c != '}'; c++) {
		if (*c == '"') {
			const char *end = strchr(c + 1, '"');
			if (!end) {
				return false;
			}
			check_key(scan, at, c + 1, (size_t)(end - c - 1));
			strings++;
			c = end;
		}
	}
	return strings > 0;
}

static void check_call(struct scan *scan, size_t at, size_t open) {
	char args[MAX_ARGUMENTS][MAX_ARGUMENT];
	size_t count = split_arguments(scan->text, open, args);
	scan->calls++;
	if (count <= KEY_ARGUMENT) {
		problem(scan, at, "a policy getter call this test cannot read", "");
		return;
	}
	const char *key = args[KEY_ARGUMENT];
	size_t len = strlen(key);
	if (len >= 2 && key[0] == '"' && strchr(key + 1, '"') == key + len - 1) {
		check_key(scan, at, key + 1, len - 2);
		return;
	}
	/* NAME[i]: the strings of the array NAME declared in this file. */
	const char *bracket = strchr(key, '[');
	char array[MAX_ARGUMENT];
	snprintf(array, sizeof(array), "%.*s", bracket ? (int)(bracket - key) : 0, key);
	if (bracket && array[0] && key[len - 1] == ']' && check_array_keys(scan, at, array)) {
		return;
	}
	problem(scan, at,
		"the key is neither a string literal nor NAME[i] of an array of literals "
		"in this file: ",
		key);
}

static void scan_text(struct scan *scan) {
	const char *text = scan->text;
	for (size_t i = 0; text[i];) {
		size_t past = skip_literal(text, i);
		if (past != i) {
			i = past;
			continue;
		}
		if (!is_ident(text[i]) || (i > 0 && is_ident(text[i - 1]))) {
			i++;
			continue;
		}
		size_t end = i;
		while (is_ident(text[end])) {
			end++;
		}
		size_t open = end;
		while (text[open] == ' ' || text[open] == '\t' || text[open] == '\n') {
			open++;
		}
		for (size_t g = 0; text[open] == '(' && g < sizeof(getters) / sizeof(getters[0]);
			g++) {
			if (strlen(getters[g]) == end - i &&
				strncmp(text + i, getters[g], end - i) == 0) {
				check_call(scan, i, open);
			}
		}
		i = end;
	}
}

static char *read_file(const char *path) {
	FILE *file = fopen(path, "re");
	if (!file) {
		return NULL;
	}
	size_t size = 0, cap = 0;
	char *text = NULL;
	for (;;) {
		if (cap - size < 4096) {
			cap = cap ? cap * 2 : 65536;
			char *grown = realloc(text, cap);
			if (!grown) {
				free(text);
				fclose(file);
				return NULL;
			}
			text = grown;
		}
		size_t n = fread(text + size, 1, cap - size - 1, file);
		size += n;
		if (n == 0) {
			break;
		}
	}
	fclose(file);
	text[size] = '\0';
	return text;
}

/* The totals over the tree, for nftw's callback (which takes no data pointer). */
static struct scan tree_totals;

static int scan_source(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	size_t len = strlen(path);
	/* policy.c's own getters pass their key parameter on: they are what is checked. */
	if (type != FTW_F || len < 2 || strcmp(path + len - 2, ".c") != 0 ||
		strstr(path, "/common/policy.c")) {
		return 0;
	}
	char *text = read_file(path);
	if (!text) {
		fprintf(stderr, "cannot read %s\n", path);
		tree_totals.problems++;
		return 0;
	}
	struct scan scan = {.file = path, .text = text};
	scan_text(&scan);
	tree_totals.calls += scan.calls;
	tree_totals.keys += scan.keys;
	tree_totals.problems += scan.problems;
	free(text);
	return 0;
}

/* The scanner itself: a typo, a comment, an array and an expression it cannot follow. */
static void test_scanner(void) {
	struct scan scan = {
		.file = "sample.c",
		.quiet = true,
		.text = "/* cordon_policy_get(p, id, NULL, \"not-a-key\") in a comment */\n"
			"x = cordon_policy_get_bool(p, id, NULL, \"freeze\", f(a, b));\n"
			"s = \"cordon_policy_get(p, id, NULL, \\\"nor-this\\\")\";\n"
			"y = cordon_policy_get_bool(p, id, NULL, \"freez\", true);\n",
	};
	scan_text(&scan);
	CHECK(scan.calls == 2 && scan.keys == 2 && scan.problems == 1);
	CHECK(strstr(scan.last_problem, "sample.c:4: ") != NULL);
	CHECK(strstr(scan.last_problem, ": freez") != NULL);

	scan = (struct scan){
		.file = "array.c",
		.quiet = true,
		.text = "const char *keys[] = {\"dbus-talk\", \"dbus-tlak\"};\n"
			"v = cordon_policy_get(p, id, NULL, keys[i]);\n"
			"w = cordon_policy_list_contains(p, id, NULL, name, \"x\");\n",
	};
	scan_text(&scan);
	CHECK(scan.calls == 2 && scan.keys == 2 && scan.problems == 2);
	CHECK(strstr(scan.last_problem, "array.c:3: the key is neither") != NULL);
}

int main(void) {
	test_scanner();

	const char *dirs[] = {"apps", "common", "compositor", "portals", "sandbox"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", CORDON_SOURCE_ROOT, dirs[i]);
		if (nftw(path, scan_source, 16, FTW_PHYS) != 0) {
			fprintf(stderr, "cannot walk %s\n", path);
			failures++;
		}
	}
	printf("%zu policy getter calls, %zu keys asked for, %zu not in the table\n",
		tree_totals.calls, tree_totals.keys, tree_totals.problems);
	/* Fewer calls than the tree has had since the freeze keys came would mean a blind scan. */
	CHECK(tree_totals.calls >= 20);
	CHECK(tree_totals.problems == 0);
	return check_result();
}
