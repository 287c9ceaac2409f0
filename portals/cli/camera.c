/*
 * cordon-portal take-photo [--width W --height H] [--mime-type TYPE]... --output FILE
 * cordon-portal camera-stream [--width W --height H] [--frames N] [--save-frame FILE]
 *
 * take-photo writes the photo to FILE and prints its mime type; the fd must be
 * a sealed read-only memfd, as the protocol promises (an app that maps a photo
 * relies on it not shrinking under it). camera-stream prints "stream", then
 * "frame SEQ WxH" for each frame it reads from the stream's pipe, "ended REASON
 * MESSAGE" when cordon ends it and "eof" when the pipe ends without a word. Exit
 * status as for the other commands: 0, 1 cancelled, 2 usage, 3 refused or failed,
 * 4 no camera portal; once a stream is open, STREAM_EXIT_* below.
 */
#include "camera.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"
#include "cordon-portal-v1-client-protocol.h"
#include "frame_reader.h"

#define MAX_MIME_TYPES 16
/* take_photo and open_camera_stream came in 2; 4 made the stream a pipe of frames. */
#define CAMERA_MIN_VERSION 2
#define CAMERA_MAX_VERSION 4
#define STREAM_FRAMES_VERSION 4

/*
 * camera-stream's exit statuses once the stream is open (the usage text lists them),
 * apart from those of the other commands.
 */
enum {
	STREAM_EXIT_ERROR = 1, /* not a frame, a read error, the compositor gone, FILE unsaved */
	STREAM_EXIT_REVOKED = 5, /* ended revoked */
	STREAM_EXIT_ENDED = 6, /* ended for another reason: the provider's, or the app closed it */
	STREAM_EXIT_EOF = 7, /* the pipe ended without an ended event */
};

struct options {
	bool photo; /* take-photo, else camera-stream */
	uint32_t width, height; /* 0: none asked */
	const char *output;
	const char *mime_types[MAX_MIME_TYPES];
	size_t mime_type_count;
	uint64_t frames; /* camera-stream: stop after this many; 0 to read until the end */
	const char *save_frame;
	int timeout_ms; /* the longest wait: for the answer, for a frame */
};

struct state {
	struct cordon_portal_manager_v1 *manager;
	struct cordon_portal_cli_answer answer;
	int fd;
	char mime_type[256];
	/* camera-stream: the ended event, printed in its turn after "stream" */
	bool ended, ended_printed;
	uint32_t end_reason;
	char end_message[512];
};

/* What camera-stream read, for its summary and --save-frame. */
struct stream_run {
	struct cordon_portal_cli_frame_reader reader;
	uint64_t frames, dropped;
	uint64_t next_sequence; /* the provider counts from 0: an earlier first frame is a gap */
	unsigned char *last; /* the last frame's rows, without their padding */
	size_t last_size;
	uint32_t last_width, last_height;
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

static void handle_stream(void *data, struct cordon_portal_camera_stream_v1 *stream, int32_t fd) {
	struct state *state = data;
	if (state->fd >= 0) {
		close(state->fd);
	}
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

static void handle_stream_ended(void *data, struct cordon_portal_camera_stream_v1 *stream,
	uint32_t reason, const char *message) {
	struct state *state = data;
	state->ended = true;
	state->end_reason = reason;
	snprintf(state->end_message, sizeof(state->end_message), "%s", message);
}

static const struct cordon_portal_camera_stream_v1_listener stream_listener = {
	.stream = handle_stream,
	.cancelled = handle_stream_cancelled,
	.failed = handle_stream_failed,
	.ended = handle_stream_ended,
};

static int usage(FILE *out, int status) {
	fprintf(out,
		"Usage: cordon-portal take-photo [--width W --height H] [--mime-type TYPE]...\n"
		"                                --output FILE\n"
		"       cordon-portal camera-stream [--width W --height H] [--frames N]\n"
		"                                   [--save-frame FILE]\n"
		"\n"
		"take-photo writes the photo to FILE (W and H 1 to 8192) and prints its mime type.\n"
		"camera-stream prints \"stream\", then \"frame SEQ WxH\" for each frame (W and H are\n"
		"a wish, 1 to 4096), \"ended revoked|provider|closed MESSAGE\" when cordon ends it\n"
		"and \"eof\" when it ends without a word; it stops after N frames if asked, and\n"
		"saves the last frame as a binary PPM in FILE. It says how many frames it read\n"
		"and how many were dropped on standard error.\n"
		"Exit status: 0 chosen (camera-stream: N frames read), 1 cancelled, 2 usage,\n"
		"3 refused or failed, 4 no camera portal. Once a stream is open: 1 not a frame,\n"
		"a read error or no frame within --timeout, 5 ended revoked, 6 ended by the\n"
		"provider or closed, 7 end of file without ended.\n");
	return status;
}

/* TEXT as a whole number from 1 to MAX; false for "", "-1", "3x", "0" or more than MAX. */
static bool parse_count(const char *text, unsigned long long max, unsigned long long *value) {
	if (text[0] < '0' || text[0] > '9') {
		return false;
	}
	errno = 0;
	char *end;
	unsigned long long n = strtoull(text, &end, 10);
	if (errno || *end || n == 0 || n > max) {
		return false;
	}
	*value = n;
	return true;
}

static bool parse_side(const struct options *options, const char *text, uint32_t *side) {
	/* A photo may be bigger than a frame: a frame is read many times a second. */
	unsigned long long max = options->photo ? 8192 : CORDON_CAMERA_FRAME_MAX_SIDE;
	unsigned long long value;
	if (!parse_count(text, max, &value)) {
		fprintf(stderr, "cordon-portal: --width and --height take 1 to %llu, not '%s'\n",
			max, text);
		return false;
	}
	*side = (uint32_t)value;
	return true;
}

static bool only_for(const struct options *options, bool photo, const char *option) {
	if (options->photo == photo) {
		return true;
	}
	fprintf(stderr, "cordon-portal: %s is for %s only\n", option,
		photo ? "take-photo" : "camera-stream");
	return false;
}

/* -1 to go on, else the status to exit with. */
static int parse_options(int argc, char *argv[], struct options *options) {
	static const struct option long_options[] = {
		{"width", required_argument, NULL, 'w'},
		{"height", required_argument, NULL, 'H'},
		{"mime-type", required_argument, NULL, 'm'},
		{"output", required_argument, NULL, 'o'},
		{"frames", required_argument, NULL, 'n'},
		{"save-frame", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	unsigned long long frames;
	int opt;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (opt) {
		case 'w':
		case 'H':
			if (!parse_side(options, optarg,
				    opt == 'w' ? &options->width : &options->height)) {
				return EXIT_USAGE;
			}
			break;
		case 'm':
			if (!only_for(options, true, "--mime-type")) {
				return EXIT_USAGE;
			}
			if (options->mime_type_count == MAX_MIME_TYPES) {
				fprintf(stderr, "cordon-portal: at most %d --mime-type\n",
					MAX_MIME_TYPES);
				return EXIT_USAGE;
			}
			options->mime_types[options->mime_type_count++] = optarg;
			break;
		case 'o':
			if (!only_for(options, true, "--output")) {
				return EXIT_USAGE;
			}
			options->output = optarg;
			break;
		case 'n':
			if (!only_for(options, false, "--frames")) {
				return EXIT_USAGE;
			}
			if (!parse_count(optarg, UINT64_MAX, &frames)) {
				fprintf(stderr,
					"cordon-portal: --frames takes a number of frames, 1 or "
					"more, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			options->frames = frames;
			break;
		case 's':
			if (!only_for(options, false, "--save-frame")) {
				return EXIT_USAGE;
			}
			options->save_frame = optarg;
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
	if (options->photo && !options->output) {
		fprintf(stderr, "cordon-portal: take-photo needs --output FILE\n");
		return EXIT_USAGE;
	}
	if ((options->width == 0) != (options->height == 0)) {
		fprintf(stderr, "cordon-portal: --width and --height come together\n");
		return EXIT_USAGE;
	}
	return -1;
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

static void print_ended(struct state *state) {
	static const char *const reasons[] = {
		[CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_REVOKED] = "revoked",
		[CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_PROVIDER] = "provider",
		[CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_CLOSED] = "closed",
	};
	if (!state->ended || state->ended_printed) {
		return;
	}
	state->ended_printed = true;
	const char *reason = state->end_reason < sizeof(reasons) / sizeof(reasons[0])
		? reasons[state->end_reason]
		: "unknown";
	printf("ended %s %s\n", reason, state->end_message);
	fflush(stdout);
}

/* The last frame's rows without their padding, as a PPM wants them. */
static bool keep_frame(struct stream_run *run) {
	const struct cordon_camera_frame_header *header = &run->reader.header;
	size_t row = (size_t)header->width * 3;
	size_t size = row * header->height;
	if (!run->last || run->last_size != size) {
		free(run->last);
		run->last = malloc(size);
		run->last_size = run->last ? size : 0;
		if (!run->last) {
			fprintf(stderr, "cordon-portal: no memory for the frame to save\n");
			return false;
		}
	}
	for (uint32_t y = 0; y < header->height; y++) {
		memcpy(run->last + y * row, run->reader.pixels + (size_t)y * header->stride, row);
	}
	run->last_width = header->width;
	run->last_height = header->height;
	return true;
}

static bool count_frame(struct stream_run *run, const struct options *options) {
	const struct cordon_camera_frame_header *header = &run->reader.header;
	if (header->sequence > run->next_sequence) {
		run->dropped += header->sequence - run->next_sequence;
	}
	run->next_sequence = header->sequence + 1;
	run->frames++;
	printf("frame %" PRIu64 " %" PRIu32 "x%" PRIu32 "\n", header->sequence, header->width,
		header->height);
	fflush(stdout);
	return !options->save_frame || keep_frame(run);
}

/* The pipe ended: how the stream did. */
static int stream_eof(struct state *state, struct wl_display *display,
	const struct options *options, struct stream_run *run) {
	if (run->reader.partial) {
		fprintf(stderr, "cordon-portal: the stream ended inside a frame\n");
	}
	if (!state->ended) {
		/* cordon closes its end and sends ended together: the event may be on its way. */
		cordon_portal_cli_roundtrip(display, options->timeout_ms);
		print_ended(state);
	}
	if (!state->ended) {
		printf("eof\n");
		fflush(stdout);
		return STREAM_EXIT_EOF;
	}
	return state->end_reason == CORDON_PORTAL_CAMERA_STREAM_V1_END_REASON_REVOKED
		? STREAM_EXIT_REVOKED
		: STREAM_EXIT_ENDED;
}

/* Every whole frame the pipe holds now: -1 to poll again, else the status to exit with. */
static int read_frames(struct state *state, struct wl_display *display,
	const struct options *options, struct stream_run *run) {
	for (;;) {
		switch (cordon_portal_cli_frame_read(&run->reader, state->fd)) {
		case CORDON_PORTAL_CLI_FRAME_READ_FRAME:
			if (!count_frame(run, options)) {
				return STREAM_EXIT_ERROR;
			}
			if (options->frames && run->frames == options->frames) {
				return EXIT_CHOSEN;
			}
			break;
		case CORDON_PORTAL_CLI_FRAME_READ_AGAIN:
			return -1;
		case CORDON_PORTAL_CLI_FRAME_READ_EOF:
			return stream_eof(state, display, options, run);
		case CORDON_PORTAL_CLI_FRAME_READ_ERROR:
			fprintf(stderr, "cordon-portal: %s\n", run->reader.error);
			return STREAM_EXIT_ERROR;
		}
	}
}

/*
 * wl_display_prepare_read first: events another call queued must be dispatched
 * before poll blocks, or they would wait for the next message. False when the
 * connection is gone; otherwise the caller must read or cancel.
 */
static bool prepare_display(struct wl_display *display, short *events) {
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return false;
		}
	}
	*events = POLLIN;
	if (wl_display_flush(display) < 0) {
		if (errno != EAGAIN) {
			wl_display_cancel_read(display);
			return false;
		}
		/* The socket is full: the rest goes when poll says it has room. */
		*events |= POLLOUT;
	}
	return true;
}

static bool read_display(struct wl_display *display, short revents) {
	if (revents & (POLLIN | POLLERR | POLLHUP)) {
		if (wl_display_read_events(display) < 0) {
			return false;
		}
	} else {
		wl_display_cancel_read(display);
	}
	return wl_display_dispatch_pending(display) >= 0;
}

static int display_gone(void) {
	fprintf(stderr, "cordon-portal: the compositor went away or refused the request\n");
	return STREAM_EXIT_ERROR;
}

/* Frames and events both, until the stream ends, it fails, or --frames are read. */
static int stream_loop(struct state *state, struct wl_display *display,
	const struct options *options, struct stream_run *run) {
	for (;;) {
		short events;
		if (!prepare_display(display, &events)) {
			return display_gone();
		}
		print_ended(state);
		struct pollfd fds[] = {
			{.fd = wl_display_get_fd(display), .events = events},
			{.fd = state->fd, .events = POLLIN},
		};
		int ready = poll(fds, 2, options->timeout_ms);
		if (ready < 0) {
			wl_display_cancel_read(display);
			if (errno == EINTR) {
				continue;
			}
			fprintf(stderr, "cordon-portal: poll: %s\n", strerror(errno));
			return STREAM_EXIT_ERROR;
		}
		if (ready == 0) {
			/* A camera that sends nothing (none attached, a stalled provider). */
			wl_display_cancel_read(display);
			fprintf(stderr,
				"cordon-portal: no frame within %d s: the camera sends nothing "
				"(--timeout SECONDS waits longer)\n",
				options->timeout_ms / 1000);
			return STREAM_EXIT_ERROR;
		}
		if (!read_display(display, fds[0].revents)) {
			return display_gone();
		}
		print_ended(state);
		if (fds[1].revents == 0) {
			continue;
		}
		int status = read_frames(state, display, options, run);
		if (status >= 0) {
			return status;
		}
	}
}

/* Written next to FILE and renamed: a reader of FILE never sees half a frame. */
static bool save_frame(const struct stream_run *run, const char *path) {
	if (!run->last) {
		fprintf(stderr, "cordon-portal: no frame to save in %s\n", path);
		return false;
	}
	size_t length = strlen(path) + sizeof(".tmp");
	char *tmp = malloc(length);
	if (!tmp) {
		fprintf(stderr, "cordon-portal: %s: out of memory\n", path);
		return false;
	}
	snprintf(tmp, length, "%s.tmp", path);
	FILE *out = fopen(tmp, "we");
	bool ok = out &&
		fprintf(out, "P6\n%" PRIu32 " %" PRIu32 "\n255\n", run->last_width,
			run->last_height) > 0 &&
		fwrite(run->last, 1, run->last_size, out) == run->last_size;
	int error = errno;
	if (out && fclose(out) != 0 && ok) {
		ok = false;
		error = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		error = errno;
	}
	if (!ok) {
		fprintf(stderr, "cordon-portal: %s: %s\n", path, strerror(error));
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

static bool is_pipe(int fd) {
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

static int read_stream(
	struct state *state, struct wl_display *display, const struct options *options) {
	if (cordon_portal_manager_v1_get_version(state->manager) < STREAM_FRAMES_VERSION) {
		fprintf(stderr,
			"cordon-portal: the compositor's stream is a device fd "
			"(cordon_portal_manager_v1 below version 4), not frames\n");
		return EXIT_FAILED;
	}
	if (!is_pipe(state->fd)) {
		fprintf(stderr, "cordon-portal: the stream fd is not a pipe\n");
		return EXIT_FAILED;
	}
	/* poll says when; a read must never block the Wayland events behind it. */
	int flags = fcntl(state->fd, F_GETFL);
	if (flags < 0 || fcntl(state->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		fprintf(stderr, "cordon-portal: the stream fd: %s\n", strerror(errno));
		return EXIT_FAILED;
	}
	printf("stream\n");
	fflush(stdout);

	struct stream_run run = {0};
	int status = stream_loop(state, display, options, &run);
	if (options->save_frame && !save_frame(&run, options->save_frame) &&
		status == EXIT_CHOSEN) {
		status = STREAM_EXIT_ERROR;
	}
	fprintf(stderr, "cordon-portal: %" PRIu64 " frames, %" PRIu64 " dropped\n", run.frames,
		run.dropped);
	free(run.last);
	cordon_portal_cli_frame_reader_finish(&run.reader);
	return status;
}

int cordon_portal_camera_main(int argc, char *argv[], int timeout_ms) {
	struct options options = {
		.photo = strcmp(argv[1], "take-photo") == 0,
		.timeout_ms = timeout_ms,
	};
	int status = parse_options(argc, argv, &options);
	if (status >= 0) {
		return status;
	}

	struct state state = {.fd = -1};
	struct wl_display *display;
	state.manager = cordon_portal_cli_connect_range(
		&display, CAMERA_MIN_VERSION, CAMERA_MAX_VERSION, "camera", timeout_ms);
	if (!state.manager) {
		return EXIT_NO_PORTAL;
	}
	struct cordon_portal_camera_photo_v1 *photo = NULL;
	struct cordon_portal_camera_stream_v1 *stream = NULL;
	if (options.photo) {
		photo = cordon_portal_manager_v1_take_photo(state.manager);
		cordon_portal_camera_photo_v1_add_listener(photo, &photo_listener, &state);
		if (options.width) {
			cordon_portal_camera_photo_v1_set_size(
				photo, options.width, options.height);
		}
		for (size_t i = 0; i < options.mime_type_count; i++) {
			cordon_portal_camera_photo_v1_add_mime_type(photo, options.mime_types[i]);
		}
		cordon_portal_camera_photo_v1_submit(photo);
	} else {
		stream = cordon_portal_manager_v1_open_camera_stream(state.manager);
		cordon_portal_camera_stream_v1_add_listener(stream, &stream_listener, &state);
		/* Below 4 the request does not exist, and the stream fails as unavailable. */
		if (options.width &&
			cordon_portal_camera_stream_v1_get_version(stream) >=
				CORDON_PORTAL_CAMERA_STREAM_V1_SET_SIZE_SINCE_VERSION) {
			cordon_portal_camera_stream_v1_set_size(
				stream, options.width, options.height);
		}
		cordon_portal_camera_stream_v1_submit(stream);
	}
	status = cordon_portal_cli_wait(display, &state.answer, timeout_ms);
	if (status == EXIT_CHOSEN && options.photo) {
		status = save_photo(state.fd, options.output);
		if (status == EXIT_CHOSEN) {
			printf("%s\n", state.mime_type);
		}
	} else if (status == EXIT_CHOSEN) {
		status = read_stream(&state, display, &options);
	}
	if (photo) {
		cordon_portal_camera_photo_v1_destroy(photo);
	}
	/* Destroyed before the fd closes: cordon ends the stream as let go, not as closed. */
	if (stream) {
		cordon_portal_camera_stream_v1_destroy(stream);
	}
	cordon_portal_manager_v1_destroy(state.manager);
	wl_display_flush(display);
	if (state.fd >= 0) {
		close(state.fd);
	}
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
