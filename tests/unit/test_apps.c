/*
 * Unit tests for cordon-app's parsers of hostile input (apps/bundle.c, apps/manifest.c,
 * apps/store.c) and its use of OpenSSL (apps/signature.c): headers with every length at its
 * bounds and beyond, a million random mutations of a valid header (none may be accepted with
 * a layout outside the file), manifests that are not what they seem, versions, store patterns,
 * and signatures that must fail after any one bit flips.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/bundle.h"
#include "apps/manifest.h"
#include "apps/signature.h"
#include "apps/store.h"
#include "check.h"

static void put32(unsigned char *p, uint32_t v) {
	for (int i = 0; i < 4; i++) {
		p[i] = (unsigned char)(v >> (8 * i));
	}
}

static void put64(unsigned char *p, uint64_t v) {
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Whatever the header says, an accepted layout lies inside the file, in order. */
static bool layout_sane(const struct cordon_bundle_layout *l, uint64_t size) {
	return l->manifest_offset == CORDON_BUNDLE_HEADER_SIZE &&
		l->manifest_len <= CORDON_BUNDLE_MANIFEST_MAX &&
		l->icon_len <= CORDON_BUNDLE_ICON_MAX &&
		l->icon_offset == l->manifest_offset + l->manifest_len &&
		l->signature_offset == l->icon_offset + l->icon_len &&
		l->image_offset >= l->signature_offset + CORDON_BUNDLE_SIGNATURE_SIZE &&
		l->image_offset % CORDON_BUNDLE_ALIGN == 0 && l->image_len > 0 &&
		l->image_offset <= size && l->image_len == size - l->image_offset;
}

static void test_headers(void) {
	unsigned char h[CORDON_BUNDLE_HEADER_SIZE];
	struct cordon_bundle_layout l;
	cordon_bundle_make_header(h, 100, 50, 8192, &l);
	uint64_t size = l.image_offset + l.image_len;
	struct cordon_bundle_layout got;
	CHECK(cordon_bundle_parse_header(h, sizeof(h), size, &got) == NULL);
	CHECK(layout_sane(&got, size));
	CHECK(got.image_offset == 4096);
	/* Short buffers, wrong sizes. */
	CHECK(cordon_bundle_parse_header(h, 63, size, &got) != NULL);
	CHECK(cordon_bundle_parse_header(h, sizeof(h), size - 1, &got) != NULL);
	CHECK(cordon_bundle_parse_header(h, sizeof(h), size + 1, &got) != NULL);
	CHECK(cordon_bundle_parse_header(h, sizeof(h), 10, &got) != NULL);
	/* Each field at hostile values. */
	static const uint32_t u32s[] = {0, 1, 63, 64, 65, 0xffff, 0x10000, 0x10001, 0x100000,
		0x100001, 0x7fffffff, 0x80000000, 0xffffffff};
	for (size_t i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++) {
		for (int field = 12; field <= 20; field += 4) {
			unsigned char m[sizeof(h)];
			memcpy(m, h, sizeof(h));
			put32(m + field, u32s[i]);
			const char *problem = cordon_bundle_parse_header(m, sizeof(m), size, &got);
			CHECK(problem != NULL || layout_sane(&got, size));
		}
	}
	static const uint64_t u64s[] = {0, 1, 4095, 4096, 4097, 8192, UINT64_MAX, UINT64_MAX - 4095,
		(64ull << 30), (64ull << 30) + 1, 1ull << 63};
	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
		for (size_t j = 0; j < sizeof(u64s) / sizeof(u64s[0]); j++) {
			unsigned char m[sizeof(h)];
			memcpy(m, h, sizeof(h));
			put64(m + 24, u64s[i]);
			put64(m + 32, u64s[j]);
			/* A file size that would match an overflowing sum. */
			uint64_t sizes[] = {size, u64s[i] + u64s[j], UINT64_MAX, 0};
			for (size_t k = 0; k < 4; k++) {
				const char *problem =
					cordon_bundle_parse_header(m, sizeof(m), sizes[k], &got);
				CHECK(problem != NULL || layout_sane(&got, sizes[k]));
			}
		}
	}
	/* Reserved bytes, magic, format. */
	unsigned char m[sizeof(h)];
	memcpy(m, h, sizeof(h));
	m[50] = 1;
	CHECK(cordon_bundle_parse_header(m, sizeof(m), size, &got) != NULL);
	memcpy(m, h, sizeof(h));
	m[0] = 'X';
	CHECK(cordon_bundle_parse_header(m, sizeof(m), size, &got) != NULL);
	memcpy(m, h, sizeof(h));
	put32(m + 8, 2);
	CHECK(cordon_bundle_parse_header(m, sizeof(m), size, &got) != NULL);
	/* Random mutations: never a layout outside the file. */
	srand(28);
	for (int n = 0; n < 1000000; n++) {
		memcpy(m, h, sizeof(h));
		int flips = 1 + rand() % 4;
		for (int f = 0; f < flips; f++) {
			m[8 + rand() % 32] = (unsigned char)rand();
		}
		uint64_t s = rand() % 2 ? size : (uint64_t)rand() * 4096;
		const char *problem = cordon_bundle_parse_header(m, sizeof(m), s, &got);
		if (problem == NULL && !layout_sane(&got, s)) {
			CHECK(!"a mutated header was accepted with a layout outside the file");
			break;
		}
	}
}

static struct cordon_manifest *parse(const char *text, char **error) {
	*error = NULL;
	return cordon_manifest_parse(text, strlen(text), error);
}

static void test_manifests(void) {
	char base[1024];
	snprintf(base, sizeof(base),
		"{\"id\":\"org.example.A\",\"version\":\"1.2.3\",\"name\":\"A\",\"arch\":\"%s\","
		"\"min-cordon\":\"0.1\",\"command\":[\"/app/bin/a\",\"--x=1\"],"
		"\"permissions\":{\"share\":\"network\",\"devices\":\"dri\"}}",
		cordon_host_arch());
	char *error = NULL;
	struct cordon_manifest *m = parse(base, &error);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_STR(m->id, "org.example.A");
		CHECK(m->permission_count == 2 && m->command_len == 2);
		char *lines = cordon_manifest_profile_lines(m);
		CHECK_STR(lines, "share = network\ndevices = dri\n");
		free(lines);
	}
	cordon_manifest_destroy(m);
	free(error);

	static const char *const hostile[] = {
		"",
		"[]",
		"null",
		"{",
		"{\"id\":1}",
		"{\"id\":\"org.example.A\"} trailing",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]",
		"{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":{\"g\":{\"h\":{\"i\":{}}}}}}}}}}",
	};
	/* A name in any language is fine. */
	char utf8[1100];
	const char *name_at = strstr(base, "\"name\":\"A\"");
	snprintf(utf8, sizeof(utf8), "%.*s\"name\":\"Őrült Ü 日本\"%s", (int)(name_at - base), base,
		name_at + strlen("\"name\":\"A\""));
	m = parse(utf8, &error);
	CHECK(m != NULL);
	cordon_manifest_destroy(m);
	free(error);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		m = parse(hostile[i], &error);
		CHECK(m == NULL && error != NULL);
		cordon_manifest_destroy(m);
		free(error);
	}
	/* A NUL inside: the text is len bytes, not a C string. */
	m = cordon_manifest_parse(base, strlen(base) + 1, &error);
	CHECK(m == NULL);
	cordon_manifest_destroy(m);
	free(error);
	error = NULL;

	/* One field replaced at a time. */
	static const char *const swaps[][2] = {
		{"\"version\":\"1.2.3\"", "\"version\":\"1.2.3-rc1\""},
		{"\"version\":\"1.2.3\"", "\"version\":\"1..2\""},
		{"\"version\":\"1.2.3\"", "\"version\":\"1.2.3.4.5\""},
		{"\"version\":\"1.2.3\"", "\"version\":\"9999999999\""},
		{"\"name\":\"A\"", "\"name\":\"A\\nExec=evil\""},
		{"\"name\":\"A\"", "\"name\":\"A %f\""},
		{"\"name\":\"A\"", "\"name\":\"\\u001b]52;c;aGk=\\u0007\""},
		{"\"name\":\"A\"", "\"name\":\"\\u009b31m\""},
		{"\"name\":\"A\"", "\"name\":\"\\u202egnp.exe\""},
		{"\"name\":\"A\"", "\"name\":\"a\\\\b\""},
		{"\"id\":\"org.example.A\"", "\"id\":\"org/example\""},
		{"\"id\":\"org.example.A\"", "\"id\":\"-org\""},
		{"\"min-cordon\":\"0.1\"", "\"min-cordon\":\"1000\""},
		{"\"/app/bin/a\"", "\"-e\""},
		{"\"/app/bin/a\"", "\"/app/bin/a b\""},
		{"\"/app/bin/a\"", "\"$HOME\""},
		{"\"network\"", "\"network\\n[app x]\""},
		{"\"network\"", "\"bluetooth\""},
		{"\"share\"", "\"profile\""},
		{"\"share\"", "\"sandboxed\""},
		{"\"share\"", "\"sandboxed-launchers\""},
		{"\"share\"", "\"unknown-key\""},
		{"\"share\"", "\"Share\""},
		{"\"share\":\"network\"", "\"share\":[\"network\"]"},
		{"\"command\":[", "\"command\":[1,"},
	};
	for (size_t i = 0; i < sizeof(swaps) / sizeof(swaps[0]); i++) {
		char text[1200];
		const char *at = strstr(base, swaps[i][0]);
		CHECK(at != NULL);
		if (at == NULL) {
			continue;
		}
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - base), base, swaps[i][1],
			at + strlen(swaps[i][0]));
		m = parse(text, &error);
		if (m != NULL) {
			fprintf(stderr, "accepted: %s\n", text);
		}
		CHECK(m == NULL && error != NULL);
		cordon_manifest_destroy(m);
		free(error);
	}
}

static void test_versions_and_patterns(void) {
	CHECK(cordon_version_compare("1.10", "1.9") > 0);
	CHECK(cordon_version_compare("1.0", "1") == 0);
	CHECK(cordon_version_compare("1.0.1", "1.0") > 0);
	CHECK(cordon_version_compare("2", "10") < 0);
	CHECK(!cordon_version_valid("") && !cordon_version_valid(".1") &&
		!cordon_version_valid("1."));
	struct cordon_store s = {.apps = {"org.example.*", "net.other.App"}, .app_count = 2};
	CHECK(cordon_store_may_serve(&s, "org.example.X"));
	CHECK(!cordon_store_may_serve(&s, "org.exampleX"));
	CHECK(!cordon_store_may_serve(&s, "org.example."));
	CHECK(!cordon_store_may_serve(&s, "org.example"));
	CHECK(cordon_store_may_serve(&s, "net.other.App"));
	CHECK(!cordon_store_may_serve(&s, "net.other.App2"));
	CHECK(cordon_store_pattern_problem("*") != NULL);
	CHECK(cordon_store_pattern_problem("org.*.x") != NULL);
	CHECK(cordon_store_name_problem("Bad Name") != NULL);
	CHECK(cordon_store_name_problem("good-1") == NULL);
}

static void test_signatures(void) {
	unsigned char seed[32], pub[32], sig[64], other[32], other_pub[32];
	CHECK(cordon_key_generate(seed, pub));
	CHECK(cordon_key_generate(other, other_pub));
	unsigned char msg[116];
	for (size_t i = 0; i < sizeof(msg); i++) {
		msg[i] = (unsigned char)i;
	}
	CHECK(cordon_signature_sign(seed, msg, sizeof(msg), sig));
	CHECK(cordon_signature_verify(pub, msg, sizeof(msg), sig));
	CHECK(!cordon_signature_verify(other_pub, msg, sizeof(msg), sig));
	for (size_t bit = 0; bit < 8 * sizeof(msg); bit++) {
		msg[bit / 8] ^= (unsigned char)(1 << (bit % 8));
		CHECK(!cordon_signature_verify(pub, msg, sizeof(msg), sig));
		msg[bit / 8] ^= (unsigned char)(1 << (bit % 8));
	}
	for (size_t bit = 0; bit < 8 * sizeof(sig); bit++) {
		sig[bit / 8] ^= (unsigned char)(1 << (bit % 8));
		CHECK(!cordon_signature_verify(pub, msg, sizeof(msg), sig));
		sig[bit / 8] ^= (unsigned char)(1 << (bit % 8));
	}
	unsigned char zero[32] = {0};
	CHECK(!cordon_signature_verify(zero, msg, sizeof(msg), sig));
	char hex[65];
	unsigned char back[32];
	cordon_hex_encode(pub, 32, hex);
	CHECK(cordon_hex_decode(hex, back, 32) && memcmp(back, pub, 32) == 0);
	CHECK(!cordon_hex_decode("zz", back, 1) && !cordon_hex_decode(hex, back, 31));
}

int main(void) {
	test_headers();
	test_manifests();
	test_versions_and_patterns();
	test_signatures();
	return check_result();
}
