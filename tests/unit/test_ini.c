/* Unit tests for the INI reader: what the callback sees, and where errors point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ini.h"

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)

static void check(bool ok, const char *what, const char *file, int line) {
	if (!ok) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
		failures++;
	}
}

static void check_str(const char *got, const char *want, const char *file, int line) {
	if (got == NULL || strcmp(got, want) != 0) {
		fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", file, line,
			got != NULL ? got : "(null)", want);
		failures++;
	}
}

#define CHECK_STR(got, want) check_str((got), (want), __FILE__, __LINE__)

/* Records every call as "section|key|value|line" lines; refuses the key "stop". */
struct recorder {
	char log[4096];
	int calls;
};

static bool record(void *data, const char *section, const char *key, const char *value, int line,
	char **reason) {
	struct recorder *rec = data;
	rec->calls++;
	if (key != NULL && strcmp(key, "stop") == 0) {
		*reason = value[0] != '\0' ? strdup(value) : NULL;
		return false;
	}
	size_t len = strlen(rec->log);
	snprintf(rec->log + len, sizeof(rec->log) - len, "%s|%s|%s|%d\n", section,
		key != NULL ? key : "-", value != NULL ? value : "-", line);
	return true;
}

static bool parse(const char *text, struct recorder *rec, char **error) {
	memset(rec, 0, sizeof(*rec));
	return cordon_ini_parse_string(text, "t.ini", record, rec, error);
}

/* The same text through a FILE, as the config loader reads it. */
static bool parse_as_file(const char *text, size_t len, struct recorder *rec, char **error) {
	memset(rec, 0, sizeof(*rec));
	FILE *file = fmemopen((void *)text, len, "r");
	if (file == NULL) {
		perror("fmemopen");
		exit(1);
	}
	bool ok = cordon_ini_parse_file(file, "f.ini", record, rec, error);
	fclose(file);
	return ok;
}

static void test_basic(void) {
	const char *text = "# a comment\n"
			   "; another comment\n"
			   "\n"
			   "[one]\n"
			   "a = 1\n"
			   "  b=two words  \n"
			   "\tc =\t\n"
			   "d = x = y\n"
			   "e = keep # and ; in values\n"
			   "  [ two ]  \n"
			   "   # indented comment\n"
			   "f = last";
	const char *want = "one|-|-|4\n"
			   "one|a|1|5\n"
			   "one|b|two words|6\n"
			   "one|c||7\n"
			   "one|d|x = y|8\n"
			   "one|e|keep # and ; in values|9\n"
			   "two|-|-|10\n"
			   "two|f|last|12\n";
	struct recorder rec;
	char *error = (char *)"unset";
	CHECK(parse(text, &rec, &error));
	CHECK(error == NULL);
	CHECK_STR(rec.log, want);

	CHECK(parse_as_file(text, strlen(text), &rec, &error));
	CHECK(error == NULL);
	CHECK_STR(rec.log, want);
}

static void test_crlf_and_bom(void) {
	const char *text = "\xef\xbb\xbf[s]\r\nk = v\r\n\r\n";
	struct recorder rec;
	char *error = NULL;
	CHECK(parse(text, &rec, &error));
	CHECK_STR(rec.log, "s|-|-|1\ns|k|v|2\n");
	CHECK(parse_as_file(text, strlen(text), &rec, &error));
	CHECK_STR(rec.log, "s|-|-|1\ns|k|v|2\n");
}

static void test_empty(void) {
	struct recorder rec;
	char *error = NULL;
	CHECK(parse("", &rec, &error));
	CHECK(rec.calls == 0);
	CHECK(parse("\n\n# only comments\n", &rec, &error));
	CHECK(rec.calls == 0);
	CHECK(parse_as_file("", 0, &rec, &error));
	CHECK(rec.calls == 0);
}

static void expect_error(const char *text, const char *want) {
	struct recorder rec;
	char *error = NULL;
	CHECK(!parse(text, &rec, &error));
	CHECK_STR(error, want);
	free(error);

	/* and the FILE reader says the same, under its own name */
	error = NULL;
	CHECK(!parse_as_file(text, strlen(text), &rec, &error));
	CHECK(error != NULL && strncmp(error, "f.ini:", 6) == 0);
	CHECK(error != NULL && strcmp(error + 6, want + 6) == 0);
	free(error);
}

static void test_errors(void) {
	expect_error("[s]\n\n[broken\n",
		"t.ini:3: a section header must end with ']' (comments take a whole line)");
	expect_error("[s] # no\n",
		"t.ini:1: a section header must end with ']' (comments take a whole line)");
	expect_error("# x\n[  ]\n", "t.ini:2: empty section name");
	expect_error("[a[b]\n", "t.ini:1: '[' or ']' inside the section name");
	expect_error("key = value\n", "t.ini:1: 'key' comes before any [section]");
	expect_error("[s]\nk = v\njust words\n",
		"t.ini:3: expected '[section]', 'key = value' or a comment, got 'just words'");
	expect_error("[s]\n = v\n", "t.ini:2: missing key before '='");
	expect_error("[s]\nstop = no thanks\n", "t.ini:2: no thanks");
	expect_error("[s]\n\nstop =\n", "t.ini:3: out of memory");
}

static void test_stops_at_first_error(void) {
	struct recorder rec;
	char *error = NULL;
	CHECK(!parse("[s]\nbad line\nk = v\n[t]\n", &rec, &error));
	CHECK(rec.calls == 1);
	CHECK(error != NULL && strncmp(error, "t.ini:2: ", 9) == 0);
	free(error);
}

static void test_error_pointer_optional(void) {
	struct recorder rec;
	CHECK(!parse("nonsense\n", &rec, NULL));
	CHECK(parse("[s]\n", &rec, NULL));
}

static void test_nul_byte(void) {
	static const char text[] = "[s]\nk = a\0b\n";
	struct recorder rec;
	char *error = NULL;
	CHECK(!parse_as_file(text, sizeof(text) - 1, &rec, &error));
	CHECK_STR(error, "f.ini:2: NUL byte in the line");
	free(error);
}

static void test_read_error(void) {
	/* Linux opens a directory for reading; reading it then fails with EISDIR. */
	FILE *file = fopen("/", "r");
	if (file == NULL) {
		return;
	}
	struct recorder rec = {0};
	char *error = NULL;
	CHECK(!cordon_ini_parse_file(file, "/", record, &rec, &error));
	CHECK_STR(error, "/: Is a directory");
	free(error);
	fclose(file);
}

static bool accept_all(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	return true;
}

/*
 * Random lines made of the characters that matter to the grammar. Whatever
 * comes in, the reader must not crash (ASan watches) and any error must name
 * a line that exists.
 */
static void test_garbage(void) {
	static const char alphabet[] = "[]=#; \t\r\n\nab\0\xef";
	unsigned int seed = 12345;
	char text[256];
	for (int round = 0; round < 20000; round++) {
		size_t len = 1 + (size_t)(rand_r(&seed) % (sizeof(text) - 1));
		int lines = 1;
		for (size_t i = 0; i < len; i++) {
			text[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
			lines += text[i] == '\n';
		}

		FILE *file = fmemopen(text, len, "r");
		if (file == NULL) {
			perror("fmemopen");
			exit(1);
		}
		char *error = NULL;
		bool ok = cordon_ini_parse_file(file, "g", accept_all, NULL, &error);
		fclose(file);
		if (ok) {
			CHECK(error == NULL);
			continue;
		}
		int line = 0;
		CHECK(error != NULL && sscanf(error, "g:%d: ", &line) == 1);
		CHECK(line >= 1 && line <= lines);
		free(error);
	}
}

int main(void) {
	test_basic();
	test_crlf_and_bom();
	test_empty();
	test_errors();
	test_stops_at_first_error();
	test_error_pointer_optional();
	test_nul_byte();
	test_read_error();
	test_garbage();
	if (failures > 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("test_ini: all checks passed\n");
	return 0;
}
