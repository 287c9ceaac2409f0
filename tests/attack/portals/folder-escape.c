/*
 * A hostile app that asks the file chooser for one folder and then tries to leave it
 * (tests/attack/portals/folder-grant.sh). It binds the highest manager version it knows
 * (5): a directory fd (file event) or a path in its document view (folder event) is
 * what it gets, and it attacks whichever came.
 *
 *   folder-escape HOST_HOME SECRET INSIDE WRITE_DEPTH
 *
 * The folder chosen is HOST_HOME/<one folder>. Writes go at most WRITE_DEPTH levels up
 * (where a test can look, and clean up if cordon let them through). Prints one line per step:
 *   granted fd | granted path PATH       what the portal handed over
 *   inside CONTENT                       INSIDE read through the grant (positive control)
 *   wrote from-app.txt                   a new file made in the folder (positive control)
 *   read PATH: ERRNO-NAME | LEAKED TEXT  each try at SECRET (relative to HOST_HOME)
 *   write PATH: ERRNO-NAME | CREATED     each try at a file "escaped" beside or above
 *   probes N                             how many tries were made: the probe ran
 * Exit status 0 once the probes ran, whatever they found; 2 when no folder came.
 * FOLDER_ESCAPE_VERSION=N binds the manager at most at version N.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "cordon-portal-v1-client-protocol.h"

#define MAX_DEPTH 12

struct state {
	struct cordon_portal_manager_v1 *manager;
	int fd;
	char *path;
	bool answered;
	char *failure;
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	/* FOLDER_ESCAPE_VERSION: an older client, which cannot take a folder event. */
	const char *wanted = getenv("FOLDER_ESCAPE_VERSION");
	uint32_t most = wanted ? (uint32_t)atoi(wanted) : 5;
	if (strcmp(interface, cordon_portal_manager_v1_interface.name) == 0) {
		state->manager = wl_registry_bind(registry, name,
			&cordon_portal_manager_v1_interface, version < most ? version : most);
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

static void handle_file(
	void *data, struct cordon_portal_file_chooser_v1 *chooser, int32_t fd, const char *name) {
	struct state *state = data;
	if (state->fd < 0) {
		state->fd = fd;
	} else {
		close(fd);
	}
}

static void handle_folder(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	const char *path, const char *name) {
	struct state *state = data;
	free(state->path);
	state->path = strdup(path);
}

static void handle_done(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	struct state *state = data;
	state->answered = true;
}

static void handle_cancelled(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	struct state *state = data;
	state->answered = true;
	state->failure = strdup("cancelled");
}

static void handle_failed(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	uint32_t failure, const char *reason) {
	struct state *state = data;
	state->answered = true;
	if (asprintf(&state->failure, "failed %u %s", failure, reason) < 0) {
		state->failure = NULL;
	}
}

static const struct cordon_portal_file_chooser_v1_listener chooser_listener = {
	.file = handle_file,
	.done = handle_done,
	.cancelled = handle_cancelled,
	.failed = handle_failed,
	.folder = handle_folder,
};

static const char *errno_name(int error) {
	switch (error) {
	case ENOENT:
		return "ENOENT";
	case EACCES:
		return "EACCES";
	case EPERM:
		return "EPERM";
	case EROFS:
		return "EROFS";
	case EXDEV:
		return "EXDEV";
	case ENOTDIR:
		return "ENOTDIR";
	case ELOOP:
		return "ELOOP";
	default:
		return strerror(error);
	}
}

/* "../" DEPTH times, then TAIL. */
static void up(char *out, size_t size, int depth, const char *tail) {
	out[0] = '\0';
	for (int i = 0; i < depth; i++) {
		strncat(out, "../", size - strlen(out) - 1);
	}
	strncat(out, tail, size - strlen(out) - 1);
}

static int try_read(int dir, const char *path) {
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("read %s: %s\n", path, errno_name(errno));
		return 1;
	}
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("read %s: LEAKED %s\n", path, buf);
	return 1;
}

static int try_write(int dir, const char *path) {
	int fd = openat(dir, path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		printf("write %s: %s\n", path, errno_name(errno));
		return 1;
	}
	bool wrote = write(fd, "escaped\n", 8) == 8;
	close(fd);
	printf("write %s: CREATED%s\n", path, wrote ? "" : " (empty)");
	return 1;
}

int main(int argc, char *argv[]) {
	if (argc != 5) {
		fprintf(stderr, "usage: folder-escape HOST_HOME SECRET INSIDE WRITE_DEPTH\n");
		return 2;
	}
	const char *home = argv[1], *secret = argv[2], *inside = argv[3];
	int write_depth = atoi(argv[4]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct state state = {.fd = -1};
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "folder-escape: no Wayland display\n");
		return 2;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	wl_display_roundtrip(display);
	if (!state.manager) {
		fprintf(stderr, "folder-escape: no portal manager\n");
		return 2;
	}
	struct cordon_portal_file_chooser_v1 *chooser = cordon_portal_manager_v1_get_file_chooser(
		state.manager, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN);
	cordon_portal_file_chooser_v1_add_listener(chooser, &chooser_listener, &state);
	cordon_portal_file_chooser_v1_set_directory(chooser, 1);
	cordon_portal_file_chooser_v1_submit(chooser);
	while (!state.answered && wl_display_dispatch(display) >= 0) {
	}
	if (state.failure || (state.fd < 0 && !state.path)) {
		printf("no folder: %s\n", state.failure ? state.failure : "nothing handed over");
		return 2;
	}
	int dir = state.fd;
	if (state.path) {
		printf("granted path %s\n", state.path);
		dir = open(state.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0) {
			printf("no folder: cannot open %s: %s\n", state.path, errno_name(errno));
			return 2;
		}
	} else {
		printf("granted fd\n");
	}

	/* Positive controls: the folder itself is the app's to read and write. */
	char buf[256];
	int fd = openat(dir, inside, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("inside %s\n", fd >= 0 ? buf : errno_name(errno));
	if (fd >= 0) {
		close(fd);
	}
	fd = openat(dir, "from-app.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, "written by the app\n", 19) == 19 && close(fd) == 0) {
		printf("wrote from-app.txt\n");
	} else {
		printf("cannot write from-app.txt: %s\n", errno_name(errno));
	}

	/*
	 * The attacks: walk up from the folder by "..", as far as any root, to the secret
	 * beside it (SECRET relative to the home) and to its host path; and make a file
	 * beside the folder or above it. Through the fd and through /proc/self/fd/N too.
	 */
	int probes = 0;
	char path[4096], tail[2048], proc[4200];
	snprintf(tail, sizeof(tail), "%s/%s", home[0] == '/' ? home + 1 : home, secret);
	for (int depth = 1; depth <= MAX_DEPTH; depth++) {
		up(path, sizeof(path), depth, secret);
		probes += try_read(dir, path);
		up(path, sizeof(path), depth, tail);
		probes += try_read(dir, path);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dir, path);
		probes += try_read(AT_FDCWD, proc);
		if (depth <= write_depth) {
			up(path, sizeof(path), depth, "escaped");
			probes += try_write(dir, path);
		}
	}
	snprintf(path, sizeof(path), "%s/escaped", home);
	probes += try_write(AT_FDCWD, path);
	snprintf(path, sizeof(path), "%s/%s", home, secret);
	probes += try_read(AT_FDCWD, path);
	printf("probes %d\n", probes);
	close(dir);
	free(state.path);
	cordon_portal_file_chooser_v1_destroy(chooser);
	cordon_portal_manager_v1_destroy(state.manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return 0;
}
