/*
 * The host directories a sandbox is built from, opened once, before any namespace exists.
 *
 * The per-app data dirs ($XDG_DATA_HOME/cordon/apps/ID/{data,config,cache}) are written by the
 * app itself: between a stat and a mount it could swap one for a symlink to the host $HOME. So
 * every component below $XDG_DATA_HOME is made and opened relative to its parent's fd with
 * O_NOFOLLOW | O_DIRECTORY, and the mounts later take /proc/self/fd/N as their source: the
 * directory bound is the one opened here, whatever the path says by then.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* mkdir -p for a host path the user controls anyway ($XDG_DATA_HOME itself). */
static void make_host_dirs(const char *path) {
	cleanup_free char *copy = strdup(path);
	if (copy == NULL) {
		cordon_die_errno("copying %s", path);
	}
	for (char *p = copy + 1; *p != '\0'; p++) {
		if (*p != '/') {
			continue;
		}
		*p = '\0';
		if (mkdir(copy, 0700) < 0 && errno != EEXIST) {
			cordon_die_errno("creating %s", copy);
		}
		*p = '/';
	}
	if (mkdir(copy, 0700) < 0 && errno != EEXIST) {
		cordon_die_errno("creating %s", copy);
	}
}

/* Makes (if needed) and opens dir_fd/name, refusing a symlink in its place. */
static int open_child_dir(int dir_fd, const char *name, const char *what) {
	if (mkdirat(dir_fd, name, 0700) < 0 && errno != EEXIST) {
		cordon_die_errno("creating %s component '%s'", what, name);
	}
	int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR) {
			cordon_die("%s component '%s' is not a directory (a symlink is refused)",
				what, name);
		}
		cordon_die_errno("opening %s component '%s'", what, name);
	}
	return fd;
}

static char *data_home(void) {
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg != NULL && xdg[0] == '/') {
		return strdup(xdg);
	}
	const char *home = getenv("HOME");
	if (home == NULL || home[0] != '/') {
		cordon_die(
			"neither XDG_DATA_HOME nor HOME is an absolute path: nowhere to keep the "
			"app's data");
	}
	return cordon_strdup_printf("%s/.local/share", home);
}

static int open_host_dir(const char *path, const char *option) {
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		cordon_die_errno("%s %s: cannot open the directory", option, path);
	}
	return fd;
}

void cordon_launch_open_dirs(struct cordon_launch *launch) {
	const struct cordon_launch_options *o = &launch->options;
	if (o->app_dir != NULL) {
		launch->app_fd = open_host_dir(o->app_dir, "--app");
	}
	launch->usr_fd = open_host_dir(o->runtime != NULL ? o->runtime : "/usr",
		o->runtime != NULL ? "--runtime" : "the host's");

	cleanup_free char *base = data_home();
	make_host_dirs(base);
	cleanup_fd int base_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (base_fd < 0) {
		cordon_die_errno("opening %s", base);
	}
	const char *what = "the per-app data dir";
	cleanup_fd int cordon_fd = open_child_dir(base_fd, "cordon", what);
	cleanup_fd int apps_fd = open_child_dir(cordon_fd, "apps", what);
	cleanup_fd int app_fd = open_child_dir(apps_fd, o->app_id, what);
	launch->data_fd = open_child_dir(app_fd, "data", what);
	launch->config_fd = open_child_dir(app_fd, "config", what);
	launch->cache_fd = open_child_dir(app_fd, "cache", what);
	cordon_debug("per-app data in %s/cordon/apps/%s", base, o->app_id);
}
