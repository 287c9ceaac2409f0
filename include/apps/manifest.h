/* The bundle's manifest: what the app is, what it runs and the permissions it asks for. */
#ifndef CORDON_APPS_MANIFEST_H
#define CORDON_APPS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define CORDON_MANIFEST_COMMAND_MAX 32
#define CORDON_MANIFEST_PERMISSIONS_MAX 32
#define CORDON_MANIFEST_CATEGORIES_MAX 8

struct cordon_permission {
	char *key;
	char *value;
};

struct cordon_manifest {
	char *id;
	char *version;
	char *name;
	char *summary; /* may be NULL */
	char *arch;
	char *min_cordon;
	char *command[CORDON_MANIFEST_COMMAND_MAX + 1]; /* NULL-terminated */
	size_t command_len;
	struct cordon_permission permissions[CORDON_MANIFEST_PERMISSIONS_MAX];
	size_t permission_count;
	char *categories[CORDON_MANIFEST_CATEGORIES_MAX];
	size_t category_count;
};

/*
 * Parses and checks a manifest against this host (its architecture and cordon's version) and
 * the policy key table: an unknown permission, a value the policy would refuse, text that could
 * break out of a desktop entry or policy.ini line are refusals. NULL with *error (malloc'ed)
 * naming the field.
 */
struct cordon_manifest *cordon_manifest_parse(const char *text, size_t len, char **error);
void cordon_manifest_destroy(struct cordon_manifest *manifest);

/* The permissions as policy.ini lines ("key = value\n"...), malloc'ed. */
char *cordon_manifest_profile_lines(const struct cordon_manifest *manifest);

/* The host's architecture as manifests name it (uname's machine). */
const char *cordon_host_arch(void);

/* Versions: dot-separated numbers, up to 4 parts of up to 9 digits. */
bool cordon_version_valid(const char *version);
/* <0, 0, >0 as strcmp; both must be valid. */
int cordon_version_compare(const char *a, const char *b);

#endif
