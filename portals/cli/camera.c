/*
 * cordon-portal take-photo [--width W --height H] [--mime-type TYPE]... --output FILE
 * cordon-portal camera-stream
 *
 * take-photo writes the photo to FILE and prints its mime type; the fd must be
 * a sealed read-only memfd, as the protocol promises (an app that maps a photo
 * relies on it not shrinking under it). camera-stream prints what the stream fd
 * is. Exit status as for the other commands: 0, 1 cancelled, 2 usage, 3 refused
 * or failed, 4 no camera portal.
 */
#include "camera.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"
#include "cordon-portal-v1-client-protocol.h"

#define MAX_MIME_TYPES 16

struct state {
	struct cordon_portal_manager_v1 *manager;
	struct cordon_portal_cli_answer answer;
	int fd;
	char mime_type[256];
};

static void handle_photo(void *data, struct cordon_portal_camera_photo_v1 *photo, int32_t fd,
		const char *mime_type) {
	struct state *state = data;
	cordon_portal_cli_chosen(&state->answer);
	state->fd = fd;
	snprintf(state->mime_type, sizeof(state->mime_type), "%s", mime_type);
}

static void handle_photo_cancelled(void *data, struct cordon_portal_camera_photo_v1 *photo) {
	cordon_portal_cli_cancelled(&((struct state *)data)->answer);
}

static void handle_photo_failed(void *data, struct cordon_portal_camera_photo_v1 *photo,
		uint32_t failure, const char *reason) {
	cordon_portal_cli_failed(&((struct state *)data)->answer, failure, reason);
}

static const struct cordon_portal_camera_photo_v1_listener photo_listener = {
	.photo = handle_photo,
	.cancelled = handle_photo_cancelled,
	.failed = handle_photo_failed,
};

static void handle_stream(void *data, struct cordon_portal_camera_stream_v1 *stream,
		int32_t fd) {
	struct state *state = data;
	cordon_portal_cli_chosen(&state->answer);
	state->fd = fd;
}

static void handle_stream_cancelled(void *data, struct cordon_portal_camera_stream_v1 *stream) {
	cordon_portal_cli_cancelled(&((struct state *)data)->answer);
}

static void handle_stream_failed(void *data, struct cordon_portal_camera_stream_v1 *stream,
		uint32_t failure, const char *reason) {
	cordon_portal_cli_failed(&((struct state *)data)->answer, failure, reason);
}

static const struct cordon_portal_camera_stream_v1_listener stream_listener = {
	.stream = handle_stream,
	.cancelled = handle_stream_cancelled,
	.failed = handle_stream_failed,
};

static int usage(FILE *out, int status) {
	fprintf(out,
		"Usage: cordon-portal take-photo [--width W --height H] [--mime-type TYPE]...\n"
		"                                --output FILE\n"
		"       cordon-portal camera-stream\n");
	return status;
}

/* The photo must not change under its reader: sealed against writes and size changes. */
static bool check_sealed(int fd) {
	int seals = fcntl(fd, F_GET_SEALS);
	int needed = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
	int mode = fcntl(fd, F_GETFL);
	return seals >= 0 && (seals & needed) == needed && mode >= 0 &&
		(mode & O_ACCMODE) == O_RDONLY;
}

static int save_photo(int fd, const char *output) {
	if (!check_sealed(fd)) {
		fprintf(stderr, "cordon-portal: the photo fd is not sealed and read-only\n");
		return EXIT_FAILED;
	}
	int out = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "cordon-portal: %s: %s\n", output, strerror(errno));
		return EXIT_FAILED;
	}
	char buffer[65536];
	ssize_t n;
	off_t offset = 0;
	bool ok = true;
	while ((n = pread(fd, buffer, sizeof(buffer), offset)) > 0) {
		offset += n;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buffer + done, (size_t)(n - done));
			if (w <= 0) {
				ok = false;
				break;
			}
			done += w;
		}
	}
	ok = ok && n == 0;
	if (close(out) != 0 || !ok) {
		fprintf(stderr, "cordon-portal: %s: cannot write the photo\n", output);
		return EXIT_FAILED;
	}
	return EXIT_CHOSEN;
}

static int describe_stream(int fd) {
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
		fprintf(stderr, "cordon-portal: the stream fd is not a device\n");
		return EXIT_FAILED;
	}
	int mode = fcntl(fd, F_GETFL);
	printf("stream: character device %u:%u, %s\n", major(st.st_rdev), minor(st.st_rdev),
		(mode & O_ACCMODE) == O_RDONLY ? "read-only" : "writable");
	return EXIT_CHOSEN;
}

int cordon_portal_camera_main(int argc, char *argv[]) {
	bool photo_command = strcmp(argv[1], "take-photo") == 0;
	static const struct option options[] = {
		{"width", required_argument, NULL, 'w'},
		{"height", required_argument, NULL, 'H'},
		{"mime-type", required_argument, NULL, 'm'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *output = NULL;
	const char *mime_types[MAX_MIME_TYPES];
	size_t mime_type_count = 0;
	unsigned long width = 0, height = 0;
	int opt;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		char *end;
		switch (opt) {
		case 'w':
		case 'H':
			errno = 0;
			unsigned long value = strtoul(optarg, &end, 10);
			if (!photo_command || errno || *end || end == optarg || value == 0 ||
					value > 8192) {
				fprintf(stderr, "cordon-portal: --width and --height take 1 to 8192\n");
				return EXIT_USAGE;
			}
			*(opt == 'w' ? &width : &height) = value;
			break;
		case 'm':
			if (!photo_command || mime_type_count == MAX_MIME_TYPES) {
				return usage(stderr, EXIT_USAGE);
			}
			mime_types[mime_type_count++] = optarg;
			break;
		case 'o':
			output = optarg;
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
	if (photo_command ? !output : output != NULL) {
		fprintf(stderr, "cordon-portal: take-photo needs --output FILE; camera-stream "
			"takes no options\n");
		return EXIT_USAGE;
	}
	if ((width == 0) != (height == 0)) {
		fprintf(stderr, "cordon-portal: --width and --height come together\n");
		return EXIT_USAGE;
	}

	struct state state = {.fd = -1};
	struct wl_display *display;
	state.manager = cordon_portal_cli_connect(&display, 2, "camera");
	if (!state.manager) {
		return EXIT_NO_PORTAL;
	}
	struct cordon_portal_camera_photo_v1 *photo = NULL;
	struct cordon_portal_camera_stream_v1 *stream = NULL;
	if (photo_command) {
		photo = cordon_portal_manager_v1_take_photo(state.manager);
		cordon_portal_camera_photo_v1_add_listener(photo, &photo_listener, &state);
		if (width) {
			cordon_portal_camera_photo_v1_set_size(photo, (uint32_t)width,
				(uint32_t)height);
		}
		for (size_t i = 0; i < mime_type_count; i++) {
			cordon_portal_camera_photo_v1_add_mime_type(photo, mime_types[i]);
		}
		cordon_portal_camera_photo_v1_submit(photo);
	} else {
		stream = cordon_portal_manager_v1_open_camera_stream(state.manager);
		cordon_portal_camera_stream_v1_add_listener(stream, &stream_listener, &state);
		cordon_portal_camera_stream_v1_submit(stream);
	}
	int status = cordon_portal_cli_wait(display, &state.answer);
	if (status == EXIT_CHOSEN && photo_command) {
		status = save_photo(state.fd, output);
		if (status == EXIT_CHOSEN) {
			printf("%s\n", state.mime_type);
		}
	} else if (status == EXIT_CHOSEN) {
		status = describe_stream(state.fd);
	}
	if (state.fd >= 0) {
		close(state.fd);
	}
	if (photo) {
		cordon_portal_camera_photo_v1_destroy(photo);
	}
	if (stream) {
		cordon_portal_camera_stream_v1_destroy(stream);
	}
	cordon_portal_manager_v1_destroy(state.manager);
	wl_display_disconnect(display);
	return status;
}

/*
 * Read by AddressSanitizer in sanitized builds, unused otherwise. Inside a cordon-run
 * sandbox (tests/portal/camera.sh runs cordon-portal there) LeakSanitizer cannot work:
 * it needs ptrace, which the sandbox refuses, and ASAN_OPTIONS does not pass in.
 * Outside, ASAN_OPTIONS from the environment overrides this.
 */
const char *__asan_default_options(void);
__attribute__((used)) const char *__asan_default_options(void) {
	return "detect_leaks=0";
}
