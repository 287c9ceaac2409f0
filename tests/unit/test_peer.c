/* Unit tests for peer identification: our own process, a forked client, and a peer that is gone. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup_mount.h"
#include "sandbox/peer.h"

#include "cgroup_fixture.h"
#include "check.h"

static bool same_tag(const struct cordon_tag *a, const struct cordon_tag *b) {
	return a->engine == b->engine && a->sandboxed == b->sandboxed &&
		strcmp(a->app_id, b->app_id) == 0 && strcmp(a->instance, b->instance) == 0;
}

static const char *path_name(const struct cordon_peer *peer) {
	if (peer->from_peerpidfd) {
		return peer->from_pidfd_info ? "SO_PEERPIDFD+PIDFD_GET_INFO"
					     : "SO_PEERPIDFD+fdinfo";
	}
	return peer->from_pidfd_info ? "pidfd_open+PIDFD_GET_INFO" : "pidfd_open";
}

/*
 * Every way of identifying (the kernel's newest and each fallback) must give the same pid,
 * credentials, cgroup and tag; the one with PIDFD_GET_INFO also a cgroup id, which must be
 * the id of that cgroup.
 */
static void test_self(void) {
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	char cgroup[8192];
	fixture_own_cgroup(cgroup, sizeof(cgroup));
	CHECK(cgroup[0] == '/');
	struct cordon_tag want;
	bool valid = cordon_tag_from_cgroup_path(cgroup, &want);
	char mount[4096];
	uint64_t want_id =
		cordon_cgroup2_mount(mount, sizeof(mount)) ? fixture_cgroup_id(mount, cgroup) : 0;
	for (unsigned flags = 0; flags < 4; flags++) {
		struct cordon_peer peer;
		CHECK(cordon_peer_identify_with(sv[0], NULL, &peer, flags));
		CHECK(peer.pid == getpid());
		CHECK(peer.uid == getuid());
		CHECK(peer.gid == getgid());
		CHECK(peer.pidfd >= 0);
		CHECK(peer.from_peerpidfd == !(flags & CORDON_PEER_NO_PEERPIDFD));
		if (flags & CORDON_PEER_NO_PIDFD_INFO) {
			CHECK(!peer.from_pidfd_info && peer.cgroup_id == 0);
		} else if (peer.from_pidfd_info) {
			CHECK(want_id == 0 || peer.cgroup_id == want_id);
		} else {
			printf("self: no PIDFD_GET_INFO on this kernel (before 6.13)\n");
		}
		CHECK(peer.cgroup != NULL && strcmp(peer.cgroup, cgroup) == 0);
		CHECK(peer.cgroup_valid == valid);
		CHECK(same_tag(&peer.tag, &want));
		printf("self (%s): pid %d cgroup %s (id %llu) engine %s app_id \"%s\"\n",
			path_name(&peer), (int)peer.pid, peer.cgroup,
			(unsigned long long)peer.cgroup_id,
			cordon_sandbox_engine_name(peer.tag.engine), peer.tag.app_id);
		cordon_peer_finish(&peer);
		CHECK(peer.pidfd == -1);
	}
	close(sv[0]);
	close(sv[1]);
}

/* A cache that has seen our own cgroup (NULL where there can be none). */
static struct cordon_cgroup_cache *warm_cache(void) {
	struct cordon_cgroup_cache *cache = cordon_peer_cgroup_cache_create();
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	struct cordon_peer peer;
	CHECK(cordon_peer_identify(sv[0], cache, &peer));
	cordon_peer_finish(&peer);
	close(sv[0]);
	close(sv[1]);
	return cache;
}

/*
 * The cache gives what reading /proc gives, without reading it the second time; and only
 * where PIDFD_GET_INFO gives cgroup ids (6.13+), the kernel these machines run.
 */
static void test_cache_self(void) {
	struct cordon_cgroup_cache *cache = cordon_peer_cgroup_cache_create();
	if (!cache) {
		printf("cache: none here (%s)\n", strerror(errno));
		return;
	}
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	struct cordon_peer read, cached, fallback;
	CHECK(cordon_peer_identify(sv[0], cache, &read));
	CHECK(!read.from_cache && read.cgroup_id != 0);
	CHECK(cordon_peer_identify(sv[0], cache, &cached));
	CHECK(cached.from_cache);
	/* Without PIDFD_GET_INFO there is no id to look up: /proc is read. */
	CHECK(cordon_peer_identify_with(sv[0], cache, &fallback, CORDON_PEER_NO_PIDFD_INFO));
	CHECK(!fallback.from_cache);
	const struct cordon_peer *all[] = {&cached, &fallback};
	for (size_t i = 0; i < 2; i++) {
		CHECK(all[i]->pid == read.pid && all[i]->uid == read.uid &&
			all[i]->gid == read.gid);
		CHECK(strcmp(all[i]->cgroup, read.cgroup) == 0);
		CHECK(all[i]->cgroup_valid == read.cgroup_valid);
		CHECK(same_tag(&all[i]->tag, &read.tag));
	}
	printf("cache: cgroup %s (id %llu) read once, then known\n", cached.cgroup,
		(unsigned long long)cached.cgroup_id);
	cordon_peer_finish(&read);
	cordon_peer_finish(&cached);
	cordon_peer_finish(&fallback);
	close(sv[0]);
	close(sv[1]);
	cordon_cgroup_cache_destroy(cache);
}

static int listen_abstract(struct sockaddr_un *addr, socklen_t *len) {
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	int n = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1, "cordon-test-peer-%d",
		(int)getpid());
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)addr, *len) != 0 || listen(fd, 4) != 0) {
		perror("listen");
		exit(1);
	}
	return fd;
}

/*
 * A forked child connects and then either waits for the parent (alive) or exits at once and is
 * reaped before the parent looks at it (gone: its pid may belong to anyone by then).
 */
static void test_child(bool stay_alive, unsigned flags, bool use_cache) {
	struct sockaddr_un addr;
	socklen_t addr_len;
	int lfd = listen_abstract(&addr, &addr_len);
	int release[2];
	CHECK(pipe(release) == 0);
	pid_t child = fork();
	if (child == 0) {
		close(release[1]);
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, addr_len) != 0) {
			_exit(2);
		}
		if (stay_alive) {
			char c;
			(void)!read(release[0], &c, 1);
		}
		_exit(0);
	}
	close(release[0]);
	int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	CHECK(cfd >= 0);
	int status = 0;
	if (!stay_alive) {
		CHECK(waitpid(child, &status, 0) == child);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}

	struct cordon_peer peer;
	struct cordon_cgroup_cache *cache = use_cache ? warm_cache() : NULL;
	bool ok = cordon_peer_identify_with(cfd, cache, &peer, flags);
	if (stay_alive) {
		CHECK(ok);
		CHECK(peer.pid == child);
		CHECK(peer.uid == getuid());
		CHECK(peer.pidfd >= 0);
		CHECK(peer.from_cache == (cache && peer.from_pidfd_info));
		cordon_peer_finish(&peer);
		CHECK(write(release[1], "x", 1) == 1);
		CHECK(waitpid(child, &status, 0) == child);
	} else {
		/* Never another process's identity, and nothing left open. */
		CHECK(!ok);
		CHECK(peer.pidfd == -1);
		CHECK(peer.pid == 0);
		CHECK(peer.cgroup == NULL);
	}
	cordon_cgroup_cache_destroy(cache);
	close(release[1]);
	close(cfd);
	close(lfd);
}

/* A process with exactly the pid `pid` (clone3 set_tid; needs CAP_SYS_ADMIN), or -1. */
static pid_t spawn_with_pid(pid_t pid, int wait_fd) {
	struct clone_args args;
	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&pid;
	args.set_tid_size = 1;
	long r = syscall(SYS_clone3, &args, sizeof(args));
	if (r == 0) {
		char c;
		(void)!read(wait_fd, &c, 1);
		_exit(0);
	}
	return (pid_t)r;
}

/*
 * Real pid reuse: the client connects and exits, and another process is given its pid before
 * cordon looks. SO_PEERPIDFD must refuse it (the pidfd is the dead client's). With
 * SO_PEERCRED+pidfd_open the kernel offers no way to tell the two apart: that is the documented
 * residual race of the fallback, so only the SO_PEERPIDFD path is asserted here.
 */
static void test_pid_reuse(void) {
	struct sockaddr_un addr;
	socklen_t addr_len;
	int lfd = listen_abstract(&addr, &addr_len);
	pid_t child = fork();
	if (child == 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		_exit(fd >= 0 && connect(fd, (struct sockaddr *)&addr, addr_len) == 0 ? 0 : 2);
	}
	int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	CHECK(cfd >= 0);
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	int release[2];
	CHECK(pipe(release) == 0);
	pid_t reused = spawn_with_pid(child, release[0]);
	if (reused < 0) {
		printf("pid reuse: skipped, clone3 set_tid: %s\n", strerror(errno));
	} else {
		CHECK(reused == child);
		/*
		 * With PIDFD_GET_INFO and with the fdinfo fallback; and with a cache that knows
		 * the cgroup the new process is in (ours), which must not make a dead peer's
		 * identification succeed either.
		 */
		struct cordon_cgroup_cache *cache = warm_cache();
		for (unsigned flags = 0; flags <= CORDON_PEER_NO_PIDFD_INFO;
			flags += CORDON_PEER_NO_PIDFD_INFO) {
			struct cordon_peer peer;
			CHECK(!cordon_peer_identify_with(cfd, NULL, &peer, flags));
			CHECK(peer.pidfd == -1 && peer.pid == 0);
			CHECK(!cordon_peer_identify_with(cfd, cache, &peer, flags));
			CHECK(peer.pidfd == -1 && peer.pid == 0 && peer.cgroup == NULL);
		}
		cordon_cgroup_cache_destroy(cache);
		printf("pid reuse: pid %d given to another process, identification refused\n",
			(int)child);
		CHECK(write(release[1], "x", 1) == 1);
		CHECK(waitpid(reused, &status, 0) == reused);
	}
	close(release[0]);
	close(release[1]);
	close(cfd);
	close(lfd);
}

static bool move_to(const char *dir, pid_t pid) {
	char procs[4096 + 160];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	FILE *f = fopen(procs, "we");
	if (f == NULL) {
		return false;
	}
	fprintf(f, "%d\n", (int)pid);
	return fclose(f) == 0;
}

static void remove_cgroup(const char *dir) {
	/* The last process may take a moment to leave after it was reaped. */
	for (int i = 0; i < 100 && rmdir(dir) != 0 && errno == EBUSY; i++) {
		usleep(10000);
	}
}

/*
 * The cache is keyed by the cgroup, not by the process: a client that moves (as root can move
 * it, or a host process itself) is identified in the cgroup it is in, whether that path was
 * read or known. Needs root to make cgroups.
 */
static void test_cache_moves(void) {
	char mount[4096];
	struct cordon_cgroup_cache *cache = cordon_peer_cgroup_cache_create();
	if (geteuid() != 0 || !cache || !cordon_cgroup2_mount(mount, sizeof(mount))) {
		printf("cache moves: skipped (needs root and a cgroup cache)\n");
		cordon_cgroup_cache_destroy(cache);
		return;
	}
	char path[2][64], dir[2][4096 + 128];
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "/cordon-test-peer-%d-%c", (int)getpid(),
			'a' + i);
		snprintf(dir[i], sizeof(dir[i]), "%s%s", mount, path[i]);
		if (mkdir(dir[i], 0755) != 0) {
			printf("cache moves: skipped, mkdir %s: %s\n", dir[i], strerror(errno));
			if (i == 1) {
				remove_cgroup(dir[0]);
			}
			cordon_cgroup_cache_destroy(cache);
			return;
		}
	}
	struct sockaddr_un addr;
	socklen_t addr_len;
	int lfd = listen_abstract(&addr, &addr_len);
	int cmd[2];
	CHECK(pipe(cmd) == 0);
	pid_t child = fork();
	if (child == 0) {
		/* Connects once per byte; keeps every connection until told to end. */
		close(cmd[1]);
		char c;
		while (read(cmd[0], &c, 1) == 1) {
			int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd < 0 || connect(fd, (struct sockaddr *)&addr, addr_len) != 0) {
				_exit(2);
			}
		}
		_exit(0);
	}
	close(cmd[0]);
	/* Into a, into b, back into a; two connections each: the first of a new cgroup is read. */
	const int order[] = {0, 1, 0};
	for (size_t k = 0; k < 3; k++) {
		CHECK(move_to(dir[order[k]], child));
		for (int n = 0; n < 2; n++) {
			CHECK(write(cmd[1], "c", 1) == 1);
			int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			CHECK(cfd >= 0);
			struct cordon_peer peer;
			CHECK(cordon_peer_identify(cfd, cache, &peer));
			CHECK(peer.cgroup != NULL && strcmp(peer.cgroup, path[order[k]]) == 0);
			CHECK(peer.from_cache == (n > 0 || k == 2));
			cordon_peer_finish(&peer);
			close(cfd);
		}
	}
	printf("cache moves: a client moved a -> b -> a was identified in each\n");
	close(cmd[1]);
	int status;
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(lfd);
	remove_cgroup(dir[0]);
	remove_cgroup(dir[1]);
	cordon_cgroup_cache_destroy(cache);
}

/*
 * A peer of another user: an unprivileged compositor may not signal a root client, and the
 * liveness check's EPERM still means alive. As root: the child drops to nobody and identifies
 * us through a socketpair we made.
 */
static void test_other_user(void) {
	if (geteuid() != 0) {
		printf("other user: skipped (needs root)\n");
		return;
	}
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
			_exit(3);
		}
		int bad = 0;
		for (unsigned flags = 0; flags < 4; flags++) {
			struct cordon_peer peer;
			if (!cordon_peer_identify_with(sv[0], NULL, &peer, flags) ||
				peer.pid != parent || peer.uid != 0) {
				bad++;
			}
			cordon_peer_finish(&peer);
		}
		_exit(bad);
	}
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("other user: nobody identified root (exit %d)\n",
		WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	close(sv[0]);
	close(sv[1]);
}

static void test_not_a_peer(void) {
	struct cordon_peer peer;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(!cordon_peer_identify(fd, NULL, &peer));
	CHECK(peer.pidfd == -1);
	close(fd);
	int pipefd[2];
	CHECK(pipe(pipefd) == 0);
	CHECK(!cordon_peer_identify(pipefd[0], NULL, &peer));
	close(pipefd[0]);
	close(pipefd[1]);
	CHECK(!cordon_peer_identify(-1, NULL, &peer));
}

int main(void) {
	test_self();
	test_cache_self();
	for (unsigned flags = 0; flags < 8; flags++) {
		test_child(true, flags & 3, flags & 4);
		test_child(false, flags & 3, flags & 4);
	}
	test_cache_moves();
	test_other_user();
	test_pid_reuse();
	test_not_a_peer();
	return check_result();
}
