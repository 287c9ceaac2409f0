/*
 * The manifest (docs/apps.md), JSON signed with the bundle. Even signed, it is a store's text:
 * every string that reaches a desktop entry, policy.ini or a terminal is limited to characters
 * that cannot start a new line, section, field code or escape sequence there, and every
 * permission is checked against the policy's own key table (common/policy.c) by loading it as
 * a profile, so a permission cordon does not know is refused rather than ignored.
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "apps/manifest.h"
#include "common/app_id.h"
#include "common/escape.h"
#include "common/format.h"
#include "common/policy.h"

#ifndef CORDON_VERSION
#define CORDON_VERSION "0.0.0"
#endif

/* Keys of policy.ini that are not permissions an app may ask for. */
static const char *const not_permissions[] = {
	"profile", /* picks a profile: cordon-app writes it */
	"sandboxed", /* how cordon identifies host apps, not a grant */
	"sandboxed-launchers", /* the same */
	NULL,
};

const char *cordon_host_arch(void) {
	static struct utsname name;
	if (name.machine[0] == '\0' && uname(&name) < 0) {
		return "unknown";
	}
	return name.machine;
}

bool cordon_version_valid(const char *v) {
	int parts = 0;
	while (*v != '\0') {
		int digits = 0;
		while (*v >= '0' && *v <= '9') {
			v++;
			digits++;
		}
		if (digits == 0 || digits > 9 || ++parts > 4) {
			return false;
		}
		if (*v == '.') {
			v++;
			if (*v == '\0') {
				return false;
			}
		} else if (*v != '\0') {
			return false;
		}
	}
	return parts > 0;
}

int cordon_version_compare(const char *a, const char *b) {
	while (*a != '\0' || *b != '\0') {
		char *end_a = (char *)a, *end_b = (char *)b;
		long x = *a != '\0' ? strtol(a, &end_a, 10) : 0;
		long y = *b != '\0' ? strtol(b, &end_b, 10) : 0;
		if (x != y) {
			return x < y ? -1 : 1;
		}
		a = *end_a == '.' ? end_a + 1 : end_a;
		b = *end_b == '.' ? end_b + 1 : end_b;
	}
	return 0;
}

/*
 * Text shown in a desktop entry, a launcher or a terminal: nothing common/escape.c would escape
 * (controls, C1 controls, bytes that are not UTF-8, bidirectional overrides, line separators,
 * '\\'), and no '%' (a desktop entry field code). UTF-8 letters of any language pass.
 */
static bool text_safe(const char *s, size_t max) {
	size_t len = strlen(s);
	if (len == 0 || len > max || strchr(s, '%') != NULL) {
		return false;
	}
	char *escaped = cordon_escape_dup(s, 0);
	bool same = escaped != NULL && strcmp(escaped, s) == 0;
	free(escaped);
	return same;
}

/* A word of the command or a permission value: a small set that needs no quoting anywhere. */
static bool word_safe(const char *s, const char *extra, size_t max) {
	size_t len = strlen(s);
	if (len == 0 || len > max) {
		return false;
	}
	for (const char *p = s; *p != '\0'; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr(extra, *p) != NULL;
		if (!ok) {
			return false;
		}
	}
	return true;
}

__attribute__((format(printf, 3, 4))) static struct cordon_manifest *refuse(
	struct cordon_manifest *m, char **error, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*error = cordon_vformat(fmt, args);
	va_end(args);
	cordon_manifest_destroy(m);
	return NULL;
}

static const char *get_string(json_object *root, const char *key) {
	json_object *value;
	if (!json_object_object_get_ex(root, key, &value) ||
		!json_object_is_type(value, json_type_string)) {
		return NULL;
	}
	return json_object_get_string(value);
}

static bool dup_string(json_object *root, const char *key, char **out) {
	const char *s = get_string(root, key);
	if (s == NULL) {
		return false;
	}
	*out = strdup(s);
	return *out != NULL;
}

/* The permission is one key=value line of a profile that the policy loader accepts. */
static bool permission_ok(const char *key, const char *value, char **error) {
	for (size_t i = 0; not_permissions[i] != NULL; i++) {
		if (strcmp(key, not_permissions[i]) == 0) {
			*error = cordon_format(
				"permission '%s' is not a permission an app may ask for", key);
			return false;
		}
	}
	if (!word_safe(key, "-", 64)) {
		*error = cordon_format("a permission's name is not a policy key");
		return false;
	}
	if (value[0] != '\0' && !word_safe(value, "-_., *", 1024)) {
		*error = cordon_format("permission '%s': its value has characters a policy value "
				       "may not have",
			key);
		return false;
	}
	char *text = cordon_format("[profile manifest]\n%s = %s\n", key, value);
	char *reason = NULL;
	struct cordon_policy *policy =
		text != NULL ? cordon_policy_load_string(text, "manifest", &reason) : NULL;
	free(text);
	if (policy == NULL) {
		*error = cordon_format("unknown or invalid permission: %s",
			reason != NULL ? reason : "out of memory");
		free(reason);
		return false;
	}
	cordon_policy_destroy(policy);
	return true;
}

static bool parse_permissions(struct cordon_manifest *m, json_object *root, char **error) {
	json_object *perms;
	if (!json_object_object_get_ex(root, "permissions", &perms)) {
		return true;
	}
	if (!json_object_is_type(perms, json_type_object)) {
		*error = cordon_format("'permissions' must be an object of policy keys");
		return false;
	}
	json_object_object_foreach(perms, key, value) {
		if (m->permission_count == CORDON_MANIFEST_PERMISSIONS_MAX) {
			*error = cordon_format("too many permissions");
			return false;
		}
		if (!json_object_is_type(value, json_type_string)) {
			/* The key is the store's text, and cordon-app prints this. */
			*error = cordon_format(
				"permission '%s' must be a string", cordon_log_text(key));
			return false;
		}
		const char *v = json_object_get_string(value);
		if (!permission_ok(key, v, error)) {
			return false;
		}
		struct cordon_permission *p = &m->permissions[m->permission_count++];
		p->key = strdup(key);
		p->value = strdup(v);
		if (p->key == NULL || p->value == NULL) {
			*error = cordon_format("out of memory");
			return false;
		}
	}
	return true;
}

static bool parse_string_array(json_object *root, const char *key, char **out, size_t max,
	size_t *count, const char *extra, size_t word_max, char **error) {
	json_object *array;
	if (!json_object_object_get_ex(root, key, &array)) {
		return true;
	}
	if (!json_object_is_type(array, json_type_array) || json_object_array_length(array) > max) {
		*error = cordon_format("'%s' must be an array of at most %zu strings", key, max);
		return false;
	}
	for (size_t i = 0; i < json_object_array_length(array); i++) {
		json_object *item = json_object_array_get_idx(array, i);
		const char *s = json_object_is_type(item, json_type_string)
			? json_object_get_string(item)
			: NULL;
		if (s == NULL || !word_safe(s, extra, word_max)) {
			*error = cordon_format(
				"'%s' item %zu is not a plain word (letters, digits, %s)", key, i,
				extra);
			return false;
		}
		out[(*count)++] = strdup(s);
		if (out[*count - 1] == NULL) {
			*error = cordon_format("out of memory");
			return false;
		}
	}
	return true;
}

static struct cordon_manifest *check_fields(
	struct cordon_manifest *m, json_object *root, char **error) {
	if (!dup_string(root, "id", &m->id)) {
		return refuse(m, error, "manifest: '%s' is missing or not a string", "id");
	}
	const char *problem = cordon_app_id_problem(m->id);
	if (problem != NULL || strlen(m->id) > CORDON_APP_ID_SCOPE_MAX) {
		return refuse(m, error, "manifest: the app id is not valid: %s",
			problem != NULL ? problem : "too long for a scope name");
	}
	if (!dup_string(root, "version", &m->version) || !cordon_version_valid(m->version)) {
		return refuse(m, error, "manifest: '%s' must be dot-separated numbers", "version");
	}
	if (!dup_string(root, "name", &m->name) || !text_safe(m->name, 100)) {
		return refuse(m, error,
			"manifest: '%s' must be 1 to 100 printable characters without %%, \\ "
			"or control characters",
			"name");
	}
	if (get_string(root, "summary") != NULL &&
		(!dup_string(root, "summary", &m->summary) || !text_safe(m->summary, 200))) {
		return refuse(m, error, "manifest: '%s' has characters it may not have", "summary");
	}
	if (!dup_string(root, "arch", &m->arch)) {
		return refuse(m, error, "manifest: '%s' is missing", "arch");
	}
	if (strcmp(m->arch, cordon_host_arch()) != 0) {
		bool printable = word_safe(m->arch, "_-", 32);
		return refuse(m, error,
			"the bundle is built for another architecture (%.32s), this machine is %s",
			printable ? m->arch : "(not printable)", cordon_host_arch());
	}
	if (!dup_string(root, "min-cordon", &m->min_cordon) ||
		!cordon_version_valid(m->min_cordon)) {
		return refuse(m, error, "manifest: '%s' must be a version", "min-cordon");
	}
	if (cordon_version_compare(m->min_cordon, CORDON_VERSION) > 0) {
		return refuse(m, error,
			"the app needs cordon %s or newer (this is " CORDON_VERSION ")",
			m->min_cordon);
	}
	return m;
}

struct cordon_manifest *cordon_manifest_parse(const char *text, size_t len, char **error) {
	struct cordon_manifest *m = calloc(1, sizeof(*m));
	if (m == NULL) {
		*error = cordon_format("out of memory");
		return NULL;
	}
	/* A depth limit: a manifest is two levels deep; a deep one is an attack on the parser. */
	json_tokener *tok = json_tokener_new_ex(8);
	json_object *root = tok != NULL ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
	bool complete = tok != NULL && json_tokener_get_error(tok) == json_tokener_success &&
		json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	if (root == NULL || !complete || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return refuse(m, error, "manifest: %s", "not one JSON object");
	}
	if (check_fields(m, root, error) == NULL) {
		json_object_put(root);
		return NULL;
	}
	bool ok = parse_string_array(root, "command", m->command, CORDON_MANIFEST_COMMAND_MAX,
			  &m->command_len, "/._+=:,@-", 256, error) &&
		parse_string_array(root, "categories", m->categories,
			CORDON_MANIFEST_CATEGORIES_MAX, &m->category_count, "-", 64, error) &&
		parse_permissions(m, root, error);
	json_object_put(root);
	if (!ok) {
		char *reason = *error;
		*error = NULL;
		refuse(m, error, "manifest: %s", reason);
		free(reason);
		return NULL;
	}
	if (m->command_len == 0 || m->command[0][0] == '-') {
		return refuse(m, error, "manifest: %s",
			"'command' must name a program (not beginning with '-')");
	}
	return m;
}

void cordon_manifest_destroy(struct cordon_manifest *m) {
	if (m == NULL) {
		return;
	}
	free(m->id);
	free(m->version);
	free(m->name);
	free(m->summary);
	free(m->arch);
	free(m->min_cordon);
	for (size_t i = 0; i < m->command_len; i++) {
		free(m->command[i]);
	}
	for (size_t i = 0; i < m->permission_count; i++) {
		free(m->permissions[i].key);
		free(m->permissions[i].value);
	}
	for (size_t i = 0; i < m->category_count; i++) {
		free(m->categories[i]);
	}
	free(m);
}

char *cordon_manifest_profile_lines(const struct cordon_manifest *m) {
	char *lines = strdup("");
	for (size_t i = 0; lines != NULL && i < m->permission_count; i++) {
		char *next = cordon_format(
			"%s%s = %s\n", lines, m->permissions[i].key, m->permissions[i].value);
		free(lines);
		lines = next;
	}
	return lines;
}
