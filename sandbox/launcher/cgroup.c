/*
 * The sandbox's cgroup: a scope named app-cordon-ID-INSTANCE.scope, which is what cordon reads
 * a client's tag from (sandbox/cgroup_tag.c). The child is born in it (clone3 with
 * CLONE_INTO_CGROUP, namespaces.c), so not one instruction of it runs elsewhere, and the
 * sandbox never sees the cgroup filesystem (no /sys, the directory fd is close-on-exec), so it
 * cannot move itself and change its tag.
 *
 * Where the scope goes, first match wins:
 *  1. --cgroup-parent DIR (a cgroup2 directory the user may write, e.g. one systemd delegated);
 *  2. the systemd user manager, when one answers on the user bus (systemd_scope.c);
 *  3. beside the launcher: the parent of its own cgroup (under a systemd user session that is
 *     app.slice or similar, which the user owns), else inside its own cgroup;
 *  as root outside any cgroup (CI) both are the root of the cgroup2 mount.
 * A move needs write access to cgroup.procs of the common ancestor of both cgroups; a parent
 * that is not writable gives a clear error, never a sandbox outside its scope.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/cgroup_mount.h"
#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* The launcher's own cgroup v2 path ("0::PATH"), or NULL. */
static char *own_cgroup(void) {
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (f == NULL) {
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	char *path = NULL;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			path = strdup(line + 3);
			break;
		}
	}
	free(line);
	fclose(f);
	return path;
}

static bool try_make_scope(struct cordon_launch *launch, const char *parent, const char *name) {
	char *path = cordon_strdup_printf("%s/%s", parent, name);
	if (mkdir(path, 0755) < 0) {
		cordon_debug("cannot make a scope under %s: %s", parent, strerror(errno));
		free(path);
		return false;
	}
	launch->cgroup_path = path;
	return true;
}

static void check_cgroup2(const char *dir) {
	struct statfs fs;
	if (statfs(dir, &fs) < 0) {
		cordon_die_errno("--cgroup-parent %s", dir);
	}
	if (fs.f_type != CGROUP2_SUPER_MAGIC) {
		cordon_die("--cgroup-parent %s is not a cgroup v2 directory", dir);
	}
}

void cordon_launch_create_scope(struct cordon_launch *launch) {
	const struct cordon_launch_options *o = &launch->options;
	cleanup_free char *name =
		cordon_strdup_printf("app-cordon-%s-%s.scope", o->app_id, launch->instance);

	if (o->cgroup_parent == NULL && cordon_launch_systemd_scope(launch, name)) {
		/* systemd made it; opened below like the others. */
	} else if (o->cgroup_parent != NULL) {
		check_cgroup2(o->cgroup_parent);
		if (!try_make_scope(launch, o->cgroup_parent, name)) {
			cordon_die_errno(
				"cannot create the sandbox's cgroup %s under --cgroup-parent %s",
				name, o->cgroup_parent);
		}
	} else {
		char mount[4096];
		if (!cordon_cgroup2_mount(mount, sizeof(mount))) {
			cordon_die(
				"no cgroup v2 mount in /proc/self/mountinfo: the sandbox needs its "
				"own cgroup (docs/sandbox.md)");
		}
		cleanup_free char *own = own_cgroup();
		if (own == NULL || own[0] != '/') {
			cordon_die(
				"cannot read the launcher's cgroup v2 path from /proc/self/cgroup");
		}
		cleanup_free char *own_dir =
			cordon_strdup_printf("%s%s", mount, strcmp(own, "/") == 0 ? "" : own);
		cleanup_free char *parent_dir = strdup(own_dir);
		char *slash = parent_dir != NULL ? strrchr(parent_dir, '/') : NULL;
		if (slash != NULL && strlen(parent_dir) > strlen(mount)) {
			*slash = '\0';
		}
		if (!try_make_scope(launch, parent_dir, name) &&
			!try_make_scope(launch, own_dir, name)) {
			cordon_die(
				"cannot create the sandbox's cgroup %s beside or below the launcher's "
				"cgroup %s (no write access); pass --cgroup-parent a cgroup v2 directory "
				"you may write (docs/sandbox.md)",
				name, own_dir);
		}
	}
	launch->cgroup_fd = open(launch->cgroup_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (launch->cgroup_fd < 0) {
		cordon_die_errno("opening the sandbox's cgroup %s", launch->cgroup_path);
	}
	cordon_debug("cgroup scope %s (made by %s)", launch->cgroup_path,
		launch->systemd_scope ? "the systemd user manager"
				      : "cordon-run in the cgroup tree");
}

void cordon_launch_remove_scope(struct cordon_launch *launch) {
	if (launch->cgroup_fd >= 0) {
		close(launch->cgroup_fd);
		launch->cgroup_fd = -1;
	}
	cordon_launch_release_scope_helper(launch);
	if (launch->cgroup_path == NULL) {
		return;
	}
	if (launch->systemd_scope) {
		/* Empty now; systemd stops and collects it (CollectMode=inactive-or-failed). */
		free(launch->cgroup_path);
		launch->cgroup_path = NULL;
		return;
	}
	/*
	 * The pid namespace's init exits only after every process in it is gone, but the cgroup
	 * may report itself populated for a moment longer: retry EBUSY for up to two seconds.
	 */
	for (int i = 0; i < 200; i++) {
		if (rmdir(launch->cgroup_path) == 0 || errno == ENOENT) {
			break;
		}
		if (errno != EBUSY) {
			fprintf(stderr, "cordon-run: removing the cgroup %s: %s\n",
				launch->cgroup_path, strerror(errno));
			break;
		}
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
	}
	free(launch->cgroup_path);
	launch->cgroup_path = NULL;
}
