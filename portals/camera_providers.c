/*
 * Camera providers, described in the spirit of .desktop files:
 *
 *	[Camera Provider]
 *	Name = Test pattern
 *	Icon = camera-photo
 *	MimeTypes = image/png
 *	Exec = /usr/libexec/cordon/cordon-camera-pattern
 *	AppId = true
 *	Device = none
 *	Stream = true
 *
 * The files are the user's and the system's, trusted as much as a .desktop
 * file; still, each is parsed strictly and a malformed one is skipped with
 * FILE:LINE: reason, never half taken.
 */
#include "portals/camera_providers.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/util/log.h>

#include "common/format.h"
#include "common/ini.h"
#include "common/xdg.h"

#define SECTION "Camera Provider"
#define SUFFIX ".provider"
#define MAX_VALUE 1024

struct parser {
	struct cordon_camera_provider *provider;
	bool in_section, seen_section;
	bool seen_name, seen_exec, seen_mime, seen_icon, seen_app_id, seen_device, seen_stream;
};

__attribute__((format(printf, 2, 3))) static bool refuse(char **reason, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*reason = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

static bool valid_mime_type(const char *type) {
	const char *slash = strchr(type, '/');
	if (!slash || slash == type || slash[1] == '\0' || strchr(slash + 1, '/')) {
		return false;
	}
	for (const char *c = type; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '/' ||
			*c == '.' || *c == '+' || *c == '-';
		if (!ok) {
			return false;
		}
	}
	return true;
}

static bool split_words(const char *value, char **words, size_t max, size_t *count, char **reason,
	const char *key) {
	char *copy = strdup(value);
	if (!copy) {
		return false;
	}
	*count = 0;
	char *save = NULL;
	for (char *word = strtok_r(copy, " \t,", &save); word;
		word = strtok_r(NULL, " \t,", &save)) {
		if (*count == max) {
			free(copy);
			return refuse(reason, "%s has too many words", key);
		}
		words[*count] = strdup(word);
		if (!words[*count]) {
			free(copy);
			return false;
		}
		(*count)++;
	}
	free(copy);
	if (*count == 0) {
		return refuse(reason, "%s is empty", key);
	}
	return true;
}

static bool parse_bool(const char *value, bool *out) {
	if (strcmp(value, "true") == 0) {
		*out = true;
	} else if (strcmp(value, "false") == 0) {
		*out = false;
	} else {
		return false;
	}
	return true;
}

static bool handle_line(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	struct parser *parser = data;
	struct cordon_camera_provider *provider = parser->provider;
	if (!key) {
		if (strcmp(section, SECTION) != 0 || parser->seen_section) {
			return refuse(reason, "expected one [%s] section", SECTION);
		}
		parser->in_section = parser->seen_section = true;
		return true;
	}
	if (!parser->in_section) {
		return refuse(reason, "'%s' before the [" SECTION "] section", key);
	}
	if (strlen(value) >= MAX_VALUE) {
		return refuse(reason, "%s is too long", key);
	}
	bool *seen;
	if (strcmp(key, "Name") == 0) {
		seen = &parser->seen_name;
	} else if (strcmp(key, "Icon") == 0) {
		seen = &parser->seen_icon;
	} else if (strcmp(key, "MimeTypes") == 0) {
		seen = &parser->seen_mime;
	} else if (strcmp(key, "Exec") == 0) {
		seen = &parser->seen_exec;
	} else if (strcmp(key, "AppId") == 0) {
		seen = &parser->seen_app_id;
	} else if (strcmp(key, "Device") == 0) {
		seen = &parser->seen_device;
	} else if (strcmp(key, "Stream") == 0) {
		seen = &parser->seen_stream;
	} else {
		return refuse(reason,
			"unknown key '%s' (Name, Icon, MimeTypes, Exec, AppId, Device, "
			"Stream)",
			key);
	}
	if (*seen) {
		return refuse(reason, "%s is set twice", key);
	}
	*seen = true;
	if (strcmp(key, "Name") == 0 || strcmp(key, "Icon") == 0) {
		if (value[0] == '\0' && key[0] == 'N') {
			return refuse(reason, "%s is empty", key);
		}
		char **field = key[0] == 'N' ? &provider->name : &provider->icon;
		*field = strdup(value);
		return *field != NULL;
	}
	if (strcmp(key, "MimeTypes") == 0) {
		if (!split_words(value, provider->mime_types, CORDON_CAMERA_MAX_MIME_TYPES,
			    &provider->mime_type_count, reason, key)) {
			return false;
		}
		for (size_t i = 0; i < provider->mime_type_count; i++) {
			if (strcmp(provider->mime_types[i], "image/png") != 0 &&
				strcmp(provider->mime_types[i], "image/jpeg") != 0) {
				return refuse(reason,
					"cordon checks only image/png and image/jpeg, "
					"not '%s'",
					valid_mime_type(provider->mime_types[i])
						? provider->mime_types[i]
						: "(malformed)");
			}
		}
		return true;
	}
	if (strcmp(key, "Exec") == 0) {
		char *words = strdup(value);
		if (!words) {
			return false;
		}
		char *save = NULL;
		provider->argc = 0;
		for (char *word = strtok_r(words, " \t", &save); word;
			word = strtok_r(NULL, " \t", &save)) {
			if (provider->argc == CORDON_CAMERA_MAX_ARGS) {
				free(words);
				return refuse(reason, "%s has too many words", key);
			}
			provider->argv[provider->argc] = strdup(word);
			if (!provider->argv[provider->argc++]) {
				free(words);
				return false;
			}
		}
		free(words);
		if (provider->argc == 0 || provider->argv[0][0] != '/') {
			return refuse(reason, "%s must start with an absolute path", key);
		}
		return true;
	}
	if (strcmp(key, "AppId") == 0) {
		if (!parse_bool(value, &provider->wants_app_id)) {
			return refuse(reason, "AppId must be true or false, got '%s'", value);
		}
		return true;
	}
	if (strcmp(key, "Stream") == 0) {
		if (!parse_bool(value, &provider->can_stream)) {
			return refuse(reason, "Stream must be true or false, got '%s'", value);
		}
		return true;
	}
	if (strcmp(value, "none") == 0) {
		provider->needs_video = false;
	} else if (strcmp(value, "video") == 0) {
		provider->needs_video = true;
	} else {
		return refuse(reason, "Device must be none or video, got '%s'", value);
	}
	(void)line;
	return true;
}

void cordon_camera_provider_finish(struct cordon_camera_provider *provider) {
	free(provider->id);
	free(provider->name);
	free(provider->icon);
	for (size_t i = 0; i < provider->mime_type_count; i++) {
		free(provider->mime_types[i]);
	}
	for (size_t i = 0; i < provider->argc; i++) {
		free(provider->argv[i]);
	}
	*provider = (struct cordon_camera_provider){0};
}

bool cordon_camera_provider_parse_file(
	struct cordon_camera_provider *provider, const char *path, const char *id, char **error) {
	*provider = (struct cordon_camera_provider){0};
	*error = NULL;
	FILE *file = fopen(path, "re");
	if (!file) {
		*error = cordon_format("%s: %s", path, strerror(errno));
		return false;
	}
	bool ok = cordon_camera_provider_parse_stream(provider, file, path, id, error);
	fclose(file);
	return ok;
}

bool cordon_camera_provider_parse_stream(struct cordon_camera_provider *provider, FILE *file,
	const char *path, const char *id, char **error) {
	*provider = (struct cordon_camera_provider){0};
	*error = NULL;
	struct parser parser = {.provider = provider};
	bool ok = cordon_ini_parse_file(file, path, handle_line, &parser, error);
	if (ok) {
		const char *missing = !parser.seen_section ? "the [" SECTION "] section"
			: !parser.seen_name                ? "Name"
			: !parser.seen_mime                ? "MimeTypes"
			: !parser.seen_exec                ? "Exec"
							   : NULL;
		if (missing) {
			*error = cordon_format("%s: %s is missing", path, missing);
			ok = false;
		}
	}
	if (ok) {
		provider->id = strdup(id);
		if (!provider->icon) {
			provider->icon = strdup("");
		}
		ok = provider->id && provider->icon;
	}
	if (!ok) {
		cordon_camera_provider_finish(provider);
	}
	return ok;
}

static int compare_ids(const void *a, const void *b) {
	const struct cordon_camera_provider *pa = a, *pb = b;
	return strcmp(pa->id, pb->id);
}

static struct cordon_camera_provider *find(
	struct cordon_camera_providers *providers, const char *id) {
	for (size_t i = 0; i < providers->count; i++) {
		if (strcmp(providers->providers[i].id, id) == 0) {
			return &providers->providers[i];
		}
	}
	return NULL;
}

static void load_dir(struct cordon_camera_providers *providers, const char *dir) {
	DIR *d = opendir(dir);
	if (!d) {
		if (errno != ENOENT) {
			wlr_log_errno(WLR_ERROR, "Cannot read the camera providers in %s", dir);
		}
		return;
	}
	struct dirent *entry;
	while ((entry = readdir(d))) {
		size_t len = strlen(entry->d_name);
		size_t suffix = strlen(SUFFIX);
		if (entry->d_name[0] == '.' || len <= suffix ||
			strcmp(entry->d_name + len - suffix, SUFFIX) != 0) {
			continue;
		}
		bool valid_id = true;
		for (size_t i = 0; i < len - suffix; i++) {
			char c = entry->d_name[i];
			valid_id = valid_id &&
				((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					(c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-');
		}
		if (!valid_id) {
			/* The id names the provider's sandbox (cordon-camera.ID). */
			wlr_log(WLR_ERROR,
				"Camera provider skipped: %s/%s: a name of letters, "
				"digits, '.', '_' and '-' only",
				dir, entry->d_name);
			continue;
		}
		char *id = strndup(entry->d_name, len - suffix);
		char *path = cordon_format("%s/%s", dir, entry->d_name);
		struct cordon_camera_provider provider;
		char *error = NULL;
		if (!id || !path) {
			wlr_log(WLR_ERROR, "Out of memory reading the camera providers");
		} else if (!cordon_camera_provider_parse_file(&provider, path, id, &error)) {
			wlr_log(WLR_ERROR, "Camera provider skipped: %s",
				error ? error : "out of memory");
		} else {
			struct cordon_camera_provider *same = find(providers, id);
			if (same) {
				/* A later folder (the user's) replaces the system's same-named
				 * file. */
				cordon_camera_provider_finish(same);
				*same = provider;
			} else if (providers->count == CORDON_CAMERA_MAX_PROVIDERS) {
				wlr_log(WLR_ERROR,
					"Camera provider %s skipped: more than %d providers", path,
					CORDON_CAMERA_MAX_PROVIDERS);
				cordon_camera_provider_finish(&provider);
			} else {
				providers->providers[providers->count++] = provider;
			}
		}
		free(error);
		free(path);
		free(id);
	}
	closedir(d);
}

void cordon_camera_providers_load(
	struct cordon_camera_providers *providers, const char *const *dirs, size_t dir_count) {
	providers->count = 0;
	providers->providers = calloc(CORDON_CAMERA_MAX_PROVIDERS, sizeof(*providers->providers));
	if (!providers->providers) {
		return;
	}
	for (size_t i = 0; i < dir_count; i++) {
		if (dirs[i]) {
			load_dir(providers, dirs[i]);
		}
	}
	qsort(providers->providers, providers->count, sizeof(*providers->providers), compare_ids);
}

void cordon_camera_providers_load_default(struct cordon_camera_providers *providers) {
	char *user = cordon_user_data_path("camera-providers");
	const char *dirs[] = {CORDON_CAMERA_PROVIDER_DIR, user};
	cordon_camera_providers_load(providers, dirs, 2);
	free(user);
}

void cordon_camera_providers_finish(struct cordon_camera_providers *providers) {
	for (size_t i = 0; i < providers->count; i++) {
		cordon_camera_provider_finish(&providers->providers[i]);
	}
	free(providers->providers);
	*providers = (struct cordon_camera_providers){0};
}

const char *cordon_camera_provider_match(const struct cordon_camera_provider *provider,
	const char *const *accepted, size_t accepted_count) {
	for (size_t i = 0; i < provider->mime_type_count; i++) {
		for (size_t j = 0; j < accepted_count; j++) {
			if (strcmp(provider->mime_types[i], accepted[j]) == 0) {
				return provider->mime_types[i];
			}
		}
	}
	return NULL;
}
