/*
 * cordon-camera-pattern: a camera provider that draws a test pattern instead of
 * taking a photo: eight colour bars over a black band with the date and the
 * requesting app's id (told by cordon, never chosen by the app) in white. For
 * machines without a camera, tests and kiosks. Writes a PNG to stdout, or with
 * --stream a frame at a time, a white square moving along the band so that a
 * viewer sees the picture is live; the bars stay the same in every frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "provider.h"

#define NAME "cordon-camera-pattern"
#define DEFAULT_WIDTH 640
#define DEFAULT_HEIGHT 480

/* A 3x5 font: five rows of three columns, '#' lit. Lower case is drawn as upper case. */
static const struct {
	char c;
	const char *rows[5];
} font[] = {
	{'0', {"###", "#.#", "#.#", "#.#", "###"}},
	{'1', {".#.", "##.", ".#.", ".#.", "###"}},
	{'2', {"###", "..#", "###", "#..", "###"}},
	{'3', {"###", "..#", ".##", "..#", "###"}},
	{'4', {"#.#", "#.#", "###", "..#", "..#"}},
	{'5', {"###", "#..", "###", "..#", "###"}},
	{'6', {"###", "#..", "###", "#.#", "###"}},
	{'7', {"###", "..#", ".#.", ".#.", ".#."}},
	{'8', {"###", "#.#", "###", "#.#", "###"}},
	{'9', {"###", "#.#", "###", "..#", "###"}},
	{'A', {".#.", "#.#", "###", "#.#", "#.#"}},
	{'B', {"##.", "#.#", "##.", "#.#", "##."}},
	{'C', {".##", "#..", "#..", "#..", ".##"}},
	{'D', {"##.", "#.#", "#.#", "#.#", "##."}},
	{'E', {"###", "#..", "##.", "#..", "###"}},
	{'F', {"###", "#..", "##.", "#..", "#.."}},
	{'G', {".##", "#..", "#.#", "#.#", ".##"}},
	{'H', {"#.#", "#.#", "###", "#.#", "#.#"}},
	{'I', {"###", ".#.", ".#.", ".#.", "###"}},
	{'J', {"..#", "..#", "..#", "#.#", ".#."}},
	{'K', {"#.#", "#.#", "##.", "#.#", "#.#"}},
	{'L', {"#..", "#..", "#..", "#..", "###"}},
	{'M', {"#.#", "###", "###", "#.#", "#.#"}},
	{'N', {"##.", "#.#", "#.#", "#.#", "#.#"}},
	{'O', {".#.", "#.#", "#.#", "#.#", ".#."}},
	{'P', {"##.", "#.#", "##.", "#..", "#.."}},
	{'Q', {".#.", "#.#", "#.#", "##.", ".##"}},
	{'R', {"##.", "#.#", "##.", "#.#", "#.#"}},
	{'S', {".##", "#..", ".#.", "..#", "##."}},
	{'T', {"###", ".#.", ".#.", ".#.", ".#."}},
	{'U', {"#.#", "#.#", "#.#", "#.#", "###"}},
	{'V', {"#.#", "#.#", "#.#", "#.#", ".#."}},
	{'W', {"#.#", "#.#", "###", "###", "#.#"}},
	{'X', {"#.#", "#.#", ".#.", "#.#", "#.#"}},
	{'Y', {"#.#", "#.#", ".#.", ".#.", ".#."}},
	{'Z', {"###", "..#", ".#.", "#..", "###"}},
	{'.', {"...", "...", "...", "...", ".#."}},
	{'-', {"...", "...", "###", "...", "..."}},
	{':', {"...", ".#.", "...", ".#.", "..."}},
	{'_', {"...", "...", "...", "...", "###"}},
	{'/', {"..#", "..#", ".#.", "#..", "#.."}},
	{'+', {"...", ".#.", "###", ".#.", "..."}},
	{'@', {"###", "#.#", "#.#", "#..", "###"}},
	{' ', {"...", "...", "...", "...", "..."}},
};

/* The bars, left to right: white, yellow, cyan, green, magenta, red, blue, black. */
static const uint8_t bars[8][3] = {
	{255, 255, 255},
	{255, 255, 0},
	{0, 255, 255},
	{0, 255, 0},
	{255, 0, 255},
	{255, 0, 0},
	{0, 0, 255},
	{0, 0, 0},
};

struct canvas {
	uint32_t width, height;
	uint8_t *rgb;
};

static void fill(struct canvas *canvas, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h,
	const uint8_t color[3]) {
	for (uint32_t y = y0; y < y0 + h && y < canvas->height; y++) {
		for (uint32_t x = x0; x < x0 + w && x < canvas->width; x++) {
			memcpy(canvas->rgb + ((size_t)y * canvas->width + x) * 3, color, 3);
		}
	}
}

/* Draws TEXT at X, Y with each font pixel SCALE pixels wide; what does not fit is cut. */
static void draw_text(
	struct canvas *canvas, uint32_t x, uint32_t y, uint32_t scale, const char *text) {
	static const uint8_t white[3] = {255, 255, 255};
	for (const char *p = text; *p; p++, x += 4 * scale) {
		char c = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		size_t glyph = 0;
		while (glyph < sizeof(font) / sizeof(font[0]) && font[glyph].c != c) {
			glyph++;
		}
		if (glyph == sizeof(font) / sizeof(font[0])) {
			c = '_';
			glyph = 0;
			while (font[glyph].c != c) {
				glyph++;
			}
		}
		for (int row = 0; row < 5; row++) {
			for (int col = 0; col < 3; col++) {
				if (font[glyph].rows[row][col] == '#') {
					fill(canvas, x + (uint32_t)col * scale,
						y + (uint32_t)row * scale, scale, scale, white);
				}
			}
		}
	}
}

/* Bars over the top two thirds, a black band for the text below. */
static uint32_t band_height(const struct canvas *canvas) {
	return canvas->height / 3;
}

static void draw_bars(struct canvas *canvas) {
	uint32_t bars_height = canvas->height - band_height(canvas);
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t x0 = canvas->width * i / 8, x1 = canvas->width * (i + 1) / 8;
		fill(canvas, x0, 0, x1 - x0, bars_height, bars[i]);
	}
}

/*
 * The band: the date and the app id; in a stream also a square that moves by
 * its own width each frame, below the text. Drawn over what was there.
 */
static void draw_band(struct canvas *canvas, const char *app_id, bool live, uint64_t sequence) {
	static const uint8_t black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
	uint32_t band = band_height(canvas);
	fill(canvas, 0, canvas->height - band, canvas->width, band, black);
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm);
	/* Two lines of text in the band: 5 font rows each, a row of space around. */
	uint32_t scale = band / 14 < canvas->width / 100 ? band / 14 : canvas->width / 100;
	scale = scale ? scale : 1;
	uint32_t top = canvas->height - band + scale;
	draw_text(canvas, scale, top, scale, date);
	draw_text(canvas, scale, top + 7 * scale, scale, app_id[0] ? app_id : "(no app id)");
	if (!live) {
		return;
	}
	/* The rows left under the text (at least one scale's worth: 14 * scale <= band). */
	uint32_t text_bottom = 13 * scale < band ? 13 * scale : band;
	uint32_t room = band - text_bottom;
	uint32_t side = room >= 4 * scale ? 2 * scale : scale;
	uint32_t positions = canvas->width > side ? (canvas->width - side) / scale + 1 : 1;
	uint32_t x = (uint32_t)(sequence % positions) * scale;
	uint32_t y = canvas->height - band + text_bottom + (room > side ? (room - side) / 2 : 0);
	fill(canvas, x, y, side, side, white);
}

static int take_photo(struct canvas *canvas, const struct provider_args *args) {
	if (strcmp(args->mime_type, "image/png") != 0) {
		fprintf(stderr, NAME ": makes image/png only, not '%s'\n", args->mime_type);
		return 2;
	}
	draw_bars(canvas);
	draw_band(canvas, args->app_id, false, 0);
	return provider_write_png(NAME, canvas->width, canvas->height, canvas->rgb) ? 0 : 1;
}

static int stream(struct canvas *canvas, const struct provider_args *args) {
	provider_stream_start();
	draw_bars(canvas);
	struct provider_pace pace;
	provider_pace_start(&pace, args->fps);
	for (uint64_t sequence = 0; args->frames == 0 || sequence < args->frames; sequence++) {
		if (sequence > 0) {
			provider_pace_wait(&pace);
		}
		draw_band(canvas, args->app_id, true, sequence);
		enum provider_write_result result = provider_write_frame(
			NAME, canvas->width, canvas->height, sequence, canvas->rgb);
		if (result != PROVIDER_WRITE_OK) {
			/* CLOSED: the reader went away, the stream's normal end. */
			return result == PROVIDER_WRITE_CLOSED ? 0 : 1;
		}
	}
	return 0;
}

int main(int argc, char *argv[]) {
	struct provider_args args;
	if (!provider_parse_args(NAME, argc, argv, &args)) {
		return 2;
	}
	struct canvas canvas = {
		.width = args.width ? args.width : DEFAULT_WIDTH,
		.height = args.height ? args.height : DEFAULT_HEIGHT,
	};
	canvas.rgb = calloc((size_t)canvas.width * canvas.height, 3);
	if (!canvas.rgb) {
		fprintf(stderr, NAME ": out of memory\n");
		return 1;
	}
	int status = args.stream ? stream(&canvas, &args) : take_photo(&canvas, &args);
	free(canvas.rgb);
	return status;
}
