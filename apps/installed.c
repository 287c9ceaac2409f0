/*
 * What is installed (docs/apps.md): an app is installed/ID/ with `current` naming a complete
 * version folder. Read-only: listing and loading never change anything, so they need no lock.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/bundle.h"
#include "apps/files.h"
#include "apps/installed.h"
#include "common/format.h"
#include "common/xdg.h"

char *cordon_installed_root(void) {
	return cordon_user_data_path("installed");
}

static char *link_version(const char *dir, const char *name) {
	char *path = cordon_format("%s/%s", dir, name);
	char target[256];
	ssize_t n = path != NULL ? readlink(path, target, sizeof(target) - 1) : -1;
	free(path);
	if (n <= 2) {
		return NULL;
	}
	target[n] = '\0';
	return strncmp(target, "v-", 2) == 0 && cordon_version_valid(target + 2)
		? strdup(target + 2)
		: NULL;
}

void cordon_installed_finish(struct cordon_installed *inst) {
	free(inst->id);
	free(inst->dir);
	free(inst->version);
	free(inst->previous);
	free(inst->origin_store);
	free(inst->origin_key);
	cordon_manifest_destroy(inst->manifest);
	memset(inst, 0, sizeof(*inst));
}

static void load_origin(struct cordon_installed *inst, const char *vdir) {
	char *path = cordon_format("%s/origin.json", vdir);
	json_object *root = path != NULL ? json_object_from_file(path) : NULL;
	json_object *v;
	if (root != NULL && json_object_object_get_ex(root, "store", &v) &&
		json_object_is_type(v, json_type_string)) {
		inst->origin_store = strdup(json_object_get_string(v));
	}
	if (root != NULL && json_object_object_get_ex(root, "key", &v)) {
		inst->origin_key = strdup(json_object_get_string(v));
	}
	json_object_put(root);
	free(path);
}

bool cordon_installed_load(const char *id, struct cordon_installed *out, char **error) {
	memset(out, 0, sizeof(*out));
	char *root = cordon_installed_root();
	out->dir = root != NULL ? cordon_format("%s/%s", root, id) : NULL;
	free(root);
	out->id = strdup(id);
	out->version = out->dir != NULL ? link_version(out->dir, "current") : NULL;
	if (out->version == NULL) {
		cordon_installed_finish(out);
		return false;
	}
	out->previous = link_version(out->dir, "previous");
	char *vdir = cordon_format("%s/v-%s", out->dir, out->version);
	char *path = vdir != NULL ? cordon_format("%s/manifest.json", vdir) : NULL;
	size_t len = 0;
	char *text = path != NULL ? cordon_read_file(path, CORDON_BUNDLE_MANIFEST_MAX, &len) : NULL;
	char *reason = NULL;
	out->manifest = text != NULL ? cordon_manifest_parse(text, len, &reason) : NULL;
	if (out->manifest != NULL) {
		load_origin(out, vdir);
	} else {
		*error = cordon_format("%s: the installed manifest does not load (%s)", id,
			reason != NULL ? reason : "missing");
	}
	free(reason);
	free(text);
	free(path);
	free(vdir);
	if (out->manifest == NULL) {
		cordon_installed_finish(out);
		return false;
	}
	return true;
}

static int compare_strings(const void *a, const void *b) {
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cordon_installed_list(void) {
	char *root = cordon_installed_root();
	DIR *d = root != NULL ? opendir(root) : NULL;
	size_t count = 0, cap = 16;
	char **ids = calloc(cap + 1, sizeof(*ids));
	struct dirent *e;
	while (d != NULL && ids != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') {
			continue;
		}
		if (count == cap) {
			char **more = realloc(ids, (2 * cap + 1) * sizeof(*ids));
			if (more == NULL) {
				break;
			}
			ids = more;
			cap *= 2;
		}
		ids[count++] = strdup(e->d_name);
		ids[count] = NULL;
	}
	if (d != NULL) {
		closedir(d);
	}
	free(root);
	if (ids != NULL) {
		qsort(ids, count, sizeof(*ids), compare_strings);
	}
	return ids;
}
