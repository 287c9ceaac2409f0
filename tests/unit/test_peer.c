/* Unit tests for peer identification: our own process, a forked client, and a peer that is gone. */
#include <errno.h>
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

static void test_self(bool use_peerpidfd) {
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	struct cordon_peer peer;
	CHECK(cordon_peer_identify_with(sv[0], &peer, use_peerpidfd));
	CHECK(peer.pid == getpid());
	CHECK(peer.uid == getuid());
	CHECK(peer.gid == getgid());
	CHECK(peer.pidfd >= 0);

	char cgroup[8192];
	own_cgroup(cgroup, sizeof(cgroup));
	CHECK(cgroup[0] == '/');
	CHECK(strcmp(peer.cgroup, cgroup) == 0);
	struct cordon_tag want;
	bool valid = cordon_tag_from_cgroup_path(cgroup, &want);
	CHECK(peer.cgroup_valid == valid);
	CHECK(same_tag(&peer.tag, &want));
	printf("self (%s): pid %d cgroup %s engine %s app_id \"%s\"\n",
		peer.from_peerpidfd ? "SO_PEERPIDFD" : "SO_PEERCRED+pidfd_open", (int)peer.pid,
		peer.cgroup, cordon_sandbox_engine_name(peer.tag.engine), peer.tag.app_id);
	cordon_peer_finish(&peer);
	CHECK(peer.pidfd == -1);
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
static void test_child(bool stay_alive, bool use_peerpidfd) {
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
	bool ok = cordon_peer_identify_with(cfd, &peer, use_peerpidfd);
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
		struct cordon_peer peer;
		CHECK(!cordon_peer_identify_with(cfd, &peer, true));
		CHECK(peer.pidfd == -1 && peer.pid == 0);
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
	for (int mode = 0; mode < 2; mode++) {
		bool use_peerpidfd = mode == 0;
		test_self(use_peerpidfd);
		test_child(true, use_peerpidfd);
		test_child(false, use_peerpidfd);
	}
	test_pid_reuse();
	test_not_a_peer();
	return failures > 0 ? 1 : 0;
}
