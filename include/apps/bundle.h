/* The single-file app bundle: its container layout, read defensively, and its signature. */
#ifndef CORDON_APPS_BUNDLE_H
#define CORDON_APPS_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CORDON_BUNDLE_MAGIC "CORDNAPP"
#define CORDON_BUNDLE_FORMAT 1
#define CORDON_BUNDLE_HEADER_SIZE 64
#define CORDON_BUNDLE_ALIGN 4096
#define CORDON_BUNDLE_MANIFEST_MAX (64u * 1024)
#define CORDON_BUNDLE_ICON_MAX (1024u * 1024)
#define CORDON_BUNDLE_SIGNATURE_SIZE 64
/* 64 GiB: larger than any app cordon expects, small enough that no sum below overflows. */
#define CORDON_BUNDLE_IMAGE_MAX (64ull << 30)
#define CORDON_DIGEST_SIZE 32

/* Where each part lies in the file, from the header alone. */
struct cordon_bundle_layout {
	uint32_t manifest_len;
	uint32_t icon_len;
	uint64_t manifest_offset, icon_offset, signature_offset;
	uint64_t image_offset, image_len;
};

/*
 * Checks a header of len bytes for a file of file_size bytes: magic, format, every length
 * within its bound, the parts in order without gaps or overlap, the image aligned and ending
 * exactly at the end of the file. No arithmetic here can overflow. NULL when valid, else why
 * not (a static string).
 */
const char *cordon_bundle_parse_header(const unsigned char *header, size_t len, uint64_t file_size,
	struct cordon_bundle_layout *layout);
/* The header for parts of these sizes (the builder's side). */
void cordon_bundle_make_header(unsigned char header[CORDON_BUNDLE_HEADER_SIZE],
	uint32_t manifest_len, uint32_t icon_len, uint64_t image_len,
	struct cordon_bundle_layout *layout);

/* An opened bundle: the small parts read into memory, the image left in the file. */
struct cordon_bundle {
	int fd;
	uint64_t size;
	struct cordon_bundle_layout layout;
	char *manifest; /* NUL-terminated, manifest_len bytes before the NUL */
	unsigned char *icon;
	unsigned char signature[CORDON_BUNDLE_SIGNATURE_SIZE];
};

/* Opens and checks the container; NULL with *error (malloc'ed) when it is not a bundle. */
struct cordon_bundle *cordon_bundle_open(const char *path, char **error);
void cordon_bundle_close(struct cordon_bundle *bundle);

/* Called while the image streams, with bytes done and the total. */
typedef void (*cordon_progress_fn)(void *data, uint64_t done, uint64_t total);

/*
 * Streams the image once: computes its SHA-256 and, when out_fd >= 0, writes the same bytes to
 * out_fd (so what is installed is exactly what was verified, whatever the bundle file does
 * meanwhile). Checks the image is squashfs or erofs. false with *error on failure.
 */
bool cordon_bundle_stream_image(struct cordon_bundle *bundle, int out_fd,
	unsigned char digest[CORDON_DIGEST_SIZE], cordon_progress_fn progress, void *data,
	char **error);

/* The bytes the signature covers: a domain string and the three parts' digests. */
#define CORDON_BUNDLE_SIGNED_PREFIX "cordon-app bundle 1\n"
#define CORDON_BUNDLE_SIGNED_SIZE (sizeof(CORDON_BUNDLE_SIGNED_PREFIX) - 1 + 3 * CORDON_DIGEST_SIZE)
void cordon_bundle_signed_message(const struct cordon_bundle *bundle,
	const unsigned char image_digest[CORDON_DIGEST_SIZE],
	unsigned char out[CORDON_BUNDLE_SIGNED_SIZE]);

#endif
