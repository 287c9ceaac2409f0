/* Where the cgroup v2 hierarchy is mounted, read from mountinfo. */
#ifndef CORDON_SANDBOX_CGROUP_MOUNT_H
#define CORDON_SANDBOX_CGROUP_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Finds the first mount of type cgroup2 in a mountinfo file (proc(5) format) and writes its
 * decoded mount point to out. Malformed lines (and cgroup2 lines whose mount point has a broken
 * escape or does not fit) are skipped. Returns false if no cgroup2 mount is left or the file
 * cannot be read.
 */
bool cordon_cgroup2_mount_from_file(const char *mountinfo_path, char *out, size_t out_size);

/* The same for /proc/self/mountinfo. */
bool cordon_cgroup2_mount(char *out, size_t out_size);

#endif
