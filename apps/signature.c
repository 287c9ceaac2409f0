/*
 * Ed25519 and SHA-256 through OpenSSL 3's EVP interface. Keys travel as hex of their raw 32
 * bytes (the public key, and the private key's seed): no PEM or ASN.1 parsing of store data.
 */
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/signature.h"

void cordon_hex_encode(const unsigned char *bytes, size_t len, char *out) {
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

bool cordon_hex_decode(const char *hex, unsigned char *bytes, size_t len) {
	if (hex == NULL || strlen(hex) != 2 * len) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			return false;
		}
		bytes[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

bool cordon_sha256(const void *data, size_t len, unsigned char out[32]) {
	unsigned int out_len = 0;
	return EVP_Digest(data, len, out, &out_len, EVP_sha256(), NULL) == 1 && out_len == 32;
}

bool cordon_sha256_fd(int fd, unsigned char out[32], uint64_t *len) {
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t size = 1 << 20;
	unsigned char *buf = malloc(size);
	bool ok = ctx != NULL && buf != NULL && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
	*len = 0;
	while (ok) {
		ssize_t n = pread(fd, buf, size, (off_t)*len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			ok = n == 0;
			break;
		}
		ok = EVP_DigestUpdate(ctx, buf, (size_t)n) == 1;
		*len += (uint64_t)n;
	}
	unsigned int out_len = 0;
	ok = ok && EVP_DigestFinal_ex(ctx, out, &out_len) == 1 && out_len == 32;
	EVP_MD_CTX_free(ctx);
	free(buf);
	return ok;
}

bool cordon_signature_verify(const unsigned char key[CORDON_KEY_SIZE], const void *message,
	size_t len, const unsigned char sig[CORDON_SIG_SIZE]) {
	EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, key, CORDON_KEY_SIZE);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = pkey != NULL && ctx != NULL &&
		EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, pkey) == 1 &&
		EVP_DigestVerify(ctx, sig, CORDON_SIG_SIZE, message, len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return ok;
}

bool cordon_signature_sign(const unsigned char seed[CORDON_KEY_SIZE], const void *message,
	size_t len, unsigned char sig[CORDON_SIG_SIZE]) {
	EVP_PKEY *pkey =
		EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, CORDON_KEY_SIZE);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t sig_len = CORDON_SIG_SIZE;
	bool ok = pkey != NULL && ctx != NULL &&
		EVP_DigestSignInit(ctx, NULL, NULL, NULL, pkey) == 1 &&
		EVP_DigestSign(ctx, sig, &sig_len, message, len) == 1 && sig_len == CORDON_SIG_SIZE;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return ok;
}

bool cordon_key_generate(unsigned char seed[CORDON_KEY_SIZE], unsigned char pub[CORDON_KEY_SIZE]) {
	return RAND_priv_bytes(seed, CORDON_KEY_SIZE) == 1 && cordon_key_public(seed, pub);
}

bool cordon_key_public(
	const unsigned char seed[CORDON_KEY_SIZE], unsigned char pub[CORDON_KEY_SIZE]) {
	EVP_PKEY *pkey =
		EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, CORDON_KEY_SIZE);
	size_t pub_len = CORDON_KEY_SIZE;
	bool ok = pkey != NULL && EVP_PKEY_get_raw_public_key(pkey, pub, &pub_len) == 1 &&
		pub_len == CORDON_KEY_SIZE;
	EVP_PKEY_free(pkey);
	return ok;
}

void cordon_key_fingerprint(const unsigned char key[CORDON_KEY_SIZE], char out[32]) {
	unsigned char digest[32];
	cordon_sha256(key, CORDON_KEY_SIZE, digest);
	char hex[17];
	cordon_hex_encode(digest, 8, hex);
	snprintf(out, 32, "ed25519:%s", hex);
}
