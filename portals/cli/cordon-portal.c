/*
 * cordon-portal: asks cordon's portal for files from a shell, for scripts inside
 * a sandbox and for tests (docs/portals.md).
 *
 *   cordon-portal open-file [--multiple] [--directory] [--filter NAME:PATTERN]...
 *                           [--title TITLE] --output DIR
 *   cordon-portal save-file --name NAME [--title TITLE] < DATA
 *   cordon-portal take-photo ... --output FILE, camera-stream ... (camera.c)
 *   cordon-portal print FILE|- [--printer NAME] [--copies N] ...   (cli/print.c)
 *   cordon-portal prepare-print [--printer NAME] ...
 *
 * --timeout SECONDS before the command bounds every wait (default 600): for the
 * compositor, for the answer, for each frame of a stream.
 * Exit status: 0 chosen, 1 cancelled, 2 usage, 3 refused or failed (or timed out),
 * 4 no portal.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-client.h>

#include "camera.h"
#include "common.h"
#include "cordon-portal-v1-client-protocol.h"
#include "print.h"

#define MAX_FILES 64
#define MAX_FILTERS 32

struct chosen {
	int fd;
	char *name;
};

struct state {
	struct cordon_portal_manager_v1 *manager;
	struct cordon_portal_cli_answer answer;
	struct chosen files[MAX_FILES];
	size_t file_count;
};

static void handle_file(void *data, struct cordon_portal_file_chooser_v1 *chooser, int32_t fd,
	const char *display_name) {
	struct state *state = data;
	if (state->file_count == MAX_FILES) {
		close(fd);
		return;
	}
	state->files[state->file_count++] = (struct chosen){fd, strdup(display_name)};
}

/*
 * A chosen folder, for an app in a sandbox: a path in its own document view (manager
 * version 5). Opened here like any folder of the app's; ".." from it stays in the view.
 */
static void handle_folder(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	const char *path, const char *display_name) {
	struct state *state = data;
	if (state->file_count == MAX_FILES) {
		return;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cordon-portal: cannot open the granted folder %s: %s\n", path,
			strerror(errno));
		return;
	}
	state->files[state->file_count++] = (struct chosen){fd, strdup(display_name)};
}

static void handle_done(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	struct state *state = data;
	cordon_portal_cli_chosen(&state->answer);
}

static void handle_cancelled(void *data, struct cordon_portal_file_chooser_v1 *chooser) {
	struct state *state = data;
	cordon_portal_cli_cancelled(&state->answer);
}

static void handle_failed(void *data, struct cordon_portal_file_chooser_v1 *chooser,
	uint32_t failure, const char *reason) {
	struct state *state = data;
	cordon_portal_cli_failed(&state->answer, failure, reason);
}

static const struct cordon_portal_file_chooser_v1_listener chooser_listener = {
	.file = handle_file,
	.done = handle_done,
	.folder = handle_folder,
	.cancelled = handle_cancelled,
	.failed = handle_failed,
};

static int usage(FILE *out, int status) {
	fprintf(out,
		"Usage: cordon-portal [--timeout SECONDS] COMMAND ...\n"
		"       cordon-portal open-file [--multiple] [--directory] [--filter NAME:PATTERN]...\n"
		"                               [--title TITLE] --output DIR\n"
		"       cordon-portal save-file --name NAME [--title TITLE] < DATA\n"
		"       cordon-portal take-photo [--width W --height H] [--mime-type TYPE]...\n"
		"                                --output FILE\n"
		"       cordon-portal camera-stream [--width W --height H] [--frames N]\n"
		"                                   [--save-frame FILE]\n"
		"       cordon-portal print FILE|- [--printer NAME] [--copies N] [--pages RANGE]\n"
		"                           [--set KEY=VALUE]... [--token TOKEN] [--modal]\n"
		"                           [--mime-type TYPE] [--title TITLE] [--fd N]\n"
		"       cordon-portal prepare-print [--printer NAME] [--copies N] [--pages RANGE]\n"
		"                                   [--set KEY=VALUE]... [--title TITLE]\n"
		"\n"
		"open-file copies each chosen file into DIR (a chosen directory's files into\n"
		"DIR/NAME/) and prints the names; save-file writes standard input to the chosen file.\n"
		"--timeout bounds every wait: for the compositor, the answer (a dialog nobody\n"
		"answers) and each frame of a stream; default 600 s.\n"
		"Exit status: 0 chosen, 1 cancelled, 2 usage, 3 refused, failed or timed out,\n"
		"4 no portal;\n"
		"camera-stream's once its stream is open: cordon-portal camera-stream --help.\n");
	return status;
}

static bool copy_fd(int from, int to) {
	char buffer[65536];
	for (;;) {
		ssize_t n = read(from, buffer, sizeof(buffer));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			return false;
		}
		if (n == 0) {
			return true;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(to, buffer + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR) {
				continue;
			}
			if (w <= 0) {
				return false;
			}
			done += w;
		}
	}
}

/* The compositor's word for a name is still checked: it must stay inside DIR. */
static bool safe_name(const char *name) {
	return name && name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 &&
		strcmp(name, "..") != 0;
}

static bool copy_into(int dir_fd, const char *name, int from) {
	int to = openat(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (to < 0) {
		return false;
	}
	bool ok = copy_fd(from, to);
	return close(to) == 0 && ok;
}

/* A chosen directory: its regular files, one level deep. */
static bool copy_directory(int out_fd, const char *name, int dir) {
	if (mkdirat(out_fd, name, 0755) != 0 && errno != EEXIST) {
		return false;
	}
	int target = openat(out_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *listing = fdopendir(dup(dir));
	if (target < 0 || !listing) {
		if (target >= 0) {
			close(target);
		}
		return false;
	}
	bool ok = true;
	struct dirent *entry;
	while ((entry = readdir(listing))) {
		int from =
			openat(dir, entry->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		struct stat st;
		if (from < 0) {
			continue;
		}
		if (fstat(from, &st) == 0 && S_ISREG(st.st_mode)) {
			ok = copy_into(target, entry->d_name, from) && ok;
		}
		close(from);
	}
	closedir(listing);
	close(target);
	return ok;
}

static int write_open_results(struct state *state, const char *output, bool directory) {
	int out_fd = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (out_fd < 0) {
		fprintf(stderr, "cordon-portal: cannot open %s: %s\n", output, strerror(errno));
		return EXIT_FAILED;
	}
	int status = EXIT_CHOSEN;
	for (size_t i = 0; i < state->file_count; i++) {
		struct chosen *file = &state->files[i];
		if (!safe_name(file->name)) {
			fprintf(stderr, "cordon-portal: the portal gave a bad file name\n");
			status = EXIT_FAILED;
			continue;
		}
		bool ok = directory ? copy_directory(out_fd, file->name, file->fd)
				    : copy_into(out_fd, file->name, file->fd);
		if (!ok) {
			fprintf(stderr, "cordon-portal: cannot copy %s into %s: %s\n", file->name,
				output, strerror(errno));
			status = EXIT_FAILED;
			continue;
		}
		printf("%s\n", file->name);
	}
	close(out_fd);
	return status;
}

static int write_save_result(struct state *state) {
	if (state->file_count != 1) {
		fprintf(stderr, "cordon-portal: the portal gave %zu files for one save\n",
			state->file_count);
		return EXIT_FAILED;
	}
	int fd = state->files[0].fd;
	/* The user chose to replace the file: its old contents go. */
	if (ftruncate(fd, 0) != 0 || !copy_fd(STDIN_FILENO, fd) || fsync(fd) != 0) {
		fprintf(stderr, "cordon-portal: cannot write %s: %s\n", state->files[0].name,
			strerror(errno));
		return EXIT_FAILED;
	}
	printf("%s\n", state->files[0].name);
	return EXIT_CHOSEN;
}

/* --timeout SECONDS before the command: consumed, so that the command's argv[1] is itself. */
static bool parse_timeout(int *argc, char ***argv, int *timeout_ms) {
	*timeout_ms = CORDON_PORTAL_CLI_DEFAULT_TIMEOUT_S * 1000;
	if (*argc < 2 || strcmp((*argv)[1], "--timeout") != 0) {
		return true;
	}
	char *end = NULL;
	long seconds = *argc > 2 ? strtol((*argv)[2], &end, 10) : 0;
	if (*argc < 3 || *end != '\0' || seconds < 1 || seconds > 24 * 3600) {
		fprintf(stderr, "cordon-portal: --timeout takes seconds, 1 to 86400\n");
		return false;
	}
	*timeout_ms = (int)seconds * 1000;
	(*argv)[2] = (*argv)[0];
	*argv += 2;
	*argc -= 2;
	return true;
}

int main(int argc, char *argv[]) {
	int timeout_ms;
	if (!parse_timeout(&argc, &argv, &timeout_ms)) {
		return EXIT_USAGE;
	}
	if (argc < 2) {
		return usage(stderr, EXIT_USAGE);
	}
	const char *command = argv[1];
	if (strcmp(command, "take-photo") == 0 || strcmp(command, "camera-stream") == 0) {
		return cordon_portal_camera_main(argc, argv, timeout_ms);
	}
	bool save;
	if (strcmp(command, "open-file") == 0) {
		save = false;
	} else if (strcmp(command, "save-file") == 0) {
		save = true;
	} else if (strcmp(command, "print") == 0 || strcmp(command, "prepare-print") == 0) {
		return cordon_portal_print_main(
			argc, argv, strcmp(command, "prepare-print") == 0, timeout_ms);
	} else if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0) {
		return usage(stdout, EXIT_CHOSEN);
	} else {
		fprintf(stderr,
			"cordon-portal: unknown command '%s' (open-file, save-file, print "
			"or prepare-print)\n",
			command);
		return EXIT_USAGE;
	}

	static const struct option options[] = {
		{"multiple", no_argument, NULL, 'm'},
		{"directory", no_argument, NULL, 'd'},
		{"filter", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"name", required_argument, NULL, 'n'},
		{"title", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	bool multiple = false, directory = false;
	const char *output = NULL, *name = NULL, *title = NULL;
	const char *filters[MAX_FILTERS];
	size_t filter_count = 0;
	int opt;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			multiple = true;
			break;
		case 'd':
			directory = true;
			break;
		case 'f':
			if (filter_count == MAX_FILTERS || !strchr(optarg, ':')) {
				fprintf(stderr,
					"cordon-portal: --filter takes NAME:PATTERN (at most %d)\n",
					MAX_FILTERS);
				return EXIT_USAGE;
			}
			filters[filter_count++] = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			return usage(stdout, EXIT_CHOSEN);
		default:
			return usage(stderr, EXIT_USAGE);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "cordon-portal: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!save && !output) {
		fprintf(stderr, "cordon-portal: open-file needs --output DIR\n");
		return EXIT_USAGE;
	}
	if (save && (!name || multiple || directory || output)) {
		fprintf(stderr,
			"cordon-portal: save-file takes --name NAME and no open-file options\n");
		return EXIT_USAGE;
	}

	struct state state = {0};
	struct wl_display *display;
	/* Version 5: a sandboxed app is given folders as paths of its documents. */
	state.manager = cordon_portal_cli_connect_range(&display, 1, 5, "cordon", timeout_ms);
	if (!state.manager) {
		return EXIT_NO_PORTAL;
	}

	struct cordon_portal_file_chooser_v1 *chooser =
		cordon_portal_manager_v1_get_file_chooser(state.manager,
			save ? CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE
			     : CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN);
	cordon_portal_file_chooser_v1_add_listener(chooser, &chooser_listener, &state);
	if (title) {
		cordon_portal_file_chooser_v1_set_title(chooser, title);
	}
	if (save) {
		cordon_portal_file_chooser_v1_set_current_name(chooser, name);
	} else {
		cordon_portal_file_chooser_v1_set_multiple(chooser, multiple);
		cordon_portal_file_chooser_v1_set_directory(chooser, directory);
	}
	for (size_t i = 0; i < filter_count; i++) {
		char *copy = strdup(filters[i]);
		char *colon = strchr(copy, ':');
		*colon = '\0';
		cordon_portal_file_chooser_v1_add_filter(chooser, copy);
		cordon_portal_file_chooser_v1_add_pattern(chooser, colon + 1);
		free(copy);
	}
	cordon_portal_file_chooser_v1_submit(chooser);

	int status = cordon_portal_cli_wait(display, &state.answer, timeout_ms);
	if (status == EXIT_CHOSEN) {
		status = save ? write_save_result(&state)
			      : write_open_results(&state, output, directory);
	}
	for (size_t i = 0; i < state.file_count; i++) {
		close(state.files[i].fd);
		free(state.files[i].name);
	}
	cordon_portal_file_chooser_v1_destroy(chooser);
	cordon_portal_manager_v1_destroy(state.manager);
	wl_display_disconnect(display);
	return status;
}
