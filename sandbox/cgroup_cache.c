/*
 * Cgroup paths by cgroup id, so that a client from a cgroup already seen is identified without
 * reading /proc/PID/cgroup (an open, a read and a close, the largest part of an identification).
 *
 * An entry never goes stale. A cgroup v2 directory cannot be renamed or moved (only cgroup v1
 * wires up rename; on cgroup2 it is EPERM, even for root), and cgroup ids are 64-bit and not
 * reused while the machine is up. So the path of the cgroup with a given id is the same from
 * its mkdir to its rmdir, and after the rmdir no process can be in it to report that id again.
 *
 * An entry is only kept once it is proven: the id comes from the pidfd (PIDFD_GET_INFO) and
 * the path from /proc/PID/cgroup, read a moment later, and a process able to write
 * cgroup.procs may have moved in between. So before the pair is kept, the path is resolved on
 * the cgroup2 mount (name_to_handle_at; a cgroup's file handle is its id) and must give that
 * id, on that mount. That only means something if a path resolved on the mount names what /proc
 * meant, i.e. if the mount's root is the root of our cgroup namespace (a container may mount a
 * subtree): checked once, at creation, with our own cgroup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/cgroup_cache.h"

/* Enough for every app of a session at once; the oldest entry makes room for a new one. */
#define CACHE_ENTRIES 64

struct cache_entry {
	uint64_t id; /* 0: empty (no cgroup has id 0) */
	char *path;
};

struct cordon_cgroup_cache {
	int mount_fd; /* O_PATH, the cgroup2 mount's root */
	int mount_id;
	int handle_type;
	struct cache_entry entries[CACHE_ENTRIES];
	size_t next; /* the entry replaced next */
};

union cgroup_handle {
	struct file_handle handle;
	char space[sizeof(struct file_handle) + sizeof(uint64_t)];
};

/*
 * An absolute path without empty, "." or ".." components: the only kind /proc/PID/cgroup
 * shows for a cgroup inside our namespace, and one that resolves on the mount without
 * leaving it or coming back to it another way.
 */
static bool canonical(const char *path) {
	if (path[0] != '/') {
		return false;
	}
	if (path[1] == '\0') {
		return true;
	}
	for (const char *c = path + 1;;) {
		size_t len = strcspn(c, "/");
		if (len == 0 || (len == 1 && c[0] == '.') ||
			(len == 2 && c[0] == '.' && c[1] == '.')) {
			return false;
		}
		if (c[len] == '\0') {
			return true;
		}
		c += len + 1;
	}
}

/* The file handle of a cgroup path on the mount: the cgroup id, as kernfs gives it. */
static bool handle_of(int mount_fd, const char *path, uint64_t *id, int *mount_id, int *type) {
	if (!canonical(path)) {
		errno = EINVAL;
		return false;
	}
	/* Relative to the mount's root; "/" is the root itself. */
	const char *relative = path + 1;
	union cgroup_handle h;
	h.handle.handle_bytes = sizeof(uint64_t);
	if (name_to_handle_at(mount_fd, relative, &h.handle, mount_id,
		    relative[0] == '\0' ? AT_EMPTY_PATH : 0) != 0) {
		return false;
	}
	if (h.handle.handle_bytes != sizeof(uint64_t)) {
		errno = EINVAL;
		return false;
	}
	memcpy(id, h.handle.f_handle, sizeof(*id));
	*type = h.handle.handle_type;
	return true;
}

/* Whether path, resolved on the mount now, is the cgroup with this id. */
static bool proven(const struct cordon_cgroup_cache *cache, const char *path, uint64_t id) {
	uint64_t found;
	int mount_id, type;
	return handle_of(cache->mount_fd, path, &found, &mount_id, &type) &&
		mount_id == cache->mount_id && type == cache->handle_type && found == id;
}

struct cordon_cgroup_cache *cordon_cgroup_cache_create(
	const char *mount_path, const char *own_path, uint64_t own_id) {
	struct cordon_cgroup_cache *cache = calloc(1, sizeof(*cache));
	if (!cache) {
		return NULL;
	}
	uint64_t root_id;
	cache->mount_fd = open(mount_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cache->mount_fd < 0 ||
		!handle_of(cache->mount_fd, "/", &root_id, &cache->mount_id, &cache->handle_type)) {
		cordon_cgroup_cache_destroy(cache);
		return NULL;
	}
	/*
	 * Our own path names our own cgroup on the mount only if the mount's root is our
	 * namespace's root: were it another cgroup R, the path would resolve below R instead.
	 */
	if (own_id == 0 || !proven(cache, own_path, own_id)) {
		cordon_cgroup_cache_destroy(cache);
		errno = EXDEV;
		return NULL;
	}
	return cache;
}

void cordon_cgroup_cache_destroy(struct cordon_cgroup_cache *cache) {
	if (!cache) {
		return;
	}
	for (size_t i = 0; i < CACHE_ENTRIES; i++) {
		free(cache->entries[i].path);
	}
	if (cache->mount_fd >= 0) {
		close(cache->mount_fd);
	}
	free(cache);
}

const char *cordon_cgroup_cache_lookup(const struct cordon_cgroup_cache *cache, uint64_t id) {
	if (!cache || id == 0) {
		return NULL;
	}
	for (size_t i = 0; i < CACHE_ENTRIES; i++) {
		if (cache->entries[i].id == id) {
			return cache->entries[i].path;
		}
	}
	return NULL;
}

bool cordon_cgroup_cache_add(struct cordon_cgroup_cache *cache, uint64_t id, const char *path) {
	if (!cache || id == 0 || cordon_cgroup_cache_lookup(cache, id) ||
		!proven(cache, path, id)) {
		return false;
	}
	char *copy = strdup(path);
	if (!copy) {
		return false;
	}
	struct cache_entry *entry = &cache->entries[cache->next];
	free(entry->path);
	entry->id = id;
	entry->path = copy;
	cache->next = (cache->next + 1) % CACHE_ENTRIES;
	return true;
}
