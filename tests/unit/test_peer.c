/* Unit tests for peer identification: our own process, a forked client, and a peer that is gone. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/cgroup_mount.h"
#include "sandbox/peer.h"

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)

static void check(bool ok, const char *what, const char *file, int line) {
	if (!ok) {
		fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
		failures++;
	}
}

/* The 0:: line of /proc/self/cgroup, read independently of the code under test. */
static void own_cgroup(char *out, size_t size) {
	out[0] = '\0';
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (f == NULL) {
		return;
	}
	char line[8192];
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%s", line + 3);
			break;
		}
	}
	fclose(f);
}

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

/* The cgroup v2 id of a path under the cgroup2 mount (a cgroup's directory inode), or 0. */
static uint64_t cgroup_id_of(const char *path) {
	char mount[4096], dir[8192];
	if (!cordon_cgroup2_mount(mount, sizeof(mount))) {
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s%s", mount, path);
	union {
		struct file_handle handle;
		char space[sizeof(struct file_handle) + sizeof(uint64_t)];
	} h;
	h.handle.handle_bytes = sizeof(uint64_t);
	int mount_id;
	if (name_to_handle_at(AT_FDCWD, dir, &h.handle, &mount_id, 0) != 0 ||
		h.handle.handle_bytes != sizeof(uint64_t)) {
		return 0;
	}
	uint64_t id;
	memcpy(&id, h.handle.f_handle, sizeof(id));
	return id;
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
	own_cgroup(cgroup, sizeof(cgroup));
	CHECK(cgroup[0] == '/');
	struct cordon_tag want;
	bool valid = cordon_tag_from_cgroup_path(cgroup, &want);
	uint64_t want_id = cgroup_id_of(cgroup);
	for (unsigned flags = 0; flags < 4; flags++) {
		struct cordon_peer peer;
		CHECK(cordon_peer_identify_with(sv[0], &peer, flags));
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
static void test_child(bool stay_alive, unsigned flags) {
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
	bool ok = cordon_peer_identify_with(cfd, &peer, flags);
	if (stay_alive) {
		CHECK(ok);
		CHECK(peer.pid == child);
		CHECK(peer.uid == getuid());
		CHECK(peer.pidfd >= 0);
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
		/* With PIDFD_GET_INFO and with the fdinfo fallback. */
		for (unsigned flags = 0; flags <= CORDON_PEER_NO_PIDFD_INFO;
			flags += CORDON_PEER_NO_PIDFD_INFO) {
			struct cordon_peer peer;
			CHECK(!cordon_peer_identify_with(cfd, &peer, flags));
			CHECK(peer.pidfd == -1 && peer.pid == 0);
		}
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

static void test_not_a_peer(void) {
	struct cordon_peer peer;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(!cordon_peer_identify(fd, &peer));
	CHECK(peer.pidfd == -1);
	close(fd);
	int pipefd[2];
	CHECK(pipe(pipefd) == 0);
	CHECK(!cordon_peer_identify(pipefd[0], &peer));
	close(pipefd[0]);
	close(pipefd[1]);
	CHECK(!cordon_peer_identify(-1, &peer));
}

int main(void) {
	test_self();
	for (unsigned flags = 0; flags < 4; flags++) {
		test_child(true, flags);
		test_child(false, flags);
	}
	test_pid_reuse();
	test_not_a_peer();
	return failures > 0 ? 1 : 0;
}
