/*
 * The cgroup2 mount point from mountinfo (sandbox/cgroup_mount.c). The kernel writes the file,
 * but mount points are names a user (or a sandbox with its own mount namespace) chose, with
 * octal escapes. The parser takes a path, so the input is handed over as a memfd's
 * /proc/self/fd path, read as the real file is. Oracle: a found mount point is absolute,
 * NUL-terminated within the buffer and has no NUL-decoded byte; nothing found leaves "".
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "sandbox/cgroup_mount.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	int fd = memfd_create("mountinfo", MFD_CLOEXEC);
	fuzz_require(fd >= 0, "memfd_create");
	fuzz_require(size == 0 || write(fd, data, size) == (ssize_t)size, "write to the memfd");
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* A small buffer too: a long mount point must be skipped, not cut. */
	size_t sizes[] = {4096, 16};
	for (size_t i = 0; i < 2; i++) {
		char out[4096 + 1];
		out[sizes[i]] = 'X';
		bool found = cordon_cgroup2_mount_from_file(path, out, sizes[i]);
		fuzz_require(out[sizes[i]] == 'X', "nothing is written past the buffer");
		fuzz_require(memchr(out, '\0', sizes[i]) != NULL, "the mount point ends in a NUL");
		fuzz_require(found ? out[0] == '/' : out[0] == '\0',
			"a found mount point is absolute, none is empty");
	}
	close(fd);
	return 0;
}
