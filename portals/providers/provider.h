/* What cordon's camera providers share: their command line and PNG output. */
#ifndef CORDON_CAMERA_PROVIDER_H
#define CORDON_CAMERA_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * cordon starts a provider as
 *	COMMAND [--width=W --height=H] --mime-type=TYPE [-- APP_ID]
 * with the photo to be written to standard output (docs/portals.md).
 */
struct provider_args {
	uint32_t width, height; /* 0: the provider's own */
	const char *mime_type;
	const char *app_id; /* "" unless the provider file says AppId = true */
};

/* Parses argv; false after a message on stderr. */
bool provider_parse_args(const char *name, int argc, char **argv, struct provider_args *args);

/* Writes WIDTH x HEIGHT RGB pixels (3 bytes each, rows top to bottom) as PNG to stdout. */
bool provider_write_png(const char *name, uint32_t width, uint32_t height, const uint8_t *rgb);

/* Writes LEN bytes to stdout, whole. */
bool provider_write_all(const char *name, const void *data, size_t len);

#endif
