/*
 * png-probe: answers questions about a PNG for the shell tests, so that they can
 * assert what a user would see on a screenshot without comparing whole images.
 *
 *	png-probe FILE size                                    -> "W H"
 *	png-probe FILE pixel X Y                               -> "R G B A"
 *	png-probe FILE count-color R G B [TOLERANCE] [X Y W H] -> number of pixels
 *	png-probe FILE count-differing OTHER X Y W H           -> number of pixels
 *
 * count-color matches a pixel when each of R, G and B is within TOLERANCE (default 0)
 * of the given value; alpha is ignored, since screenshots of opaque outputs may carry
 * any alpha. count-differing counts the pixels of the region whose R, G or B differ in
 * the PNG OTHER (of the same size): what changed on screen between two shots. The region must lie
 * inside the image: a test that asks about pixels that are not there has the wrong geometry, and
 * should hear so.
 */
#include <errno.h>
#include <limits.h>
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	uint32_t width, height;
	uint8_t *rgba; /* width * height * 4 bytes, rows top to bottom */
};

static void usage(void) {
	fprintf(stderr,
		"usage: png-probe FILE size\n"
		"       png-probe FILE pixel X Y\n"
		"       png-probe FILE count-color R G B [TOLERANCE] [X Y W H]\n"
		"       png-probe FILE count-differing OTHER X Y W H\n");
}

static bool parse_long(const char *what, const char *text, long min, long max, long *out) {
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0') {
		fprintf(stderr, "png-probe: %s: expected an integer, got \"%s\"\n", what, text);
		return false;
	}
	if (value < min || value > max) {
		fprintf(stderr, "png-probe: %s: %ld is outside %ld..%ld\n", what, value, min, max);
		return false;
	}
	*out = value;
	return true;
}

static bool load_image(const char *path, struct image *image) {
	png_image png;
	memset(&png, 0, sizeof(png));
	png.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&png, path)) {
		fprintf(stderr, "png-probe: %s: %s\n", path, png.message);
		return false;
	}
	png.format = PNG_FORMAT_RGBA;
	size_t size = PNG_IMAGE_SIZE(png);
	image->rgba = malloc(size);
	if (image->rgba == NULL) {
		fprintf(stderr, "png-probe: %s: out of memory for %zu bytes\n", path, size);
		png_image_free(&png);
		return false;
	}
	if (!png_image_finish_read(&png, NULL, image->rgba, 0, NULL)) {
		fprintf(stderr, "png-probe: %s: %s\n", path, png.message);
		free(image->rgba);
		image->rgba = NULL;
		return false;
	}
	image->width = png.width;
	image->height = png.height;
	return true;
}

static const uint8_t *pixel_at(const struct image *image, uint32_t x, uint32_t y) {
	return image->rgba + ((size_t)y * image->width + x) * 4;
}

static int cmd_size(const struct image *image, int argc, char **argv) {
	if (argc != 0) {
		usage();
		return 1;
	}
	printf("%u %u\n", image->width, image->height);
	return 0;
}

static int cmd_pixel(const struct image *image, int argc, char **argv) {
	long x, y;
	if (argc != 2) {
		usage();
		return 1;
	}
	if (image->width == 0 || image->height == 0) {
		fprintf(stderr, "png-probe: the image is empty\n");
		return 1;
	}
	if (!parse_long("X", argv[0], 0, (long)image->width - 1, &x) ||
		!parse_long("Y", argv[1], 0, (long)image->height - 1, &y)) {
		return 1;
	}
	const uint8_t *p = pixel_at(image, x, y);
	printf("%u %u %u %u\n", p[0], p[1], p[2], p[3]);
	return 0;
}

/* Reads X Y W H at argv into a region that must lie inside the image. */
static bool parse_region(
	const struct image *image, char **argv, long *x, long *y, long *w, long *h) {
	if (!parse_long("X", argv[0], 0, image->width, x) ||
		!parse_long("Y", argv[1], 0, image->height, y) ||
		!parse_long("W", argv[2], 0, (long)image->width - *x, w) ||
		!parse_long("H", argv[3], 0, (long)image->height - *y, h)) {
		fprintf(stderr, "png-probe: the region must lie inside the %ux%u image\n",
			image->width, image->height);
		return false;
	}
	return true;
}

static int cmd_count_differing(const struct image *image, int argc, char **argv) {
	long x, y, w, h;
	if (argc != 5) {
		usage();
		return 1;
	}
	struct image other = {0};
	if (!load_image(argv[0], &other)) {
		return 1;
	}
	int status = 1;
	if (other.width != image->width || other.height != image->height) {
		fprintf(stderr, "png-probe: %s is %ux%u, not %ux%u\n", argv[0], other.width,
			other.height, image->width, image->height);
	} else if (parse_region(image, argv + 1, &x, &y, &w, &h)) {
		unsigned long long count = 0;
		for (long row = y; row < y + h; row++) {
			for (long col = x; col < x + w; col++) {
				count += memcmp(pixel_at(image, col, row),
						 pixel_at(&other, col, row), 3) != 0;
			}
		}
		printf("%llu\n", count);
		status = 0;
	}
	free(other.rgba);
	return status;
}

static bool near(uint8_t value, long target, long tolerance) {
	long diff = (long)value - target;
	return diff <= tolerance && diff >= -tolerance;
}

static int cmd_count_color(const struct image *image, int argc, char **argv) {
	long r, g, b, tolerance = 0;
	long x = 0, y = 0, w = image->width, h = image->height;
	if (argc != 3 && argc != 4 && argc != 8) {
		usage();
		return 1;
	}
	if (!parse_long("R", argv[0], 0, 255, &r) || !parse_long("G", argv[1], 0, 255, &g) ||
		!parse_long("B", argv[2], 0, 255, &b)) {
		return 1;
	}
	if (argc >= 4 && !parse_long("TOLERANCE", argv[3], 0, 255, &tolerance)) {
		return 1;
	}
	if (argc == 8 && !parse_region(image, argv + 4, &x, &y, &w, &h)) {
		return 1;
	}
	unsigned long long count = 0;
	for (long row = y; row < y + h; row++) {
		for (long col = x; col < x + w; col++) {
			const uint8_t *p = pixel_at(image, col, row);
			if (near(p[0], r, tolerance) && near(p[1], g, tolerance) &&
				near(p[2], b, tolerance)) {
				count++;
			}
		}
	}
	printf("%llu\n", count);
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		usage();
		return 1;
	}
	const char *path = argv[1], *command = argv[2];
	int (*run)(const struct image *, int, char **) = NULL;
	if (strcmp(command, "size") == 0) {
		run = cmd_size;
	} else if (strcmp(command, "pixel") == 0) {
		run = cmd_pixel;
	} else if (strcmp(command, "count-color") == 0) {
		run = cmd_count_color;
	} else if (strcmp(command, "count-differing") == 0) {
		run = cmd_count_differing;
	} else {
		fprintf(stderr, "png-probe: unknown command \"%s\"\n", command);
		usage();
		return 1;
	}
	struct image image = {0};
	if (!load_image(path, &image)) {
		return 1;
	}
	int status = run(&image, argc - 3, argv + 3);
	free(image.rgba);
	return status;
}
