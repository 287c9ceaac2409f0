/*
 * cordon-bundle (docs/apps.md): what a store operator (and the tests) use to make keys, build
 * and sign bundles, and sign a store's index.
 *
 *	cordon-bundle keygen KEYFILE            writes the private key, prints the public one
 *	cordon-bundle pubkey KEYFILE            prints the public key
 *	cordon-bundle build KEYFILE MANIFEST.json IMAGE ICON.png|- OUT
 *	cordon-bundle sign-index KEYFILE INDEX.json   writes INDEX.json.sig
 *	cordon-bundle verify PUBKEY-HEX BUNDLE  checks a bundle as cordon-app install does
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/bundle.h"
#include "apps/files.h"
#include "apps/signature.h"
#include "apps/store.h"
#include "common/format.h"

static int die(const char *what, const char *detail) {
	fprintf(stderr, "cordon-bundle: %s%s%s\n", what, detail != NULL ? ": " : "",
		detail != NULL ? detail : "");
	return 1;
}

static bool read_key(const char *path, unsigned char seed[CORDON_KEY_SIZE]) {
	char *text = cordon_read_file(path, 256, NULL);
	bool ok = text != NULL;
	if (ok) {
		text[strcspn(text, "\n")] = '\0';
		ok = cordon_hex_decode(text, seed, CORDON_KEY_SIZE);
	}
	free(text);
	return ok;
}

static int print_public(const unsigned char seed[CORDON_KEY_SIZE]) {
	unsigned char pub[CORDON_KEY_SIZE];
	char hex[CORDON_KEY_HEX_LEN + 1];
	if (!cordon_key_public(seed, pub)) {
		return die("OpenSSL could not derive the public key", NULL);
	}
	cordon_hex_encode(pub, CORDON_KEY_SIZE, hex);
	printf("%s\n", hex);
	return 0;
}

static int keygen(const char *path) {
	unsigned char seed[CORDON_KEY_SIZE], pub[CORDON_KEY_SIZE];
	char hex[CORDON_KEY_HEX_LEN + 2];
	if (!cordon_key_generate(seed, pub)) {
		return die("OpenSSL could not make a key", NULL);
	}
	cordon_hex_encode(seed, CORDON_KEY_SIZE, hex);
	strcat(hex, "\n");
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) || close(fd) < 0) {
		return die(path, strerror(errno));
	}
	return print_public(seed);
}

static int copy_range(int in, int out, uint64_t len) {
	char buf[1 << 16];
	while (len > 0) {
		ssize_t n = read(in, buf, len < sizeof(buf) ? (size_t)len : sizeof(buf));
		if (n <= 0 || write(out, buf, (size_t)n) != n) {
			return -1;
		}
		len -= (uint64_t)n;
	}
	return 0;
}

static int build(const char *key_path, const char *manifest_path, const char *image_path,
	const char *icon_path, const char *out_path) {
	unsigned char seed[CORDON_KEY_SIZE];
	if (!read_key(key_path, seed)) {
		return die(key_path, "not a private key file (64 hex digits)");
	}
	size_t manifest_len = 0, icon_len = 0;
	char *manifest = cordon_read_file(manifest_path, CORDON_BUNDLE_MANIFEST_MAX, &manifest_len);
	char *icon = strcmp(icon_path, "-") != 0
		? cordon_read_file(icon_path, CORDON_BUNDLE_ICON_MAX, &icon_len)
		: strdup("");
	int image = open(image_path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (manifest == NULL || icon == NULL || image < 0 || fstat(image, &st) < 0 ||
		st.st_size == 0) {
		return die("cannot read the manifest, icon or image (or one is too large)", NULL);
	}
	unsigned char header[CORDON_BUNDLE_HEADER_SIZE];
	struct cordon_bundle_layout layout;
	cordon_bundle_make_header(
		header, (uint32_t)manifest_len, (uint32_t)icon_len, (uint64_t)st.st_size, &layout);
	int out = open(out_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		return die(out_path, strerror(errno));
	}
	static const char zeros[CORDON_BUNDLE_ALIGN];
	uint64_t pad = layout.image_offset - layout.signature_offset - CORDON_BUNDLE_SIGNATURE_SIZE;
	unsigned char sig[CORDON_SIG_SIZE] = {0};
	bool ok = write(out, header, sizeof(header)) == sizeof(header) &&
		write(out, manifest, manifest_len) == (ssize_t)manifest_len &&
		write(out, icon, icon_len) == (ssize_t)icon_len &&
		write(out, sig, sizeof(sig)) == sizeof(sig) &&
		write(out, zeros, pad) == (ssize_t)pad &&
		copy_range(image, out, (uint64_t)st.st_size) == 0;
	close(image);
	free(manifest);
	free(icon);
	char *error = NULL;
	struct cordon_bundle *bundle = ok ? cordon_bundle_open(out_path, &error) : NULL;
	unsigned char digest[CORDON_DIGEST_SIZE], message[CORDON_BUNDLE_SIGNED_SIZE];
	ok = bundle != NULL && cordon_bundle_stream_image(bundle, -1, digest, NULL, NULL, &error);
	if (ok) {
		cordon_bundle_signed_message(bundle, digest, message);
		ok = cordon_signature_sign(seed, message, sizeof(message), sig) &&
			pwrite(out, sig, sizeof(sig), (off_t)layout.signature_offset) ==
				sizeof(sig);
	}
	cordon_bundle_close(bundle);
	close(out);
	if (!ok) {
		int rc = die("building the bundle failed", error);
		free(error);
		return rc;
	}
	return 0;
}

static int sign_index(const char *key_path, const char *index_path) {
	unsigned char seed[CORDON_KEY_SIZE], sig[CORDON_SIG_SIZE];
	if (!read_key(key_path, seed)) {
		return die(key_path, "not a private key file (64 hex digits)");
	}
	size_t len = 0;
	char *text = cordon_read_file(index_path, CORDON_INDEX_MAX, &len);
	char *message =
		text != NULL ? cordon_format("%s%s", CORDON_INDEX_SIGNED_PREFIX, text) : NULL;
	if (message == NULL || strlen(text) != len) {
		return die(index_path, "cannot read it (or it holds a NUL byte)");
	}
	bool ok = cordon_signature_sign(seed, message, strlen(message), sig);
	char hex[CORDON_SIG_HEX_LEN + 2];
	cordon_hex_encode(sig, CORDON_SIG_SIZE, hex);
	strcat(hex, "\n");
	char *sig_path = cordon_format("%s.sig", index_path);
	char *error = NULL;
	ok = ok && sig_path != NULL &&
		cordon_write_atomic(sig_path, hex, strlen(hex), 0644, &error);
	free(text);
	free(message);
	free(sig_path);
	if (!ok) {
		int rc = die("signing the index failed", error);
		free(error);
		return rc;
	}
	return 0;
}

/* What cordon-app install checks, without installing: for store operators and the bench. */
static int verify(const char *pub_hex, const char *path) {
	unsigned char pub[CORDON_KEY_SIZE], digest[CORDON_DIGEST_SIZE];
	unsigned char message[CORDON_BUNDLE_SIGNED_SIZE];
	if (!cordon_hex_decode(pub_hex, pub, sizeof(pub))) {
		return die(pub_hex, "not a public key (64 hex digits)");
	}
	char *error = NULL;
	struct cordon_bundle *bundle = cordon_bundle_open(path, &error);
	bool ok = bundle != NULL &&
		cordon_bundle_stream_image(bundle, -1, digest, NULL, NULL, &error);
	if (ok) {
		cordon_bundle_signed_message(bundle, digest, message);
		ok = cordon_signature_verify(pub, message, sizeof(message), bundle->signature);
	}
	cordon_bundle_close(bundle);
	if (!ok) {
		int rc = die(path, error != NULL ? error : "the signature does not verify");
		free(error);
		return rc;
	}
	printf("%s: good signature by %s\n", path, pub_hex);
	return 0;
}

int main(int argc, char **argv) {
	if (argc == 3 && strcmp(argv[1], "keygen") == 0) {
		return keygen(argv[2]);
	}
	if (argc == 3 && strcmp(argv[1], "pubkey") == 0) {
		unsigned char seed[CORDON_KEY_SIZE];
		return read_key(argv[2], seed) ? print_public(seed)
					       : die(argv[2], "not a key file");
	}
	if (argc == 7 && strcmp(argv[1], "build") == 0) {
		return build(argv[2], argv[3], argv[4], argv[5], argv[6]);
	}
	if (argc == 4 && strcmp(argv[1], "verify") == 0) {
		return verify(argv[2], argv[3]);
	}
	if (argc == 4 && strcmp(argv[1], "sign-index") == 0) {
		return sign_index(argv[2], argv[3]);
	}
	fprintf(stderr,
		"Usage: cordon-bundle keygen KEYFILE | pubkey KEYFILE\n"
		"       cordon-bundle build KEYFILE MANIFEST.json IMAGE ICON.png|- OUT\n"
		"       cordon-bundle sign-index KEYFILE INDEX.json\n"
		"       cordon-bundle verify PUBKEY-HEX BUNDLE\n");
	return 2;
}
