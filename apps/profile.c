/*
 * An installed app's profile lives in the user's policy.ini (docs/policy.md), the file cordon
 * and cordon-run already read, so the compositor and the sandbox apply the same permissions and
 * the user narrows them where they narrow any app's. cordon-app owns only the lines between its
 * "# cordon-app begin ID" and "# cordon-app end ID" markers and leaves the rest byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "apps/files.h"
#include "apps/profile.h"
#include "common/format.h"
#include "common/policy.h"
#include "common/xdg.h"

#define POLICY_MAX (1u << 20)

static char *marker(const char *what, const char *id) {
	return cordon_format("# cordon-app %s %s\n", what, id);
}

/* The file without id's block; *block (when asked) gets the block's permission lines. */
static char *without_block(const char *text, const char *id, char **block) {
	char *begin = marker("begin", id), *end = marker("end", id);
	char *out = NULL;
	const char *b = begin != NULL ? strstr(text, begin) : NULL;
	const char *e = b != NULL && end != NULL ? strstr(b, end) : NULL;
	if (b == NULL || e == NULL) {
		out = begin != NULL && end != NULL ? strdup(text) : NULL;
	} else {
		if (block != NULL) {
			/* The lines after the [profile ...] header up to "[app ". */
			const char *start = strstr(b, "\n[profile app-");
			start = start != NULL && start < e ? strchr(start + 1, '\n') : NULL;
			const char *stop = start != NULL ? strstr(start, "\n[app ") : NULL;
			if (start != NULL && stop != NULL && stop < e) {
				*block = strndup(start + 1, (size_t)(stop - start));
			}
		}
		out = cordon_format("%.*s%s", (int)(b - text), text, e + strlen(end));
	}
	free(begin);
	free(end);
	return out;
}

static char *policy_text(char **path) {
	*path = cordon_user_config_path("policy.ini");
	if (*path == NULL) {
		return NULL;
	}
	char *text = cordon_read_file(*path, POLICY_MAX, NULL);
	return text != NULL ? text : strdup("");
}

static bool save(const char *path, const char *text, char **error) {
	char *reason = NULL;
	struct cordon_policy *policy = cordon_policy_load_string(text, path, &reason);
	if (policy == NULL) {
		*error = cordon_format("policy.ini would not load with the app's profile (%s): "
				       "nothing changed",
			reason != NULL ? reason : "out of memory");
		free(reason);
		return false;
	}
	cordon_policy_destroy(policy);
	char *dir = cordon_user_config_path("");
	bool ok = dir != NULL && cordon_mkdirs(dir, 0700) &&
		cordon_write_atomic(path, text, strlen(text), 0600, error);
	free(dir);
	return ok;
}

bool cordon_profile_write(const char *id, const char *lines, char **error) {
	char *path = NULL;
	char *text = policy_text(&path);
	char *rest = text != NULL ? without_block(text, id, NULL) : NULL;
	size_t len = rest != NULL ? strlen(rest) : 0;
	char *next = rest != NULL
		? cordon_format(
			  "%s%s# cordon-app begin %s\n"
			  "# The permissions the app asked for; narrow them here: cordon-app\n"
			  "# keeps this block until an update asks for different ones.\n"
			  "[profile app-%s]\n%s[app %s]\nprofile = app-%s\n# cordon-app end %s\n",
			  rest, len > 0 && rest[len - 1] != '\n' ? "\n" : "", id, id, lines, id, id,
			  id)
		: NULL;
	bool ok = next != NULL && save(path, next, error);
	if (!ok && *error == NULL) {
		*error = cordon_format("no policy.ini to write (no home directory?)");
	}
	free(path);
	free(text);
	free(rest);
	free(next);
	return ok;
}

char *cordon_profile_read(const char *id) {
	char *path = NULL;
	char *text = policy_text(&path);
	char *block = NULL;
	free(text != NULL ? without_block(text, id, &block) : NULL);
	free(text);
	free(path);
	return block;
}

bool cordon_profile_remove(const char *id, char **error) {
	char *path = NULL;
	char *text = policy_text(&path);
	char *rest = text != NULL ? without_block(text, id, NULL) : NULL;
	bool ok = rest != NULL && (strcmp(rest, text) == 0 || save(path, rest, error));
	free(path);
	free(text);
	free(rest);
	return ok;
}
