/*
 * The bundle container (docs/apps.md): a 64-byte header, the manifest, the icon, the signature,
 * then the filesystem image aligned to 4096 bytes and ending the file.
 *
 * The file comes from a store or a download: every length in the header is bounded before it is
 * used, sums are done on 64-bit values whose bounds make overflow impossible, and the layout
 * must be exactly the one the builder writes (no gaps, no trailing bytes), so one file has one
 * meaning. The parser is a pure function of the header bytes and the file size, tested with
 * hostile headers in tests/unit/test_apps_bundle.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/bundle.h"
#include "apps/signature.h"
#include "common/format.h"

static uint32_t get_u32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p) {
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void put_u32(unsigned char *p, uint32_t v) {
	for (int i = 0; i < 4; i++) {
		p[i] = (unsigned char)(v >> (8 * i));
	}
}

static void put_u64(unsigned char *p, uint64_t v) {
	put_u32(p, (uint32_t)v);
	put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t align_up(uint64_t v) {
	return (v + CORDON_BUNDLE_ALIGN - 1) / CORDON_BUNDLE_ALIGN * CORDON_BUNDLE_ALIGN;
}

/* The offsets of the small parts; the inputs are bounded, so nothing here overflows. */
static void fill_offsets(struct cordon_bundle_layout *l) {
	l->manifest_offset = CORDON_BUNDLE_HEADER_SIZE;
	l->icon_offset = l->manifest_offset + l->manifest_len;
	l->signature_offset = l->icon_offset + l->icon_len;
}

const char *cordon_bundle_parse_header(const unsigned char *header, size_t len, uint64_t file_size,
	struct cordon_bundle_layout *layout) {
	if (len < CORDON_BUNDLE_HEADER_SIZE || file_size < CORDON_BUNDLE_HEADER_SIZE) {
		return "shorter than a bundle header";
	}
	if (memcmp(header, CORDON_BUNDLE_MAGIC, 8) != 0) {
		return "not a cordon app bundle (no CORDNAPP magic)";
	}
	if (get_u32(header + 8) != CORDON_BUNDLE_FORMAT) {
		return "a bundle format this cordon-app does not read";
	}
	for (size_t i = 40; i < CORDON_BUNDLE_HEADER_SIZE; i++) {
		if (header[i] != 0) {
			return "reserved header bytes are not zero";
		}
	}
	struct cordon_bundle_layout l = {0};
	l.manifest_len = get_u32(header + 12);
	l.icon_len = get_u32(header + 16);
	uint32_t signature_len = get_u32(header + 20);
	l.image_offset = get_u64(header + 24);
	l.image_len = get_u64(header + 32);
	if (l.manifest_len == 0 || l.manifest_len > CORDON_BUNDLE_MANIFEST_MAX) {
		return "manifest length out of bounds";
	}
	if (l.icon_len > CORDON_BUNDLE_ICON_MAX) {
		return "icon length out of bounds";
	}
	if (signature_len != CORDON_BUNDLE_SIGNATURE_SIZE) {
		return "signature length is not that of an Ed25519 signature";
	}
	if (l.image_len == 0 || l.image_len > CORDON_BUNDLE_IMAGE_MAX) {
		return "image length out of bounds";
	}
	fill_offsets(&l);
	uint64_t parts_end = l.signature_offset + CORDON_BUNDLE_SIGNATURE_SIZE;
	if (l.image_offset != align_up(parts_end)) {
		return "image offset is not where the parts end";
	}
	/* image_offset < 3 MiB and image_len <= 64 GiB: the sum cannot overflow. */
	if (l.image_offset + l.image_len != file_size) {
		return "file size does not match the header (truncated or with trailing data)";
	}
	*layout = l;
	return NULL;
}

void cordon_bundle_make_header(unsigned char header[CORDON_BUNDLE_HEADER_SIZE],
	uint32_t manifest_len, uint32_t icon_len, uint64_t image_len,
	struct cordon_bundle_layout *layout) {
	struct cordon_bundle_layout l = {.manifest_len = manifest_len, .icon_len = icon_len};
	fill_offsets(&l);
	l.image_offset = align_up(l.signature_offset + CORDON_BUNDLE_SIGNATURE_SIZE);
	l.image_len = image_len;
	memset(header, 0, CORDON_BUNDLE_HEADER_SIZE);
	memcpy(header, CORDON_BUNDLE_MAGIC, 8);
	put_u32(header + 8, CORDON_BUNDLE_FORMAT);
	put_u32(header + 12, manifest_len);
	put_u32(header + 16, icon_len);
	put_u32(header + 20, CORDON_BUNDLE_SIGNATURE_SIZE);
	put_u64(header + 24, l.image_offset);
	put_u64(header + 32, image_len);
	*layout = l;
}

static bool read_exact(int fd, void *buf, size_t len, uint64_t offset) {
	unsigned char *p = buf;
	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)offset);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t len) {
	const unsigned char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static struct cordon_bundle *open_failed(
	struct cordon_bundle *bundle, char **error, const char *path, const char *reason) {
	*error = cordon_format("%s: %s", path, reason);
	cordon_bundle_close(bundle);
	return NULL;
}

struct cordon_bundle *cordon_bundle_open(const char *path, char **error) {
	struct cordon_bundle *bundle = calloc(1, sizeof(*bundle));
	if (bundle == NULL) {
		*error = cordon_format("%s: out of memory", path);
		return NULL;
	}
	bundle->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (bundle->fd < 0) {
		return open_failed(bundle, error, path, strerror(errno));
	}
	struct stat st;
	if (fstat(bundle->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		return open_failed(bundle, error, path, "not a regular file");
	}
	bundle->size = (uint64_t)st.st_size;
	unsigned char header[CORDON_BUNDLE_HEADER_SIZE];
	if (!read_exact(bundle->fd, header, sizeof(header), 0)) {
		return open_failed(bundle, error, path, "shorter than a bundle header");
	}
	const char *problem =
		cordon_bundle_parse_header(header, sizeof(header), bundle->size, &bundle->layout);
	if (problem != NULL) {
		return open_failed(bundle, error, path, problem);
	}
	const struct cordon_bundle_layout *l = &bundle->layout;
	bundle->manifest = malloc((size_t)l->manifest_len + 1);
	bundle->icon = malloc(l->icon_len > 0 ? l->icon_len : 1);
	if (bundle->manifest == NULL || bundle->icon == NULL) {
		return open_failed(bundle, error, path, "out of memory");
	}
	if (!read_exact(bundle->fd, bundle->manifest, l->manifest_len, l->manifest_offset) ||
		!read_exact(bundle->fd, bundle->icon, l->icon_len, l->icon_offset) ||
		!read_exact(bundle->fd, bundle->signature, CORDON_BUNDLE_SIGNATURE_SIZE,
			l->signature_offset)) {
		return open_failed(bundle, error, path, "cannot read its parts (truncated?)");
	}
	bundle->manifest[l->manifest_len] = '\0';
	return bundle;
}

void cordon_bundle_close(struct cordon_bundle *bundle) {
	if (bundle == NULL) {
		return;
	}
	if (bundle->fd >= 0) {
		close(bundle->fd);
	}
	free(bundle->manifest);
	free(bundle->icon);
	free(bundle);
}

/* squashfs's magic at 0, erofs's at 1024 (the two cordon-run mounts, docs/sandbox.md). */
static bool image_magic_ok(int fd, const struct cordon_bundle_layout *l) {
	unsigned char magic[4];
	if (read_exact(fd, magic, 4, l->image_offset) && memcmp(magic, "hsqs", 4) == 0) {
		return true;
	}
	return l->image_len > 1028 && read_exact(fd, magic, 4, l->image_offset + 1024) &&
		magic[0] == 0xE2 && magic[1] == 0xE1 && magic[2] == 0xF5 && magic[3] == 0xE0;
}

bool cordon_bundle_stream_image(struct cordon_bundle *bundle, int out_fd,
	unsigned char digest[CORDON_DIGEST_SIZE], cordon_progress_fn progress, void *data,
	char **error) {
	const struct cordon_bundle_layout *l = &bundle->layout;
	if (!image_magic_ok(bundle->fd, l)) {
		*error = cordon_format("the image is neither squashfs nor erofs");
		return false;
	}
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t chunk = 1 << 20;
	unsigned char *buf = malloc(chunk);
	bool ok = ctx != NULL && buf != NULL && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
	uint64_t done = 0;
	while (ok && done < l->image_len) {
		size_t want = l->image_len - done < chunk ? (size_t)(l->image_len - done) : chunk;
		if (!read_exact(bundle->fd, buf, want, l->image_offset + done)) {
			*error = cordon_format("reading the image: %s",
				errno != 0 ? strerror(errno) : "the file shrank");
			ok = false;
			break;
		}
		if (EVP_DigestUpdate(ctx, buf, want) != 1) {
			*error = cordon_format("SHA-256 failed");
			ok = false;
			break;
		}
		if (out_fd >= 0 && !write_all(out_fd, buf, want)) {
			*error = cordon_format("writing the image: %s", strerror(errno));
			ok = false;
			break;
		}
		done += want;
		if (progress != NULL) {
			progress(data, done, l->image_len);
		}
	}
	unsigned int digest_len = 0;
	if (ok &&
		(EVP_DigestFinal_ex(ctx, digest, &digest_len) != 1 ||
			digest_len != CORDON_DIGEST_SIZE)) {
		*error = cordon_format("SHA-256 failed");
		ok = false;
	} else if (!ok && *error == NULL) {
		*error = cordon_format("out of memory");
	}
	EVP_MD_CTX_free(ctx);
	free(buf);
	return ok;
}

void cordon_bundle_signed_message(const struct cordon_bundle *bundle,
	const unsigned char image_digest[CORDON_DIGEST_SIZE],
	unsigned char out[CORDON_BUNDLE_SIGNED_SIZE]) {
	size_t prefix = sizeof(CORDON_BUNDLE_SIGNED_PREFIX) - 1;
	memcpy(out, CORDON_BUNDLE_SIGNED_PREFIX, prefix);
	cordon_sha256(bundle->manifest, bundle->layout.manifest_len, out + prefix);
	cordon_sha256(bundle->icon, bundle->layout.icon_len, out + prefix + CORDON_DIGEST_SIZE);
	memcpy(out + prefix + 2 * CORDON_DIGEST_SIZE, image_digest, CORDON_DIGEST_SIZE);
}
