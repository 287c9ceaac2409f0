/* Cgroup v2 paths by cgroup id, each proven against the cgroup2 mount before it is kept. */
#ifndef CORDON_SANDBOX_CGROUP_CACHE_H
#define CORDON_SANDBOX_CGROUP_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct cordon_cgroup_cache;

/*
 * A cache for paths as /proc/PID/cgroup shows them to this process, checked on the cgroup2
 * mount at mount_path. own_path and own_id are this process's cgroup (its /proc/self/cgroup
 * path and its id): they prove that the mount's root is the root of our cgroup namespace, so
 * that a path resolved on the mount names the cgroup /proc meant. NULL (errno set) when that
 * cannot be proven or the mount does not give file handles: callers then read every path.
 */
struct cordon_cgroup_cache *cordon_cgroup_cache_create(
	const char *mount_path, const char *own_path, uint64_t own_id);
void cordon_cgroup_cache_destroy(struct cordon_cgroup_cache *cache);

/* The path of the cgroup with this id, or NULL if it is not known (or cache is NULL). */
const char *cordon_cgroup_cache_lookup(const struct cordon_cgroup_cache *cache, uint64_t id);

/*
 * Keeps id -> path if path, resolved on the mount now, is the cgroup with that id. False when
 * nothing new was kept: the id is known already, or the path is not that cgroup's (the process
 * whose id and path these are moved between the two). The oldest entry makes room when full.
 */
bool cordon_cgroup_cache_add(struct cordon_cgroup_cache *cache, uint64_t id, const char *path);

#endif
