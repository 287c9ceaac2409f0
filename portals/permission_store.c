/*
 * The permission store. Every change is saved before it counts, written the way
 * SECURITY-NOTES asks for a persistent store: a temporary file in the same
 * folder, fsync, rename over the old file, fsync the folder. A kill at any point
 * leaves either the old file or the new one, never half of either.
 *
 * More than one process may write the file (two cordon instances of one user: a
 * nested cordon, two seats). A writer that saved the copy it loaded at start would
 * undo what another changed since (a deny turned back into an allow by an unrelated
 * grant), so a change is made to the file, not to a copy: under an flock on
 * PATH.lock, the file is read again, the one change applied to what it says, and
 * that written back. Lookups re-read the file when it changed on disk, so a change
 * made by another instance counts here at once. A file that does not parse is never
 * written over: the store is read-only (and says why, with the line) until it is
 * fixed or removed.
 */
#include "portals/permission_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wayland-util.h>
#include <wlr/util/log.h>

#include "common/format.h"
#include "common/ini.h"
#include "common/xdg.h"

#define FORMAT_HEADER "# cordon portal permissions, format 1 (docs/portals.md)\n"
#define FOLDER_SUFFIX ".folder"
#define LOCK_SUFFIX ".lock"
/* A writer holds the lock for one read and one write (two fsyncs): 2 s is plenty. */
#define LOCK_TRIES 400
#define LOCK_RETRY_NS 5000000L

struct entry {
	char *app_id;
	char *portal;
	enum cordon_permission permission;
	char *folders[CORDON_PERMISSION_MAX_FOLDERS];
	size_t folder_count;
	struct wl_list link;
};

/* Which version of the file the entries came from: a save renames a new inode into place. */
struct stamp {
	bool exists;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};

struct cordon_permission_store {
	char *path; /* NULL: memory only */
	struct wl_list entries; /* entry.link */
	struct stamp stamp; /* of the file last read (or found not to parse) */
	char *broken; /* why the file cannot be written (it does not parse); NULL: writable */
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

/*
 * A portal's name is a key of the file, and "NAME.folder" is the key of NAME's folders: a
 * portal named "x.folder" would be written as a line that reads back as a folder of "x",
 * and the store cordon saved would not load again.
 */
static bool valid_portal(const char *portal) {
	size_t len = strlen(portal), suffix_len = strlen(FOLDER_SUFFIX);
	return cordon_permission_valid_name(portal) &&
		!(len >= suffix_len && strcmp(portal + len - suffix_len, FOLDER_SUFFIX) == 0);
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

static void clear_entries(struct wl_list *entries) {
	struct entry *entry, *tmp;
	wl_list_for_each_safe(entry, tmp, entries, link) {
		entry_destroy(entry);
	}
}

/* Moves every entry of from (left empty) into to, after dropping what to held. */
static void replace_entries(struct wl_list *to, struct wl_list *from) {
	clear_entries(to);
	wl_list_init(to);
	if (!wl_list_empty(from)) {
		wl_list_insert_list(to, from);
	}
	wl_list_init(from);
}

static struct entry *find_entry(struct wl_list *entries, const char *app_id, const char *portal) {
	struct entry *entry;
	wl_list_for_each(entry, entries, link) {
		if (strcmp(entry->app_id, app_id) == 0 && strcmp(entry->portal, portal) == 0) {
			return entry;
		}
	}
	return NULL;
}

static struct entry *get_entry(struct wl_list *entries, const char *app_id, const char *portal) {
	struct entry *entry = find_entry(entries, app_id, portal);
	if (entry) {
		return entry;
	}
	entry = calloc(1, sizeof(*entry));
	if (!entry) {
		return NULL;
	}
	entry->app_id = strdup(app_id);
	entry->portal = strdup(portal);
	wl_list_insert(entries->prev, &entry->link);
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

__attribute__((format(printf, 2, 3))) static bool fail(char **reason, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	*reason = cordon_vformat(fmt, args);
	va_end(args);
	return false;
}

static bool handle_line(void *data, const char *section, const char *key, const char *value,
	int line, char **reason) {
	struct wl_list *entries = data;
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
	if (!valid_portal(portal)) {
		return fail(reason, "'%s' is not a portal name", portal);
	}
	struct entry *entry = get_entry(entries, section, portal);
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

/* Reading the file */

static void stamp_of(const struct stat *st, struct stamp *stamp) {
	stamp->exists = true;
	stamp->dev = st->st_dev;
	stamp->ino = st->st_ino;
	stamp->size = st->st_size;
	stamp->mtime = st->st_mtim;
	stamp->ctime = st->st_ctim;
}

static void stamp_path(const char *path, struct stamp *stamp) {
	struct stat st;
	memset(stamp, 0, sizeof(*stamp));
	if (stat(path, &st) == 0) {
		stamp_of(&st, stamp);
	}
}

static bool same_stamp(const struct stamp *a, const struct stamp *b) {
	if (!a->exists || !b->exists) {
		return a->exists == b->exists;
	}
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
		a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
		a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

/* The file's text into entries; false (entries empty) with *error when it does not parse. */
static bool parse_stream(FILE *file, const char *name, struct wl_list *entries, char **error) {
	char *parse_error = NULL;
	bool ok = cordon_ini_parse_file(file, name, handle_line, entries, &parse_error);
	if (!ok) {
		clear_entries(entries);
		*error =
			parse_error ? parse_error : cordon_format("out of memory reading %s", name);
	}
	return ok;
}

/*
 * Reads the file into entries (a missing file is empty). False, with *error
 * ("PATH:LINE: reason" for a parse error), when it cannot be read or does not parse:
 * entries are then empty, and nothing may be written over the file.
 */
static bool read_store(
	const char *path, struct wl_list *entries, struct stamp *stamp, char **error) {
	wl_list_init(entries);
	memset(stamp, 0, sizeof(*stamp));
	FILE *file = fopen(path, "re");
	if (!file) {
		if (errno == ENOENT) {
			return true;
		}
		*error = cordon_format("cannot read %s: %s", path, strerror(errno));
		return false;
	}
	struct stat st;
	if (fstat(fileno(file), &st) == 0) {
		stamp_of(&st, stamp);
	}
	bool ok = parse_stream(file, path, entries, error);
	fclose(file);
	return ok;
}

/* The file does not parse (or cannot be read): read-only, logged once per reason. */
static void set_broken(struct cordon_permission_store *store, char *reason) {
	if (store->broken && strcmp(store->broken, reason) == 0) {
		free(reason);
		return;
	}
	wlr_log(WLR_ERROR,
		"The permission store is read-only until it is fixed or removed "
		"(it is not written over, nothing is lost): %s",
		reason);
	free(store->broken);
	store->broken = reason;
}

static void set_writable(struct cordon_permission_store *store) {
	if (store->broken) {
		wlr_log(WLR_INFO, "The permission store %s can be written again", store->path);
		free(store->broken);
		store->broken = NULL;
	}
}

/*
 * Takes in what another process saved since we last looked. A version that does not
 * parse leaves the entries as they were (the last good version) and the store
 * read-only.
 */
static void refresh(struct cordon_permission_store *store) {
	if (!store->path) {
		return;
	}
	struct stamp now;
	stamp_path(store->path, &now);
	if (same_stamp(&now, &store->stamp)) {
		return;
	}
	struct wl_list fresh;
	struct stamp stamp;
	char *error = NULL;
	if (!read_store(store->path, &fresh, &stamp, &error)) {
		/* Remembered, so that it is not parsed again at every lookup. */
		store->stamp = now;
		set_broken(store, error);
		return;
	}
	replace_entries(&store->entries, &fresh);
	store->stamp = stamp;
	set_writable(store);
}

/*
 * A save killed between mkstemp and rename leaves its temporary file: the store's
 * name, a dot and six characters. They hold nothing the store lacks. Only removed
 * under the lock: another writer's file of that shape is in flight otherwise.
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
			strlen(name + base_len + 1) != 6) {
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
	refresh(store);
	return store;
}

struct cordon_permission_store *cordon_permission_store_parse(
	FILE *file, const char *name, char **error) {
	struct cordon_permission_store *store = cordon_permission_store_load(NULL);
	if (!store) {
		*error = cordon_format("out of memory reading %s", name);
		return NULL;
	}
	if (!parse_stream(file, name, &store->entries, error)) {
		cordon_permission_store_destroy(store);
		return NULL;
	}
	return store;
}

void cordon_permission_store_destroy(struct cordon_permission_store *store) {
	if (!store) {
		return;
	}
	clear_entries(&store->entries);
	free(store->broken);
	free(store->path);
	free(store);
}

const char *cordon_permission_store_read_only_reason(struct cordon_permission_store *store) {
	refresh(store);
	return store->broken;
}

enum cordon_permission cordon_permission_store_get(
	struct cordon_permission_store *store, const char *app_id, const char *portal) {
	refresh(store);
	const struct entry *entry = find_entry(&store->entries, app_id, portal);
	return entry ? entry->permission : CORDON_PERMISSION_ASK;
}

const char *const *cordon_permission_store_get_folders(struct cordon_permission_store *store,
	const char *app_id, const char *portal, size_t *count) {
	refresh(store);
	const struct entry *entry = find_entry(&store->entries, app_id, portal);
	*count = entry ? entry->folder_count : 0;
	return entry ? (const char *const *)entry->folders : NULL;
}

void cordon_permission_store_for_each(
	struct cordon_permission_store *store, cordon_permission_iterator fn, void *data) {
	refresh(store);
	const struct entry *entry;
	wl_list_for_each(entry, &store->entries, link) {
		fn(data, entry->app_id, entry->portal, entry->permission,
			(const char *const *)entry->folders, entry->folder_count);
	}
}

/* Writing the file */

/* The whole file as one string, sections in entry order. */
static char *serialize(struct wl_list *entries) {
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out) {
		return NULL;
	}
	fputs(FORMAT_HEADER, out);
	const struct entry *entry;
	wl_list_for_each(entry, entries, link) {
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

char *cordon_permission_store_serialize(struct cordon_permission_store *store) {
	refresh(store);
	return serialize(&store->entries);
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

/* Temporary file, fsync, rename over the store, fsync the folder. */
static bool write_store(const char *path, struct wl_list *entries, char **error) {
	char *text = serialize(entries);
	char *tmp = cordon_format("%s.XXXXXX", path);
	char *dir = strdup(path);
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
		save_error(error, "cannot create a temporary file beside", path);
		goto out;
	}
	bool written = write_all(fd, text, strlen(text)) && fsync(fd) == 0;
	if (close(fd) != 0 || !written) {
		save_error(error, "cannot write", tmp);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		save_error(error, "cannot rename the new store over", path);
		unlink(tmp);
		goto out;
	}
	/* The rename itself is only durable once the folder is on disk. */
	int dir_fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0 || fsync(dir_fd) != 0) {
		save_error(error, "cannot sync the folder of", path);
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

/*
 * An exclusive flock on PATH.lock, which is never removed (removing it would let two
 * writers lock two different files). Tried without blocking for a bounded time: the
 * caller is cordon's event loop, and a writer holds it for one read and one write.
 */
static int take_lock(const char *path, char **error) {
	char *lock_path = cordon_format("%s%s", path, LOCK_SUFFIX);
	if (!lock_path) {
		*error = cordon_format("out of memory");
		return -1;
	}
	int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		save_error(error, "cannot open the lock file", lock_path);
		free(lock_path);
		return -1;
	}
	for (int tries = 0;; tries++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			free(lock_path);
			return fd;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			save_error(error, "cannot lock", lock_path);
			break;
		}
		if (tries >= LOCK_TRIES) {
			*error = cordon_format(
				"%s is locked by another process (a cordon instance "
				"saving a change?) for more than 2 s; nothing was saved",
				lock_path);
			break;
		}
		struct timespec pause = {0, LOCK_RETRY_NS};
		nanosleep(&pause, NULL);
	}
	close(fd);
	free(lock_path);
	return -1;
}

/*
 * One change to the store, applied to entries. Sets *changed when it changed
 * anything (nothing to write otherwise). False with *error when refused.
 */
typedef bool (*change_func)(
	struct wl_list *entries, const void *change, bool *changed, char **error);

/*
 * Makes the change in the file, not in our copy: under the lock, the file is read
 * again, the change applied to what it says, and that written back. Our copy becomes
 * what was written, so another instance's changes count here too. Nothing is written
 * over a file that does not parse.
 */
static bool apply_change(struct cordon_permission_store *store, change_func apply,
	const void *change, char **error) {
	bool changed = false;
	if (!store->path) {
		return apply(&store->entries, change, &changed, error);
	}
	if (!make_parents(store->path)) {
		return save_error(error, "cannot create the folder of", store->path);
	}
	int lock = take_lock(store->path, error);
	if (lock < 0) {
		return false;
	}
	bool ok = false;
	struct wl_list fresh;
	struct stamp stamp;
	char *read_error = NULL;
	if (!read_store(store->path, &fresh, &stamp, &read_error)) {
		*error = cordon_format(
			"the permission store is read-only, nothing was saved: %s", read_error);
		stamp_path(store->path, &store->stamp);
		set_broken(store, read_error);
		goto unlock;
	}
	set_writable(store);
	/* Nobody else is between mkstemp and rename while we hold the lock. */
	remove_stale_temporaries(store->path);
	if (!apply(&fresh, change, &changed, error)) {
		clear_entries(&fresh);
		goto unlock;
	}
	if (changed && !write_store(store->path, &fresh, error)) {
		clear_entries(&fresh);
		goto unlock;
	}
	replace_entries(&store->entries, &fresh);
	/* Still under the lock: what is at the path now is what we read or wrote. */
	stamp_path(store->path, &store->stamp);
	ok = true;
unlock:
	close(lock);
	return ok;
}

static bool check_names(const char *app_id, const char *portal, char **error) {
	if (!cordon_permission_valid_name(app_id)) {
		*error = cordon_format("'%s' is not an app id the store can hold", app_id);
		return false;
	}
	if (!valid_portal(portal)) {
		*error = cordon_format("'%s' is not a portal name", portal);
		return false;
	}
	return true;
}

struct permission_change {
	const char *app_id, *portal;
	enum cordon_permission permission;
};

static bool apply_permission(
	struct wl_list *entries, const void *data, bool *changed, char **error) {
	const struct permission_change *change = data;
	struct entry *entry = get_entry(entries, change->app_id, change->portal);
	if (!entry) {
		*error = cordon_format("out of memory");
		return false;
	}
	entry->permission = change->permission;
	*changed = true;
	return true;
}

bool cordon_permission_store_set(struct cordon_permission_store *store, const char *app_id,
	const char *portal, enum cordon_permission permission, char **error) {
	if (!check_names(app_id, portal, error)) {
		return false;
	}
	struct permission_change change = {app_id, portal, permission};
	return apply_change(store, apply_permission, &change, error);
}

struct folder_change {
	const char *app_id, *portal, *folder;
};

static bool apply_folder(struct wl_list *entries, const void *data, bool *changed, char **error) {
	const struct folder_change *change = data;
	struct entry *entry = get_entry(entries, change->app_id, change->portal);
	char *copy = strdup(change->folder);
	if (!entry || !copy) {
		free(copy);
		*error = cordon_format("out of memory");
		return false;
	}
	/* Most recent first, no duplicates; the oldest drops out when full. */
	size_t found = entry->folder_count;
	for (size_t i = 0; i < entry->folder_count; i++) {
		if (strcmp(entry->folders[i], change->folder) == 0) {
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
	*changed = true;
	return true;
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
	struct folder_change change = {app_id, portal, folder};
	return apply_change(store, apply_folder, &change, error);
}
