/* Unit tests for finding the cgroup2 mount in mountinfo files (tests/unit/data/). */
#include <stdio.h>
#include <string.h>

#include "sandbox/cgroup_mount.h"

static int failures;

static void expect(const char *fixture, bool want_found, const char *want) {
	char path[4096], out[4096];
	snprintf(path, sizeof(path), "%s/%s", CORDON_UNIT_DATA, fixture);
	bool found = cordon_cgroup2_mount_from_file(path, out, sizeof(out));
	if (found != want_found || (found && strcmp(out, want) != 0)) {
		fprintf(stderr, "%s: got %s \"%s\", want %s \"%s\"\n", fixture,
			found ? "found" : "none", found ? out : "", want_found ? "found" : "none",
			want);
		failures++;
	}
}

int main(void) {
	expect("mountinfo-unified", true, "/sys/fs/cgroup");
	expect("mountinfo-hybrid", true, "/sys/fs/cgroup/unified");
	expect("mountinfo-escaped", true, "/run/my cgroup\tdir\\x");
	expect("mountinfo-v1-only", false, "");
	expect("mountinfo-broken", true, "/good");
	expect("does-not-exist", false, "");

	/* Too small a buffer is "not found", never a truncated path. */
	char path[4096], small[8];
	snprintf(path, sizeof(path), "%s/mountinfo-hybrid", CORDON_UNIT_DATA);
	if (cordon_cgroup2_mount_from_file(path, small, sizeof(small))) {
		fprintf(stderr, "a truncated mount point was returned: %s\n", small);
		failures++;
	}

	/* This machine: whatever the live table says must be a directory path. */
	char live[4096];
	if (cordon_cgroup2_mount(live, sizeof(live)) && live[0] != '/') {
		fprintf(stderr, "live cgroup2 mount is not absolute: %s\n", live);
		failures++;
	}
	return failures > 0 ? 1 : 0;
}
