/*
 * launcher-attack: what a hostile app tries from inside cordon-run against its own sandbox.
 * Each mode prints one line per attempt, "ok WHAT: ERRNO" when refused as the sandbox must,
 * "FAIL WHAT: ..." when not, "control WHAT: ..." for what must keep working, and a last line
 * "ran MODE" so a test can tell a refusal from a probe that never ran. Exit status 1 if any
 * attempt was not refused.
 *
 *	init SECRET...        pid 1: its environment, memory, fds, command line (no SECRET in it)
 *	siblings              another process of the app (forked and exec'd, so dumpable):
 *	                      /proc/PID/mem for writing, process_vm_writev, ptrace, pidfd_getfd,
 *	                      kcmp; its memory is checked unchanged afterwards
 *	syscalls              the system calls newer than libseccomp 2.5.4, and 1000, by number
 *	                      on x86_64, x32 and i386: all ENOSYS (--host prints what the host says)
 *	abstract NAME         connect to the abstract unix socket @NAME: refused
 *	abstract-own          an abstract socket made inside the app still works between its
 *	                      processes
 *	tcp PORT              connect to 127.0.0.1:PORT and print the line the server sends
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static const char *err_name(int err) {
	switch (err) {
	case 0:
		return "success";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case ENOSYS:
		return "ENOSYS";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case ENOENT:
		return "ENOENT";
	default:
		return strerror(err);
	}
}

/* A refusal: ret < 0 with one of the allowed errnos (0 in the list ends it). */
static void expect_refused(const char *what, long ret, int err, int a, int b) {
	if (ret < 0 && (err == a || (b != 0 && err == b))) {
		printf("ok %s: %s\n", what, err_name(err));
		return;
	}
	failures++;
	printf("FAIL %s: expected %s, got %s\n", what, err_name(a),
		ret < 0 ? err_name(err) : "success");
}

static bool file_contains(const char *path, const char *needle, bool *readable) {
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	*readable = fd >= 0;
	if (fd < 0) {
		return false;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return false;
	}
	return memmem(buf, (size_t)n, needle, strlen(needle)) != NULL;
}

static int probe_init(int argc, char **argv) {
	errno = 0;
	int fd = open("/proc/1/environ", O_RDONLY | O_CLOEXEC);
	expect_refused("open /proc/1/environ", fd, errno, EACCES, EPERM);
	fd = open("/proc/1/mem", O_RDWR | O_CLOEXEC);
	expect_refused("open /proc/1/mem O_RDWR", fd, errno, EACCES, EPERM);
	fd = open("/proc/1/mem", O_RDONLY | O_CLOEXEC);
	expect_refused("open /proc/1/mem O_RDONLY", fd, errno, EACCES, EPERM);
	fd = open("/proc/1/fd/0", O_RDONLY | O_CLOEXEC);
	expect_refused("open /proc/1/fd/0", fd, errno, EACCES, EPERM);
	fd = open("/proc/1/maps", O_RDONLY | O_CLOEXEC);
	expect_refused("open /proc/1/maps", fd, errno, EACCES, EPERM);
	long r = ptrace(PTRACE_ATTACH, 1, 0, 0);
	expect_refused("ptrace(ATTACH, 1)", r, errno, EPERM, 0);
	int pidfd = (int)syscall(SYS_pidfd_open, 1, 0);
	if (pidfd < 0) {
		printf("FAIL pidfd_open(1): %s (cannot try pidfd_getfd)\n", strerror(errno));
		failures++;
	} else {
		r = syscall(SYS_pidfd_getfd, pidfd, 0, 0);
		expect_refused("pidfd_getfd(init, 0)", r, errno, EPERM, 0);
		close(pidfd);
	}
	r = syscall(SYS_kcmp, getpid(), 1, KCMP_FILE, 0, 0);
	expect_refused("kcmp(self, init)", r, errno, EPERM, 0);
	/* The command line is world-readable: it must hold nothing of the caller's. */
	for (int i = 0; i < argc; i++) {
		bool readable;
		bool found = file_contains("/proc/1/cmdline", argv[i], &readable);
		if (!readable || found) {
			failures++;
			printf("FAIL /proc/1/cmdline %s\n",
				readable ? "holds a word of the caller's" : "unreadable");
		} else {
			printf("ok /proc/1/cmdline holds no word %d of the caller's\n", i);
		}
	}
	/* Controls: the app's own environment is readable, the test's secret is not in it. */
	bool readable;
	if (file_contains("/proc/self/environ", "CORDON_APP_ID=", &readable)) {
		printf("control /proc/self/environ readable\n");
	} else {
		failures++;
		printf("FAIL /proc/self/environ unreadable: the probe proves nothing\n");
	}
	for (int i = 0; i < argc; i++) {
		if (file_contains("/proc/self/environ", argv[i], &readable)) {
			failures++;
			printf("FAIL the caller's word %d reached the app's environment\n", i);
		}
	}
	return 0;
}

/* The sibling: a buffer with a known value, its address on stdout, then wait to be checked. */
static int sibling(void) {
	static volatile char buf[4096] = "untouched";
	printf("%p\n", (void *)buf);
	fflush(stdout);
	char c;
	if (read(0, &c, 1) != 1) {
		return 2;
	}
	printf("%s\n", (const char *)buf);
	fflush(stdout);
	return 0;
}

static int probe_siblings(const char *self) {
	int to_child[2], from_child[2];
	if (pipe(to_child) < 0 || pipe(from_child) < 0) {
		perror("pipe");
		return 2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		close(to_child[1]);
		close(from_child[0]);
		/* exec'd: dumpable again, as every program an app starts. */
		execl(self, self, "--sibling", (char *)NULL);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	FILE *in = fdopen(from_child[0], "r");
	char line[128];
	void *addr = NULL;
	if (fgets(line, sizeof(line), in) == NULL || sscanf(line, "%p", &addr) != 1) {
		printf("FAIL the sibling did not start\n");
		return 1;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	bool readable;
	if (file_contains(path, "State:", &readable)) {
		printf("control the sibling %d is visible in /proc\n", pid);
	} else {
		failures++;
		printf("FAIL cannot see the sibling %d: the probe proves nothing\n", pid);
	}
	/* Control: the kernel lets us read it (same user, dumpable): only writing is closed. */
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char peek[10] = {0};
	if (fd >= 0 && pread(fd, peek, 9, (off_t)(uintptr_t)addr) == 9) {
		printf("control /proc/PID/mem of the sibling readable: '%s'\n", peek);
	} else {
		printf("control /proc/PID/mem of the sibling not readable either: %s\n",
			strerror(errno));
	}
	if (fd >= 0) {
		close(fd);
	}
	static const char evil[] = "OVERWRITE";
	fd = open(path, O_RDWR | O_CLOEXEC);
	expect_refused("open /proc/SIBLING/mem O_RDWR", fd, errno, EACCES, EPERM);
	if (fd >= 0) {
		if (pwrite(fd, evil, sizeof(evil), (off_t)(uintptr_t)addr) < 0) {
			printf("(pwrite failed: %s)\n", strerror(errno));
		}
		close(fd);
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	expect_refused("open /proc/SIBLING/mem O_WRONLY", fd, errno, EACCES, EPERM);
	if (fd >= 0) {
		close(fd);
	}
	struct iovec local = {.iov_base = (void *)evil, .iov_len = sizeof(evil)};
	struct iovec remote = {.iov_base = addr, .iov_len = sizeof(evil)};
	long r = process_vm_writev(pid, &local, 1, &remote, 1, 0);
	expect_refused("process_vm_writev(sibling)", r, errno, EPERM, 0);
	r = ptrace(PTRACE_ATTACH, pid, 0, 0);
	expect_refused("ptrace(ATTACH, sibling)", r, errno, EPERM, 0);
	if (r == 0) {
		/* Not refused: let it go, so it can still say whether it was written. */
		waitpid(pid, NULL, 0);
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		failures++;
		printf("FAIL pidfd_open(sibling): %s\n", strerror(errno));
	} else {
		r = syscall(SYS_pidfd_getfd, pidfd, 0, 0);
		expect_refused("pidfd_getfd(sibling, 0)", r, errno, EPERM, 0);
		close(pidfd);
	}
	r = syscall(SYS_kcmp, getpid(), pid, KCMP_FILE, 0, 0);
	expect_refused("kcmp(self, sibling)", r, errno, EPERM, 0);
	/* Evidence: the sibling's memory is as it was. */
	if (write(to_child[1], "x", 1) != 1 || fgets(line, sizeof(line), in) == NULL) {
		failures++;
		printf("FAIL the sibling did not answer\n");
	} else if (strcmp(line, "untouched\n") != 0) {
		failures++;
		printf("FAIL the sibling's memory was written: %s", line);
	} else {
		printf("ok the sibling's memory is untouched\n");
	}
	waitpid(pid, NULL, 0);
	fclose(in);
	return 0;
}

/* The calls after libseccomp 2.5.4's table (kernel 6.8 to 6.17), and one past any table. */
static const struct {
	long nr;
	const char *name;
} new_calls[] = {
	{457, "statmount"},
	{458, "listmount"},
	{459, "lsm_get_self_attr"},
	{460, "lsm_set_self_attr"},
	{461, "lsm_list_modules"},
	{462, "mseal"},
	{463, "setxattrat"},
	{464, "getxattrat"},
	{465, "listxattrat"},
	{466, "removexattrat"},
	{467, "open_tree_attr"},
	{468, "file_getattr"},
	{469, "file_setattr"},
	{1000, "syscall 1000"},
};

#define X32_BIT 0x40000000L

static long i386_call(long nr, int *err) {
	long r;
	/* int $0x80: an i386 system call, for the kernel and for seccomp. All arguments 0. */
	__asm__ volatile("int $0x80"
		: "=a"(r)
		: "a"(nr), "b"(0), "c"(0), "d"(0), "S"(0), "D"(0)
		: "memory", "cc", "r8", "r9", "r10", "r11");
	*err = r < 0 && r > -4096 ? (int)-r : 0;
	return *err ? -1 : r;
}

/* Without IA32 emulation int $0x80 faults: try it in a child first. */
static bool i386_runs(void) {
	pid_t pid = fork();
	if (pid == 0) {
		int err;
		_exit(i386_call(20 /* getpid */, &err) > 0 ? 0 : 1);
	}
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		WEXITSTATUS(status) == 0;
}

static int probe_syscalls(bool host) {
	bool i386 = i386_runs();
	int enosys = 0;
	for (size_t i = 0; i < sizeof(new_calls) / sizeof(new_calls[0]); i++) {
		/* All arguments 0: EFAULT, EINVAL or EBADF where the call exists (mseal of 0
		 * bytes seals nothing). */
		for (int abi = 0; abi < 3; abi++) {
			static const char *const abis[] = {"x86_64", "x32", "i386"};
			long r;
			int err;
			if (abi == 2 && !i386) {
				continue;
			}
			if (abi == 2) {
				r = i386_call(new_calls[i].nr, &err);
			} else {
				errno = 0;
				r = syscall(new_calls[i].nr | (abi == 1 ? X32_BIT : 0), 0, 0, 0, 0,
					0, 0);
				err = r < 0 ? errno : 0;
			}
			char what[64];
			snprintf(what, sizeof(what), "%s %s", abis[abi], new_calls[i].name);
			if (host) {
				printf("host %s: %s\n", what, r < 0 ? err_name(err) : "success");
				continue;
			}
			expect_refused(what, r, err, ENOSYS, 0);
			enosys += r < 0 && err == ENOSYS;
		}
	}
	if (!host) {
		printf("%d calls ENOSYS%s\n", enosys, i386 ? "" : " (no i386 on this kernel)");
		/* Control: a listed call still works. */
		printf("control getpid: %ld\n", (long)syscall(SYS_getpid));
	}
	return 0;
}

static socklen_t abstract_addr(struct sockaddr_un *addr, const char *name) {
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	size_t len = strnlen(name, sizeof(addr->sun_path) - 1);
	memcpy(addr->sun_path + 1, name, len);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

static int probe_abstract(const char *name) {
	struct sockaddr_un addr;
	socklen_t len = abstract_addr(&addr, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		printf("FAIL socket(AF_UNIX): %s\n", strerror(errno));
		return 1;
	}
	char what[160];
	snprintf(what, sizeof(what), "connect @%s", name);
	errno = 0;
	int r = connect(fd, (struct sockaddr *)&addr, len);
	if (r == 0) {
		char buf[128] = {0};
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		printf("FAIL %s: connected, read '%s'\n", what, n > 0 ? buf : "");
		failures++;
	} else {
		/* Landlock's scope refuses with EPERM; ECONNREFUSED would mean no listener. */
		expect_refused(what, r, errno, EPERM, 0);
	}
	close(fd);
	return 0;
}

static int probe_abstract_own(void) {
	char name[64];
	snprintf(name, sizeof(name), "cordon-attack-own-%d", getpid());
	struct sockaddr_un addr;
	socklen_t len = abstract_addr(&addr, name);
	int server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (server < 0 || bind(server, (struct sockaddr *)&addr, len) < 0 ||
		listen(server, 1) < 0) {
		printf("FAIL an abstract socket inside the app: %s\n", strerror(errno));
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(fd, (struct sockaddr *)&addr, len) < 0 || write(fd, "hi", 2) != 2) {
			_exit(1);
		}
		_exit(0);
	}
	int conn = accept(server, NULL, NULL);
	char buf[3] = {0};
	int status = 0;
	waitpid(pid, &status, 0);
	if (conn >= 0 && read(conn, buf, 2) == 2 && strcmp(buf, "hi") == 0 && WIFEXITED(status) &&
		WEXITSTATUS(status) == 0) {
		printf("control an abstract socket between the app's own processes works\n");
	} else {
		failures++;
		printf("FAIL the app's own abstract socket: %s\n", strerror(errno));
	}
	return 0;
}

static int probe_tcp(int port) {
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		failures++;
		printf("FAIL tcp 127.0.0.1:%d: %s\n", port, strerror(errno));
		return 0;
	}
	char buf[128] = {0};
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	printf("control tcp 127.0.0.1:%d read '%.*s'\n", port, n > 0 ? (int)strcspn(buf, "\n") : 0,
		buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: launcher-attack MODE [ARGS...] (see the source)\n");
		return 2;
	}
	const char *mode = argv[1];
	int r = 2;
	if (strcmp(mode, "--sibling") == 0) {
		return sibling();
	} else if (strcmp(mode, "init") == 0) {
		r = probe_init(argc - 2, argv + 2);
	} else if (strcmp(mode, "siblings") == 0) {
		r = probe_siblings(argv[0]);
	} else if (strcmp(mode, "syscalls") == 0) {
		r = probe_syscalls(argc > 2 && strcmp(argv[2], "--host") == 0);
	} else if (strcmp(mode, "abstract") == 0 && argc > 2) {
		r = probe_abstract(argv[2]);
	} else if (strcmp(mode, "abstract-own") == 0) {
		r = probe_abstract_own();
	} else if (strcmp(mode, "tcp") == 0 && argc > 2) {
		r = probe_tcp(atoi(argv[2]));
	} else {
		fprintf(stderr, "launcher-attack: unknown mode %s\n", mode);
		return 2;
	}
	printf("ran %s\n", mode);
	return r != 0 ? r : (failures ? 1 : 0);
}
