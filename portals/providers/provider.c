/* The command line and the output of cordon's camera providers. */
#include "provider.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIZE 8192

static bool parse_size(const char *name, const char *what, const char *text, uint32_t *out) {
	char *end;
	errno = 0;
	unsigned long value = strtoul(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value == 0 || value > MAX_SIZE) {
		fprintf(stderr, "%s: %s must be 1 to %d, got '%s'\n", name, what, MAX_SIZE, text);
		return false;
	}
	*out = (uint32_t)value;
	return true;
}

bool provider_parse_args(const char *name, int argc, char **argv, struct provider_args *args) {
	*args = (struct provider_args){.mime_type = "image/png", .app_id = ""};
	int i = 1;
	for (; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(arg, "--width=", 8) == 0) {
			if (!parse_size(name, "--width", arg + 8, &args->width)) {
				return false;
			}
		} else if (strncmp(arg, "--height=", 9) == 0) {
			if (!parse_size(name, "--height", arg + 9, &args->height)) {
				return false;
			}
		} else if (strncmp(arg, "--mime-type=", 12) == 0) {
			args->mime_type = arg + 12;
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
	if ((args->width == 0) != (args->height == 0)) {
		fprintf(stderr, "%s: --width and --height come together\n", name);
		return false;
	}
	return true;
}

bool provider_write_all(const char *name, const void *data, size_t len) {
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(STDOUT_FILENO, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			fprintf(stderr, "%s: writing the photo: %s\n", name, strerror(errno));
			return false;
		}
		p += n;
		len -= (size_t)n;
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

/*
 * Read by AddressSanitizer in sanitized builds (the tests' build-asan), unused otherwise:
 * LeakSanitizer stops the process with ptrace, which the provider's cordon-run sandbox
 * refuses, so leak checking is off; address and bounds checking stay on.
 */
const char *__asan_default_options(void);
__attribute__((used)) const char *__asan_default_options(void) {
	return "detect_leaks=0";
}
