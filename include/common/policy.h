/* Per-app policy: named profiles and [app ID] sections from policy.ini, read by cordon and
 * cordon-run. */
#ifndef CORDON_COMMON_POLICY_H
#define CORDON_COMMON_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The file (docs/policy.md) has two kinds of sections:
 *
 *	[profile NAME]   a named set of permissions; the built-in ones (default,
 *	                 network-client, game, devel) may be extended or changed
 *	[app APP_ID]     one app: "profile = NAME" picks its profile (default:
 *	                 "default"), any other key overrides the profile's value
 *
 * Every key is declared once, with its type, in the table in common/policy.c;
 * an unknown key, a bad value or a profile that does not exist is a load error.
 */
struct cordon_policy;

/*
 * Loads the built-in profiles and then path. path NULL means the default
 * location (cordon_user_config_path("policy.ini")), where a missing file is
 * not an error. An explicit path must exist. On failure returns NULL and sets
 * *error to a malloc'ed "FILE:LINE: reason".
 */
struct cordon_policy *cordon_policy_load(const char *path, char **error);
/* The same from text in memory (tests); name is what errors call it. */
struct cordon_policy *cordon_policy_load_string(const char *text, const char *name, char **error);
/* The same from an open stream (a file, or bytes in memory, NUL bytes included). */
struct cordon_policy *cordon_policy_load_file(FILE *file, const char *name, char **error);
void cordon_policy_destroy(struct cordon_policy *policy);

bool cordon_policy_has_profile(const struct cordon_policy *policy, const char *profile);
/*
 * Whether name is in the key table. The getters below abort on a key that is not: it is a
 * typo in cordon, which tests/unit/test_policy_keys.c finds in the sources before it runs.
 */
bool cordon_policy_has_key(const char *name);
/* The profile an app uses: its section's "profile", else "default". app_id may be NULL. */
const char *cordon_policy_app_profile(const struct cordon_policy *policy, const char *app_id);

/*
 * The value of key for app_id, looked up in the app's own section, then in
 * profile (NULL: the app's profile), then in the "default" profile. NULL when
 * none sets it: the caller's built-in default applies. app_id may be NULL (an
 * app without an id: only the profiles count). key must be in the key table.
 */
const char *cordon_policy_get(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key);

/* Typed forms of cordon_policy_get; fallback when nothing sets the key. */
bool cordon_policy_get_bool(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, bool fallback);
uint64_t cordon_policy_get_uint(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback);
/* A duration ("250ms", "10s", "2min"; a bare number is seconds), in milliseconds. */
uint64_t cordon_policy_get_duration_ms(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback);
/* A size ("4096", "64K", "64M", "1G"; binary multiples), in bytes. */
uint64_t cordon_policy_get_size(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint64_t fallback);
/* Whether a list key ("a, b, c") holds word; false when nothing sets the key. */
bool cordon_policy_list_contains(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, const char *word);

/* A colour "#RRGGBB" as 0xRRGGBB; false for anything else. */
bool cordon_policy_parse_color(const char *text, uint32_t *rgb);
/* A colour key's value; false (RGB untouched) when nothing sets it. */
bool cordon_policy_get_color(const struct cordon_policy *policy, const char *app_id,
	const char *profile, const char *key, uint32_t *rgb);
/* The words a key accepts, NULL-terminated; NULL for a key that takes any word (or none). */
const char *const *cordon_policy_key_words(const char *key);

/* Whether a comma-separated list holds word (words are trimmed). */
bool cordon_policy_word_in_list(const char *list, const char *word);

#endif
