/* Ed25519 keys and signatures through OpenSSL 3, and SHA-256: no cryptography of cordon's own. */
#ifndef CORDON_APPS_SIGNATURE_H
#define CORDON_APPS_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CORDON_KEY_SIZE 32
#define CORDON_SIG_SIZE 64
#define CORDON_KEY_HEX_LEN (2 * CORDON_KEY_SIZE)
#define CORDON_SIG_HEX_LEN (2 * CORDON_SIG_SIZE)

/* Lower-case hex of len bytes into out (2 * len + 1 bytes). */
void cordon_hex_encode(const unsigned char *bytes, size_t len, char *out);
/* Exactly 2 * len hex digits into bytes; false otherwise. */
bool cordon_hex_decode(const char *hex, unsigned char *bytes, size_t len);

bool cordon_sha256(const void *data, size_t len, unsigned char out[32]);
/* The SHA-256 of a whole file from its start, and its length. */
bool cordon_sha256_fd(int fd, unsigned char out[32], uint64_t *len);

/* Whether sig is a valid Ed25519 signature of message by public key key. */
bool cordon_signature_verify(const unsigned char key[CORDON_KEY_SIZE], const void *message,
	size_t len, const unsigned char sig[CORDON_SIG_SIZE]);
/* Signs with the private key (its 32-byte seed); false on an OpenSSL failure. */
bool cordon_signature_sign(const unsigned char seed[CORDON_KEY_SIZE], const void *message,
	size_t len, unsigned char sig[CORDON_SIG_SIZE]);
/* A new key pair from OpenSSL's random generator. */
bool cordon_key_generate(unsigned char seed[CORDON_KEY_SIZE], unsigned char pub[CORDON_KEY_SIZE]);

/* The public key of a private key's seed. */
bool cordon_key_public(
	const unsigned char seed[CORDON_KEY_SIZE], unsigned char pub[CORDON_KEY_SIZE]);

/* A short name for a key, for messages: "ed25519:" and 16 hex digits of its SHA-256. */
void cordon_key_fingerprint(const unsigned char key[CORDON_KEY_SIZE], char out[32]);

#endif
