/*
 * sandbox-probe: run inside cordon-run, tries every syscall and ioctl the sandbox must refuse
 * and prints one line per attempt:
 *
 *	ok ARCH NAME refused with EPERM
 *	FAIL ARCH NAME: expected EPERM, got success
 *
 * and exits 1 if any attempt was not refused with the expected errno. The list is this file's
 * own, written from the issue and SECURITY-NOTES, not read from the launcher's table: a rule
 * missing from the launcher shows here as a failure.
 *
 * Each call is made natively (x86_64), through the i386 ABI (int $0x80, numbers from
 * libseccomp) and through the x32 ABI (syscall numbers with bit 30), because a filter that
 * covers only the native table is the classic hole.
 *
 * --baseline runs only the attempts that are harmless on the host and would succeed (or fail
 * differently) there, so a test can show that the refusals inside come from the sandbox.
 * --allowed checks what must keep working inside (fork, AF_UNIX, personality(PER_LINUX)).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* The pty slave, our controlling terminal: TIOCSTI on it would work without the filter. */
static int tty_fd = -1;
/* Memory below 4 GiB for the pointers of i386 calls. */
static char *low;

struct result {
	long ret; /* >= 0 success */
	int err;
};

static struct result native(long nr, long a, long b, long c, long d, long e, long f) {
	errno = 0;
	long r = syscall(nr, a, b, c, d, e, f);
	return (struct result){r, r < 0 ? errno : 0};
}

#if defined(__x86_64__)
static struct result i386_call(long nr, long a, long b, long c, long d, long e, long f) {
	long r;
	(void)f; /* no probe needs a sixth argument (ebp) */
	/* int $0x80: the kernel treats this as an i386 syscall, and so does seccomp. */
	__asm__ volatile("int $0x80"
		: "=a"(r)
		: "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
		: "memory", "cc", "r8", "r9", "r10", "r11");
	if (r < 0 && r > -4096) {
		return (struct result){-1, (int)-r};
	}
	return (struct result){r, 0};
}
#endif

enum abi { ABI_NATIVE, ABI_I386, ABI_X32 };
static const char *const abi_names[] = {"x86_64", "i386", "x32"};

static struct result call(
	enum abi abi, const char *name, long a, long b, long c, long d, long e, long f) {
	uint32_t arch = abi == ABI_I386 ? SCMP_ARCH_X86
		: abi == ABI_X32        ? SCMP_ARCH_X32
					: seccomp_arch_native();
	int nr = seccomp_syscall_resolve_name_arch(arch, name);
	/* libseccomp names i386's multiplexed calls by pseudo numbers: socket(2) is 359 there. */
	if (abi == ABI_I386 && strcmp(name, "socket") == 0) {
		nr = 359;
	}
	if (nr == __NR_SCMP_ERROR || nr < 0) {
		return (struct result){-2, 0};
	}
#if defined(__x86_64__)
	if (abi == ABI_I386) {
		return i386_call(nr, a, b, c, d, e, f);
	}
#endif
	return native(nr, a, b, c, d, e, f);
}

static int failures;
static int passes;
static bool baseline;

static const char *errno_name(int err) {
	switch (err) {
	case 0:
		return "success";
	case EPERM:
		return "EPERM";
	case ENOSYS:
		return "ENOSYS";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EBADF:
		return "EBADF";
	case ENOTTY:
		return "ENOTTY";
	case EIO:
		return "EIO";
	case ENOKEY:
		return "ENOKEY";
	case ENOENT:
		return "ENOENT";
	case EACCES:
		return "EACCES";
	default:
		return strerror(err);
	}
}

/* Undoes what a call that was not refused did, so the probe goes on from a known state. */
static void undo(const char *name, struct result r) {
	if (r.ret == 0 && (strcmp(name, "clone") == 0 || strcmp(name, "clone3") == 0)) {
		_exit(0); /* the child of a clone that should have been refused */
	}
	if (r.ret > 0 && (strcmp(name, "clone") == 0 || strcmp(name, "clone3") == 0)) {
		waitpid((pid_t)r.ret, NULL, 0);
	}
	if (strcmp(name, "personality") == 0 && r.ret >= 0) {
		personality(PER_LINUX);
	}
	bool fd_result = strcmp(name, "open_tree") == 0 || strcmp(name, "fsopen") == 0 ||
		strcmp(name, "fspick") == 0 || strcmp(name, "userfaultfd") == 0 ||
		strcmp(name, "io_uring_setup") == 0 || strcmp(name, "socket") == 0 ||
		strcmp(name, "perf_event_open") == 0;
	if (fd_result && r.ret > 2) {
		close((int)r.ret);
	}
}

static void expect(
	enum abi abi, const char *label, const char *name, int expected, struct result r) {
	if (r.ret == -2) {
		printf("skip %s %s: no such syscall on this ABI\n", abi_names[abi], label);
		return;
	}
	undo(name, r);
	int got = r.ret >= 0 ? 0 : r.err;
	if (baseline) {
		printf("%s %s %s %s\n", got == expected ? "same" : "differs", abi_names[abi], label,
			errno_name(got));
		return;
	}
	if (got == expected) {
		passes++;
		printf("ok %s %s refused with %s\n", abi_names[abi], label, errno_name(expected));
	} else {
		failures++;
		printf("FAIL %s %s: expected %s, got %s\n", abi_names[abi], label,
			errno_name(expected), errno_name(got));
	}
}

#define TRY(abi, label, name, expected, ...)                                                       \
	expect(abi, label, name, expected, call(abi, name, __VA_ARGS__))

static pid_t sleeper;

/* The attempts that are harmless when not refused (safe for --baseline on the host). */
static void probe_safe(enum abi abi, bool wide) {
	long hi = wide ? (1L << 32) : 0;
	char c = '\n';
	char *buf = abi == ABI_I386 ? low : &c;
	if (abi == ABI_I386) {
		low[0] = '\n';
	}
	TRY(abi, wide ? "ioctl(TIOCSTI|1<<32)" : "ioctl(TIOCSTI)", "ioctl", EPERM, tty_fd,
		TIOCSTI | hi, (long)buf, 0, 0, 0);
	if (abi == ABI_I386) {
		low[0] = 0; /* TIOCL_GETSHIFTSTATE-like subcodes read from here */
	}
	TRY(abi, wide ? "ioctl(TIOCLINUX|1<<32)" : "ioctl(TIOCLINUX)", "ioctl", EPERM, tty_fd,
		TIOCLINUX | hi, (long)(abi == ABI_I386 ? low : &c), 0, 0, 0);
	if (wide) {
		return;
	}
	struct iovec local = {.iov_base = &c, .iov_len = 1};
	struct iovec remote = {.iov_base = &c, .iov_len = 1};
	if (abi == ABI_NATIVE) {
		TRY(abi, "process_vm_readv(self)", "process_vm_readv", EPERM, getpid(),
			(long)&local, 1, (long)&remote, 1, 0);
		TRY(abi, "process_vm_writev(self)", "process_vm_writev", EPERM, getpid(),
			(long)&local, 1, (long)&remote, 1, 0);
		TRY(abi, "ptrace(ATTACH child)", "ptrace", EPERM, 16 /* PTRACE_ATTACH */, sleeper,
			0, 0, 0, 0);
	} else {
		TRY(abi, "process_vm_readv", "process_vm_readv", EPERM, 0, 0, 0, 0, 0, 0);
		TRY(abi, "ptrace(ATTACH child)", "ptrace", EPERM, 16, sleeper, 0, 0, 0, 0);
	}
	TRY(abi, "personality(READ_IMPLIES_EXEC)", "personality", EPERM, READ_IMPLIES_EXEC, 0, 0, 0,
		0, 0);
	TRY(abi, "clone(CLONE_NEWUSER)", "clone", EPERM, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0, 0);
	TRY(abi, "unshare(CLONE_NEWUSER)", "unshare", EPERM, CLONE_NEWUSER, 0, 0, 0, 0, 0);
	struct clone_args args = {.exit_signal = SIGCHLD};
	TRY(abi, "clone3", "clone3", ENOSYS, (long)&args, sizeof(args), 0, 0, 0, 0);
	TRY(abi, "open_tree(/)", "open_tree", ENOSYS, AT_FDCWD, (long)(abi == ABI_I386 ? low : "/"),
		0, 0, 0, 0);
	TRY(abi, "fsopen(tmpfs)", "fsopen", ENOSYS, (long)"tmpfs", 0, 0, 0, 0, 0);
	TRY(abi, "keyctl(GET_KEYRING_ID)", "keyctl", EPERM, KEYCTL_GET_KEYRING_ID,
		KEY_SPEC_SESSION_KEYRING, 0, 0, 0, 0);
	TRY(abi, "request_key", "request_key", EPERM, (long)"user", (long)"cordon-probe", 0, 0, 0,
		0);
	TRY(abi, "userfaultfd(USER_MODE_ONLY)", "userfaultfd", EPERM, O_CLOEXEC | 1, 0, 0, 0, 0, 0);
	char params[120] = {0};
	TRY(abi, "io_uring_setup", "io_uring_setup", ENOSYS, 1, (long)params, 0, 0, 0, 0);
	struct timex tx = {0};
	TRY(abi, "adjtimex(read)", "adjtimex", EPERM, (long)&tx, 0, 0, 0, 0, 0);
	TRY(abi, "clock_adjtime(read)", "clock_adjtime", EPERM, CLOCK_REALTIME, (long)&tx, 0, 0, 0,
		0);
	TRY(abi, "get_mempolicy", "get_mempolicy", EPERM, 0, 0, 0, 0, 0, 0);
	TRY(abi, "set_mempolicy(DEFAULT)", "set_mempolicy", EPERM, 0, 0, 0, 0, 0, 0);
	TRY(abi, "socket(AF_PACKET)", "socket", EAFNOSUPPORT, AF_PACKET, SOCK_RAW, 0, 0, 0, 0);
	TRY(abi, "socket(AF_INET) without network", "socket", EAFNOSUPPORT, AF_INET, SOCK_STREAM, 0,
		0, 0, 0);
	TRY(abi, "socket(AF_NETLINK, NETLINK_AUDIT)", "socket", EAFNOSUPPORT, AF_NETLINK, SOCK_RAW,
		NETLINK_AUDIT, 0, 0, 0);
	TRY(abi, "socket(AF_ALG)", "socket", EAFNOSUPPORT, 38, SOCK_SEQPACKET, 0, 0, 0, 0);
	TRY(abi, "socket(AF_VSOCK)", "socket", EAFNOSUPPORT, 40, SOCK_STREAM, 0, 0, 0, 0);
	if (abi == ABI_I386) {
		/* socketcall(SYS_SOCKET, args): the filter cannot read args, so it refuses them
		 * all. */
		int *words = (int *)(low + 128);
		words[0] = AF_PACKET;
		words[1] = SOCK_RAW;
		words[2] = 0;
		TRY(abi, "socketcall(SYS_SOCKET, AF_PACKET)", "socketcall", EAFNOSUPPORT, 1,
			(long)words, 0, 0, 0, 0);
	}
}

/* Every other denied call, with arguments that fail harmlessly even if allowed. */
static void probe_rest(enum abi abi) {
	static const struct {
		const char *name;
		int expected;
	} calls[] = {
		{"mount", EPERM},
		{"umount", EPERM},
		{"umount2", EPERM},
		{"pivot_root", EPERM},
		{"chroot", EPERM},
		{"move_mount", ENOSYS},
		{"fsconfig", ENOSYS},
		{"fsmount", ENOSYS},
		{"fspick", ENOSYS},
		{"mount_setattr", ENOSYS},
		{"add_key", EPERM},
		{"perf_event_open", EPERM},
		{"bpf", EPERM},
		{"kexec_load", EPERM},
		{"kexec_file_load", EPERM},
		{"init_module", EPERM},
		{"finit_module", EPERM},
		{"delete_module", EPERM},
		{"quotactl", EPERM},
		{"syslog", EPERM},
		{"acct", EPERM},
		{"swapon", EPERM},
		{"swapoff", EPERM},
		{"reboot", EPERM},
		{"uselib", EPERM},
		{"ioperm", EPERM},
		{"iopl", EPERM},
		{"clock_settime", EPERM},
		{"settimeofday", EPERM},
		{"stime", EPERM},
		{"io_uring_enter", ENOSYS},
		{"io_uring_register", ENOSYS},
		{"modify_ldt", EPERM},
		{"move_pages", EPERM},
		{"migrate_pages", EPERM},
		{"mbind", EPERM},
		{"name_to_handle_at", EPERM},
		{"open_by_handle_at", EPERM},
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		/* -1 and NULLs everywhere: EBADF/EFAULT/EINVAL if the filter let it through. */
		TRY(abi, calls[i].name, calls[i].name, calls[i].expected, -1, 0, 0, 0, 0, 0);
	}
}

/* What must keep working inside. */
static void probe_allowed(void) {
	struct result r = native(SYS_personality, PER_LINUX, 0, 0, 0, 0, 0);
	int fails = 0;
	if (r.ret < 0) {
		printf("FAIL personality(PER_LINUX) refused: %s\n", strerror(r.err));
		fails++;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		printf("FAIL socket(AF_UNIX) refused: %s\n", strerror(errno));
		fails++;
	} else {
		close(fd);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		printf("FAIL socket(AF_NETLINK, NETLINK_ROUTE) refused: %s\n", strerror(errno));
		fails++;
	} else {
		close(fd);
	}
	pid_t pid = fork();
	if (pid == 0) {
		_exit(7);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || WEXITSTATUS(status) != 7) {
		printf("FAIL fork does not work\n");
		fails++;
	}
	printf("%s allowed calls\n", fails ? "FAIL" : "ok");
	exit(fails ? 1 : 0);
}

static void open_tty(void) {
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
		perror("sandbox-probe: opening a pty");
		exit(2);
	}
	const char *name = ptsname(master);
	/* Our own controlling terminal: the one TIOCSTI would type into. */
	if (setsid() < 0 && getsid(0) != getpid()) {
		perror("sandbox-probe: setsid");
		exit(2);
	}
	tty_fd = open(name, O_RDWR | O_CLOEXEC);
	if (tty_fd < 0 || ioctl(tty_fd, TIOCSCTTY, 0) < 0) {
		perror("sandbox-probe: making the pty the controlling terminal");
		exit(2);
	}
}

/* --connect PATH: exits 0 (printing why) if a unix socket at PATH cannot be reached. */
static int probe_connect(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		printf("FAIL socket(AF_UNIX): %s\n", strerror(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0) {
		printf("FAIL connected to %s\n", path);
		return 1;
	}
	printf("ok cannot connect to %s: %s\n", path, strerror(errno));
	close(fd);
	return 0;
}

/*
 * Whether this kernel takes i386 system calls. Without IA32 emulation (not built in, or turned
 * off with ia32_emulation=0 or by the hypervisor) int $0x80 does not return an error: it faults
 * with SIGSEGV. So the first one is made in a child, whose death says no.
 */
static bool i386_runs(void) {
#if defined(__x86_64__)
	pid_t pid = fork();
	if (pid == 0) {
		struct result r = call(ABI_I386, "getpid", 0, 0, 0, 0, 0, 0);
		_exit(r.ret > 0 ? 0 : 1);
	}
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		WEXITSTATUS(status) == 0;
#else
	return false;
#endif
}

int main(int argc, char **argv) {
	if (argc > 2 && strcmp(argv[1], "--connect") == 0) {
		return probe_connect(argv[2]);
	}
	baseline = argc > 1 && strcmp(argv[1], "--baseline") == 0;
	if (argc > 1 && strcmp(argv[1], "--allowed") == 0) {
		probe_allowed();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	open_tty();
	low = mmap(
		NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED) {
		perror("sandbox-probe: mmap");
		return 2;
	}
	strcpy(low + 64, "/");
	sleeper = fork();
	if (sleeper == 0) {
		pause();
		_exit(0);
	}

	enum abi abis[] = {ABI_NATIVE, ABI_I386, ABI_X32};
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		enum abi abi = abis[i];
		if (abi == ABI_I386 && !i386_runs()) {
			/* No i386 system calls at all: there is nothing for a filter to miss. */
			printf("skip i386: the kernel runs no i386 system calls (int $0x80 faults)\n");
			continue;
		}
		probe_safe(abi, false);
		probe_safe(abi, true);
		if (!baseline) {
			probe_rest(abi);
		}
	}
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
	if (!baseline) {
		printf("%d refused as expected, %d not\n", passes, failures);
	}
	return failures ? 1 : 0;
}
