/*
 * The permission store. Every change is saved before it counts, written the way
 * SECURITY-NOTES asks for a persistent store: a temporary file in the same
 * folder, fsync, rename over the old file, fsync the folder. A kill at any point
 * leaves either the old file or the new one, never half of either.
 */
#include "portals/permission_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-util.h>
#include <wlr/util/log.h>

#include "common/format.h"
#include "common/ini.h"
#include "common/xdg.h"

#define FORMAT_HEADER "# cordon portal permissions, format 1 (docs/portals.md)\n"
#define FOLDER_SUFFIX ".folder"

struct entry {
	char *app_id;
	char *portal;
	enum cordon_permission permission;
	char *folders[CORDON_PERMISSION_MAX_FOLDERS];
	size_t folder_count;
	struct wl_list link;
};

struct cordon_permission_store {
	char *path; /* NULL: memory only */
	struct wl_list entries; /* entry.link */
};

static const char *const permission_names[] = {"ask", "allow", "deny"};

const char *cordon_permission_name(enum cordon_permission permission) {
	return permission_names[permission];
}

bool cordon_permission_parse(const char *name, enum cordon_permission *permission) {
	for (size_t i = 0; i < sizeof(permission_names) / sizeof(permission_names[0]); i++) {
		if (strcmp(name, permission_names[i]) == 0) {
			*permission = (enum cordon_permission)i;
			return true;
		}
	}
	return false;
}

bool cordon_permission_valid_name(const char *name) {
	if (name[0] == '\0' || strlen(name) > 255) {
		return false;
	}
	for (const char *c = name; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("._-+@", *c);
		if (!ok) {
			return false;
		}
	}
	return true;
}

/* A folder must survive the line-based format unchanged. */
static bool valid_folder(const char *folder) {
	size_t len = strlen(folder);
	return len > 0 && len < 4096 && folder[0] == '/' && !strchr(folder, '\n') &&
		!strchr(folder, '\r') && folder[len - 1] != ' ' && folder[len - 1] != '\t';
}

static void entry_destroy(struct entry *entry) {
	wl_list_remove(&entry->link);
	for (size_t i = 0; i < entry->folder_count; i++) {
		free(entry->folders[i]);
	}
	free(entry->app_id);
	free(entry->portal);
	free(entry);
}

static void clear_entries(struct cordon_permission_store *store) {
	struct entry *entry, *tmp;
	wl_list_for_each_safe(entry, tmp, &store->entries, link) {
		entry_destroy(entry);
	}
}

static struct entry *find_entry(
	const struct cordon_permission_store *store, const char *app_id, const char *portal) {
	struct entry *entry;
	wl_list_for_each(entry, &store->entries, link) {
		if (strcmp(entry->app_id, app_id) == 0 && strcmp(entry->portal, portal) == 0) {
			return entry;
		}
	}
	return NULL;
}

static struct entry *get_entry(
	struct cordon_permission_store *store, const char *app_id, const char *portal) {
	struct entry *entry = find_entry(store, app_id, portal);
	if (entry) {
		return entry;
	}
	entry = calloc(1, sizeof(*entry));
	if (!entry) {
		return NULL;
	}
	entry->app_id = strdup(app_id);
	entry->portal = strdup(portal);
	wl_list_insert(store->entries.prev, &entry->link);
	if (!entry->app_id || !entry->portal) {
		entry_destroy(entry);
		return NULL;
	}
	return entry;
}

static bool append_folder(struct entry *entry, const char *folder) {
	if (entry->folder_count == CORDON_PERMISSION_MAX_FOLDERS) {
		return true;
	}
	char *copy = strdup(folder);
	if (!copy) {
		return false;
	}
	entry->folders[entry->folder_count++] = copy;
	return true;
}

static bool fail(char **reason, const char *fmt, const char *arg) {
	*reason = cordon_format(fmt, arg);
	return false;
}

static bool handle_line(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	struct cordon_permission_store *store = data;
	if (!section) {
		return fail(reason, "'%s' before any [app-id] section", key);
	}
	if (!cordon_permission_valid_name(section)) {
		return fail(reason, "'%s' is not an app id", section);
	}
	if (!key) {
		return true;
	}
	size_t key_len = strlen(key), suffix_len = strlen(FOLDER_SUFFIX);
	bool is_folder =
		key_len > suffix_len && strcmp(key + key_len - suffix_len, FOLDER_SUFFIX) == 0;
	char portal[256];
	size_t portal_len = is_folder ? key_len - suffix_len : key_len;
	if (portal_len >= sizeof(portal)) {
		return fail(reason, "key '%s' is too long", key);
	}
	memcpy(portal, key, portal_len);
	portal[portal_len] = '\0';
	if (!cordon_permission_valid_name(portal)) {
		return fail(reason, "'%s' is not a portal name", portal);
	}
	struct entry *entry = get_entry(store, section, portal);
	if (!entry) {
		return false;
	}
	if (is_folder) {
		if (!valid_folder(value)) {
			return fail(reason, "'%s' is not an absolute folder", value);
		}
		return append_folder(entry, value);
	}
	if (!cordon_permission_parse(value, &entry->permission)) {
		return fail(reason, "expected ask, allow or deny, got '%s'", value);
	}
	return true;
}

char *cordon_permission_store_default_path(void) {
	return cordon_user_state_path("permissions");
}

/* A corrupt store is kept for the user to look at, and cordon goes on with the defaults. */
static void set_aside(struct cordon_permission_store *store, const char *error) {
	clear_entries(store);
	char *backup = cordon_format("%s.corrupt", store->path);
	if (backup && rename(store->path, backup) == 0) {
		wlr_log(WLR_ERROR, "%s; kept it as %s and started from the defaults (ask)", error,
			backup);
	} else {
		wlr_log(WLR_ERROR,
			"%s; cannot keep it as a backup (%s), starting from the defaults", error,
			strerror(errno));
	}
	free(backup);
}

/*
 * A save killed between mkstemp and rename leaves its temporary file: the store's
 * name, a dot and six characters. They hold nothing the store lacks; remove them.
 */
static void remove_stale_temporaries(const char *path) {
	const char *slash = strrchr(path, '/');
	if (!slash) {
		return;
	}
	char *folder = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	const char *base = slash + 1;
	size_t base_len = strlen(base);
	DIR *listing = folder ? opendir(folder) : NULL;
	free(folder);
	if (!listing) {
		return;
	}
	struct dirent *entry;
	while ((entry = readdir(listing))) {
		const char *name = entry->d_name;
		if (strncmp(name, base, base_len) != 0 || name[base_len] != '.' ||
			strlen(name + base_len + 1) != 6 ||
			strcmp(name + base_len + 1, "corrupt") == 0) {
			continue;
		}
		struct stat st;
		if (fstatat(dirfd(listing), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			S_ISREG(st.st_mode)) {
			unlinkat(dirfd(listing), name, 0);
		}
	}
	closedir(listing);
}

struct cordon_permission_store *cordon_permission_store_load(const char *path) {
	struct cordon_permission_store *store = calloc(1, sizeof(*store));
	if (!store) {
		return NULL;
	}
	wl_list_init(&store->entries);
	if (!path) {
		return store;
	}
	store->path = strdup(path);
	if (!store->path) {
		free(store);
		return NULL;
	}
	remove_stale_temporaries(path);
	FILE *file = fopen(path, "re");
	if (!file) {
		if (errno != ENOENT) {
			wlr_log_errno(WLR_ERROR, "Cannot read the permission store %s", path);
		}
		return store;
	}
	char *error = NULL;
	if (!cordon_ini_parse_file(file, path, handle_line, store, &error)) {
		set_aside(store, error ? error : "out of memory reading the permission store");
	}
	free(error);
	fclose(file);
	return store;
}

void cordon_permission_store_destroy(struct cordon_permission_store *store) {
	if (!store) {
		return;
	}
	clear_entries(store);
	free(store->path);
	free(store);
}

enum cordon_permission cordon_permission_store_get(
	const struct cordon_permission_store *store, const char *app_id, const char *portal) {
	const struct entry *entry = find_entry(store, app_id, portal);
	return entry ? entry->permission : CORDON_PERMISSION_ASK;
}

const char *const *cordon_permission_store_get_folders(const struct cordon_permission_store *store,
	const char *app_id, const char *portal, size_t *count) {
	const struct entry *entry = find_entry(store, app_id, portal);
	*count = entry ? entry->folder_count : 0;
	return entry ? (const char *const *)entry->folders : NULL;
}

void cordon_permission_store_for_each(
	const struct cordon_permission_store *store, cordon_permission_iterator fn, void *data) {
	const struct entry *entry;
	wl_list_for_each(entry, &store->entries, link) {
		fn(data, entry->app_id, entry->portal, entry->permission,
			(const char *const *)entry->folders, entry->folder_count);
	}
}

/* The whole file as one string, sections in entry order. */
static char *serialize(const struct cordon_permission_store *store) {
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out) {
		return NULL;
	}
	fputs(FORMAT_HEADER, out);
	const struct entry *entry;
	wl_list_for_each(entry, &store->entries, link) {
		fprintf(out, "\n[%s]\n%s = %s\n", entry->app_id, entry->portal,
			cordon_permission_name(entry->permission));
		for (size_t i = 0; i < entry->folder_count; i++) {
			fprintf(out, "%s%s = %s\n", entry->portal, FOLDER_SUFFIX,
				entry->folders[i]);
		}
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static bool write_all(int fd, const char *text, size_t len) {
	while (len > 0) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		text += n;
		len -= (size_t)n;
	}
	return true;
}

/* mkdir -p for the store's folder, private to the user. */
static bool make_parents(const char *path) {
	char *copy = strdup(path);
	if (!copy) {
		return false;
	}
	for (char *slash = strchr(copy + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(copy, 0700) != 0 && errno != EEXIST) {
			free(copy);
			return false;
		}
		*slash = '/';
	}
	free(copy);
	return true;
}

static bool save_error(char **error, const char *what, const char *path) {
	*error = cordon_format("%s %s: %s", what, path, strerror(errno));
	return false;
}

bool cordon_permission_store_save(const struct cordon_permission_store *store, char **error) {
	if (!store->path) {
		return true;
	}
	if (!make_parents(store->path)) {
		return save_error(error, "cannot create the folder of", store->path);
	}
	char *text = serialize(store);
	char *tmp = cordon_format("%s.XXXXXX", store->path);
	char *dir = strdup(store->path);
	if (!text || !tmp || !dir) {
		free(text);
		free(tmp);
		free(dir);
		*error = cordon_format("out of memory saving the permission store");
		return false;
	}
	*strrchr(dir, '/') = '\0';
	bool ok = false;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		save_error(error, "cannot create a temporary file beside", store->path);
		goto out;
	}
	bool written = write_all(fd, text, strlen(text)) && fsync(fd) == 0;
	if (close(fd) != 0 || !written) {
		save_error(error, "cannot write", tmp);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, store->path) != 0) {
		save_error(error, "cannot rename the new store over", store->path);
		unlink(tmp);
		goto out;
	}
	/* The rename itself is only durable once the folder is on disk. */
	int dir_fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0 || fsync(dir_fd) != 0) {
		save_error(error, "cannot sync the folder of", store->path);
		if (dir_fd >= 0) {
			close(dir_fd);
		}
		goto out;
	}
	close(dir_fd);
	ok = true;
out:
	free(text);
	free(tmp);
	free(dir);
	return ok;
}

static bool check_names(const char *app_id, const char *portal, char **error) {
	if (!cordon_permission_valid_name(app_id)) {
		*error = cordon_format("'%s' is not an app id the store can hold", app_id);
		return false;
	}
	if (!cordon_permission_valid_name(portal)) {
		*error = cordon_format("'%s' is not a portal name", portal);
		return false;
	}
	return true;
}

bool cordon_permission_store_set(struct cordon_permission_store *store, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error) {
	if (!check_names(app_id, portal, error)) {
		return false;
	}
	bool existed = find_entry(store, app_id, portal) != NULL;
	struct entry *entry = get_entry(store, app_id, portal);
	if (!entry) {
		*error = cordon_format("out of memory");
		return false;
	}
	enum cordon_permission old = entry->permission;
	entry->permission = permission;
	if (cordon_permission_store_save(store, error)) {
		return true;
	}
	/* Only what is on disk counts: memory must not promise more than a restart keeps. */
	if (existed) {
		entry->permission = old;
	} else {
		entry_destroy(entry);
	}
	return false;
}

bool cordon_permission_store_add_folder(struct cordon_permission_store *store, const char *app_id,
	const char *portal, const char *folder, char **error) {
	if (!check_names(app_id, portal, error)) {
		return false;
	}
	if (!valid_folder(folder)) {
		*error = cordon_format("'%s' is not a folder the store can hold", folder);
		return false;
	}
	struct entry *entry = get_entry(store, app_id, portal);
	char *copy = strdup(folder);
	if (!entry || !copy) {
		free(copy);
		*error = cordon_format("out of memory");
		return false;
	}
	/* Most recent first, no duplicates; the oldest drops out when full. */
	size_t found = entry->folder_count;
	for (size_t i = 0; i < entry->folder_count; i++) {
		if (strcmp(entry->folders[i], folder) == 0) {
			found = i;
		}
	}
	if (found == 0 && entry->folder_count > 0) {
		/* Already the most recent: nothing changes, nothing to save (an fsync per answer).
		 */
		free(copy);
		return true;
	}
	if (found == entry->folder_count && found == CORDON_PERMISSION_MAX_FOLDERS) {
		found--;
	}
	if (found < entry->folder_count) {
		free(entry->folders[found]);
	} else {
		entry->folder_count++;
	}
	memmove(&entry->folders[1], &entry->folders[0], found * sizeof(entry->folders[0]));
	entry->folders[0] = copy;
	return cordon_permission_store_save(store, error);
}
