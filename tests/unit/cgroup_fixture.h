/* What the cgroup unit tests read about the test's own cgroup, apart from the code under test. */
#ifndef CORDON_TESTS_UNIT_CGROUP_FIXTURE_H
#define CORDON_TESTS_UNIT_CGROUP_FIXTURE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The 0:: line of /proc/self/cgroup: our own cgroup v2 path; "" if there is none. */
static inline void fixture_own_cgroup(char *out, size_t size) {
	out[0] = '\0';
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (f == NULL) {
		return;
	}
	char line[8192];
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%s", line + 3);
			break;
		}
	}
	fclose(f);
}

/* The id of the cgroup at PATH below the cgroup2 MOUNT (its directory's file handle); 0 if none. */
static inline uint64_t fixture_cgroup_id(const char *mount, const char *path) {
	char dir[8192 + 128];
	if (snprintf(dir, sizeof(dir), "%s%s", mount, path) >= (int)sizeof(dir)) {
		return 0;
	}
	union {
		struct file_handle handle;
		char space[sizeof(struct file_handle) + sizeof(uint64_t)];
	} h;
	h.handle.handle_bytes = sizeof(uint64_t);
	int mount_id;
	if (name_to_handle_at(AT_FDCWD, dir, &h.handle, &mount_id, 0) != 0 ||
		h.handle.handle_bytes != sizeof(uint64_t)) {
		return 0;
	}
	uint64_t id;
	memcpy(&id, h.handle.f_handle, sizeof(id));
	return id;
}

#endif
