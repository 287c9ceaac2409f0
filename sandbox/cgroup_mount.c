/*
 * The cgroup2 mount point from mountinfo. It is not always /sys/fs/cgroup: hybrid systems mount
 * v2 at /sys/fs/cgroup/unified, containers elsewhere. Mount points in mountinfo escape space,
 * tab, newline and backslash as three octal digits (\040); a mount point with such a character
 * must still be found, and a broken escape must not be taken for a path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/cgroup_mount.h"

static bool decode_octal(const char *src, size_t len, char *out, size_t out_size) {
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		char c = src[i];
		if (c == '\\') {
			if (i + 3 >= len) {
				return false;
			}
			int v = 0;
			for (size_t k = 1; k <= 3; k++) {
				char d = src[i + k];
				if (d < '0' || d > '7') {
					return false;
				}
				v = v * 8 + (d - '0');
			}
			if (v == 0 || v > 0xff) {
				return false;
			}
			c = (char)v;
			i += 3;
		}
		if (n + 1 >= out_size) {
			return false;
		}
		out[n++] = c;
	}
	out[n] = '\0';
	return true;
}

/*
 * One line: "id parent major:minor root mount-point options [optional...] - fstype source
 * super-options". Returns 1 with the decoded mount point for a cgroup2 line, 0 for another
 * fstype, -1 if the line is malformed.
 */
static int parse_line(char *line, char *out, size_t out_size) {
	char *save = NULL;
	char *field[5];
	for (int i = 0; i < 5; i++) {
		field[i] = strtok_r(i == 0 ? line : NULL, " \n", &save);
		if (field[i] == NULL) {
			return -1;
		}
	}
	char *tok;
	while ((tok = strtok_r(NULL, " \n", &save)) != NULL && strcmp(tok, "-") != 0) {
		/* optional fields (shared:N, master:N) */
	}
	if (tok == NULL) {
		return -1;
	}
	char *fstype = strtok_r(NULL, " \n", &save);
	if (fstype == NULL) {
		return -1;
	}
	if (strcmp(fstype, "cgroup2") != 0) {
		return 0;
	}
	const char *mount_point = field[4];
	if (!decode_octal(mount_point, strlen(mount_point), out, out_size) || out[0] != '/') {
		return -1;
	}
	return 1;
}

bool cordon_cgroup2_mount_from_file(const char *mountinfo_path, char *out, size_t out_size) {
	FILE *f = fopen(mountinfo_path, "re");
	if (f == NULL) {
		return false;
	}
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	while (getline(&line, &cap, f) >= 0) {
		int r = parse_line(line, out, out_size);
		if (r == 1) {
			found = true;
			break;
		}
	}
	free(line);
	fclose(f);
	if (!found && out_size > 0) {
		out[0] = '\0';
	}
	return found;
}

bool cordon_cgroup2_mount(char *out, size_t out_size) {
	return cordon_cgroup2_mount_from_file("/proc/self/mountinfo", out, out_size);
}
