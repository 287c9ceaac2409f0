/* Unit tests for the cgroup cache: what it keeps is proven, what it cannot prove it refuses. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/cgroup_cache.h"
#include "sandbox/cgroup_mount.h"

#include "cgroup_fixture.h"
#include "check.h"

static char mount[4096];

static void test_own(const char *own, uint64_t own_id) {
	/* The namespace check: our own path must name our own cgroup on the mount. */
	CHECK(cordon_cgroup_cache_create(mount, own, own_id + 1000003) == NULL);
	CHECK(cordon_cgroup_cache_create(mount, own, 0) == NULL);
	CHECK(cordon_cgroup_cache_create("/proc", own, own_id) == NULL);
	struct cordon_cgroup_cache *cache = cordon_cgroup_cache_create(mount, own, own_id);
	CHECK(cache != NULL);
	CHECK(cordon_cgroup_cache_lookup(cache, own_id) == NULL);
	/* Another id for the same path, a path that is not there, a path that is not canonical. */
	CHECK(!cordon_cgroup_cache_add(cache, own_id + 1000003, own));
	CHECK(!cordon_cgroup_cache_add(cache, own_id, "/cordon-test-no-such-cgroup"));
	CHECK(!cordon_cgroup_cache_add(cache, own_id, "relative"));
	CHECK(!cordon_cgroup_cache_add(cache, 1, "/.."));
	CHECK(!cordon_cgroup_cache_add(cache, 1, "//"));
	CHECK(!cordon_cgroup_cache_add(cache, 1, "/."));
	CHECK(cordon_cgroup_cache_lookup(cache, own_id) == NULL);
	CHECK(cordon_cgroup_cache_add(cache, own_id, own));
	CHECK(!cordon_cgroup_cache_add(cache, own_id, own));
	const char *known = cordon_cgroup_cache_lookup(cache, own_id);
	CHECK(known != NULL && strcmp(known, own) == 0);
	CHECK(cordon_cgroup_cache_lookup(cache, 0) == NULL);
	CHECK(cordon_cgroup_cache_lookup(NULL, own_id) == NULL);
	cordon_cgroup_cache_destroy(cache);
	printf("own cgroup %s (id %llu): kept; wrong ids and odd paths refused\n", own,
		(unsigned long long)own_id);
}

/*
 * Made cgroups (root only): an id is only kept with its own path, never another's (a process
 * that moved between the id and the read), and the oldest entries make room.
 */
static void test_made(const char *own, uint64_t own_id) {
	enum { N = 70 };
	char paths[N][64];
	uint64_t ids[N];
	int made = 0;
	for (; made < N; made++) {
		snprintf(paths[made], sizeof(paths[made]), "/cordon-test-cache-%d-%d",
			(int)getpid(), made);
		char dir[4096 + 128];
		if (snprintf(dir, sizeof(dir), "%s%s", mount, paths[made]) >= (int)sizeof(dir) ||
			mkdir(dir, 0755) != 0) {
			break;
		}
		ids[made] = fixture_cgroup_id(mount, paths[made]);
	}
	if (made < N) {
		printf("made cgroups: skipped (%s)\n", strerror(errno));
	} else {
		struct cordon_cgroup_cache *cache = cordon_cgroup_cache_create(mount, own, own_id);
		CHECK(cache != NULL);
		CHECK(ids[0] != 0 && ids[0] != ids[1]);
		CHECK(!cordon_cgroup_cache_add(cache, ids[0], paths[1]));
		CHECK(!cordon_cgroup_cache_add(cache, ids[1], paths[0]));
		CHECK(cordon_cgroup_cache_lookup(cache, ids[0]) == NULL);
		for (int i = 0; i < N; i++) {
			CHECK(cordon_cgroup_cache_add(cache, ids[i], paths[i]));
		}
		/* 64 entries: the first six are gone, the rest are known by their own paths. */
		for (int i = 0; i < N; i++) {
			const char *known = cordon_cgroup_cache_lookup(cache, ids[i]);
			CHECK(i < N - 64 ? known == NULL : known && strcmp(known, paths[i]) == 0);
		}
		cordon_cgroup_cache_destroy(cache);
		printf("made cgroups: %d, each kept only with its own path, oldest out first\n", N);
	}
	for (int i = 0; i < made; i++) {
		char dir[4096 + 128];
		CHECK(snprintf(dir, sizeof(dir), "%s%s", mount, paths[i]) < (int)sizeof(dir));
		CHECK(rmdir(dir) == 0);
	}
}

int main(void) {
	if (!cordon_cgroup2_mount(mount, sizeof(mount))) {
		printf("SKIP: no cgroup2 mount\n");
		return 77;
	}
	char own[8192];
	fixture_own_cgroup(own, sizeof(own));
	uint64_t own_id = fixture_cgroup_id(mount, own);
	if (own[0] != '/' || own_id == 0) {
		printf("SKIP: own cgroup %s not found on %s\n", own, mount);
		return 77;
	}
	test_own(own, own_id);
	if (geteuid() == 0) {
		test_made(own, own_id);
	}
	return check_result();
}
