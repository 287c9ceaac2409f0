/* The command line and the output of cordon's camera providers. */
#include "provider.h"

#include <errno.h>
#include <png.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cordon/camera-frame.h"

#define MAX_SIZE 8192
#define MAX_FPS 60
#define DEFAULT_FPS 15
#define NS_PER_S 1000000000ull

static bool parse_number(
	const char *name, const char *what, const char *text, uint64_t max, uint64_t *out) {
	char *end = (char *)text;
	errno = 0;
	/* strtoull takes "-1" as a huge number: only digits are a count. */
	unsigned long long value = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
	if (errno != 0 || value == 0 || *end != '\0' || value > max) {
		fprintf(stderr, "%s: %s must be 1 to %llu, got '%s'\n", name, what,
			(unsigned long long)max, text);
		return false;
	}
	*out = value;
	return true;
}

static bool parse_side(const char *name, const char *what, const char *text, uint32_t *out) {
	uint64_t value;
	if (!parse_number(name, what, text, MAX_SIZE, &value)) {
		return false;
	}
	*out = (uint32_t)value;
	return true;
}

/* What the options say together; each on its own has been checked already. */
static bool check_args(
	const char *name, const struct provider_args *args, bool fps_set, bool frames_set) {
	if ((args->width == 0) != (args->height == 0)) {
		fprintf(stderr, "%s: --width and --height come together\n", name);
		return false;
	}
	if (args->stream && args->mime_type) {
		fprintf(stderr,
			"%s: --stream and --mime-type exclude each other: a stream is "
			"RGB24 frames, not files of a type\n",
			name);
		return false;
	}
	if (!args->stream && (fps_set || frames_set)) {
		fprintf(stderr, "%s: %s comes only with --stream\n", name,
			fps_set ? "--fps" : "--frames");
		return false;
	}
	if (args->stream &&
		(args->width > CORDON_CAMERA_FRAME_MAX_SIDE ||
			args->height > CORDON_CAMERA_FRAME_MAX_SIDE)) {
		fprintf(stderr, "%s: stream frames are at most %d pixels a side, not %ux%u\n", name,
			CORDON_CAMERA_FRAME_MAX_SIDE, args->width, args->height);
		return false;
	}
	return true;
}

bool provider_parse_args(const char *name, int argc, char **argv, struct provider_args *args) {
	*args = (struct provider_args){.app_id = "", .fps = DEFAULT_FPS};
	bool fps_set = false, frames_set = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i];
		uint64_t number;
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(arg, "--width=", 8) == 0) {
			if (!parse_side(name, "--width", arg + 8, &args->width)) {
				return false;
			}
		} else if (strncmp(arg, "--height=", 9) == 0) {
			if (!parse_side(name, "--height", arg + 9, &args->height)) {
				return false;
			}
		} else if (strncmp(arg, "--mime-type=", 12) == 0) {
			args->mime_type = arg + 12;
		} else if (strcmp(arg, "--stream") == 0) {
			args->stream = true;
		} else if (strncmp(arg, "--fps=", 6) == 0) {
			if (!parse_number(name, "--fps", arg + 6, MAX_FPS, &number)) {
				return false;
			}
			args->fps = (uint32_t)number;
			fps_set = true;
		} else if (strncmp(arg, "--frames=", 9) == 0) {
			if (!parse_number(name, "--frames", arg + 9, UINT32_MAX, &number)) {
				return false;
			}
			args->frames = number;
			frames_set = true;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", name, arg);
			return false;
		}
	}
	if (i < argc) {
		args->app_id = argv[i++];
	}
	if (i < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", name, argv[i]);
		return false;
	}
	if (!check_args(name, args, fps_set, frames_set)) {
		return false;
	}
	if (!args->stream && !args->mime_type) {
		args->mime_type = "image/png";
	}
	return true;
}

/* Writes LEN bytes to stdout, whole; false with errno set. */
static bool write_whole(const void *data, size_t len) {
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(STDOUT_FILENO, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			if (n == 0) {
				errno = EIO;
			}
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool provider_write_all(const char *name, const void *data, size_t len) {
	if (!write_whole(data, len)) {
		fprintf(stderr, "%s: writing the photo: %s\n", name, strerror(errno));
		return false;
	}
	return true;
}

struct png_out {
	const char *name;
	bool failed;
};

static void write_data(png_structp png, png_bytep data, size_t len) {
	struct png_out *out = png_get_io_ptr(png);
	if (!out->failed && !provider_write_all(out->name, data, len)) {
		out->failed = true;
	}
}

static void flush_data(png_structp png) {
}

bool provider_write_png(const char *name, uint32_t width, uint32_t height, const uint8_t *rgb) {
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		fprintf(stderr, "%s: out of memory\n", name);
		return false;
	}
	struct png_out out = {.name = name};
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fprintf(stderr, "%s: cannot encode the PNG\n", name);
		return false;
	}
	png_set_write_fn(png, &out, write_data, flush_data);
	png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	/*
	 * A photo is read once: speed matters more than the last bytes (level 6 with
	 * adaptive filters took 4 times as long).
	 */
	png_set_compression_level(png, 1);
	png_set_filter(png, 0, PNG_FILTER_SUB);
	png_write_info(png, info);
	for (uint32_t y = 0; y < height; y++) {
		png_write_row(png, (png_const_bytep)(rgb + (size_t)y * width * 3));
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return !out.failed;
}

void provider_stream_start(void) {
	signal(SIGPIPE, SIG_IGN);
}

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static enum provider_write_result write_part(const char *name, const void *data, size_t len) {
	if (write_whole(data, len)) {
		return PROVIDER_WRITE_OK;
	}
	if (errno == EPIPE) {
		return PROVIDER_WRITE_CLOSED;
	}
	fprintf(stderr, "%s: writing a frame: %s\n", name, strerror(errno));
	return PROVIDER_WRITE_FAILED;
}

enum provider_write_result provider_write_frame(
	const char *name, uint32_t width, uint32_t height, uint64_t sequence, const uint8_t *rgb) {
	/* 4096 * 3 * 4096 bytes fit the header's 32-bit size; parse_args keeps sides there. */
	struct cordon_camera_frame_header header = {
		.version = CORDON_CAMERA_FRAME_VERSION,
		.format = CORDON_CAMERA_FRAME_RGB24,
		.width = width,
		.height = height,
		.stride = width * 3,
		.sequence = sequence,
		.timestamp_ns = now_ns(),
		.size = width * 3 * height,
	};
	memcpy(header.magic, CORDON_CAMERA_FRAME_MAGIC, sizeof(header.magic));
	enum provider_write_result result = write_part(name, &header, sizeof(header));
	if (result != PROVIDER_WRITE_OK) {
		return result;
	}
	return write_part(name, rgb, header.size);
}

void provider_pace_start(struct provider_pace *pace, uint32_t fps) {
	pace->period_ns = NS_PER_S / (fps ? fps : DEFAULT_FPS);
	pace->deadline_ns = now_ns();
}

void provider_pace_wait(struct provider_pace *pace) {
	pace->deadline_ns += pace->period_ns;
	uint64_t now = now_ns();
	if (now > pace->deadline_ns + pace->period_ns) {
		/* Far behind (a slow reader, a stopped process): start again, never a burst. */
		pace->deadline_ns = now;
		return;
	}
	struct timespec deadline = {
		.tv_sec = (time_t)(pace->deadline_ns / NS_PER_S),
		.tv_nsec = (long)(pace->deadline_ns % NS_PER_S),
	};
	/* An absolute deadline: a signal's interruption resumes toward the same instant. */
	int r;
	do {
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL);
	} while (r == EINTR);
}

/*
 * Read by AddressSanitizer in sanitized builds (the tests' build-asan), unused otherwise:
 * LeakSanitizer stops the process with ptrace, which the provider's cordon-run sandbox
 * refuses, so leak checking is off; address and bounds checking stay on.
 */
const char *__asan_default_options(void);
__attribute__((used)) const char *__asan_default_options(void) {
	return "detect_leaks=0";
}
