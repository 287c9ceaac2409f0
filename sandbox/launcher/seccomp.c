/*
 * The sandbox's seccomp filters, two of them, each a table of data with reasons (docs/sandbox.md
 * has the same lists for people):
 *
 *  1. The allow-list says which system calls exist for the app. Anything not on it, every call
 *     newer than the table or than this libseccomp, and every number above the highest known,
 *     fails with ENOSYS, as on a kernel that predates it: libraries fall back, and a call the
 *     kernel adds tomorrow (mseal, statmount, the *xattrat family came after libseccomp 2.5.4)
 *     is closed until someone reads it and lists it here. This is Chromium's and newer
 *     Flatpak's shape, not a deny list that lets the unknown through.
 *  2. The deny table refines calls by their arguments (ioctl requests, socket families, clone
 *     flags) and gives the calls it names by name their historic errno (EPERM for mount,
 *     ENOSYS for the new mount API and io_uring). It is loaded second, so where both refuse,
 *     its errno is the one the app sees (the kernel takes the most recent filter's answer
 *     among equals).
 *
 * The namespaces, the missing capabilities, the mount layout and Landlock (landlock.c) are
 * the primary walls; this closes the kernel interfaces those do not cover, or that cross them.
 *
 * Names are resolved at run time (seccomp_syscall_resolve_name): a name this libseccomp or
 * this architecture does not know is skipped with a debug message; for the allow-list that
 * means the call stays ENOSYS. The same rules are added for the native architecture and its
 * compat ABIs (x86_64: x32 and i386); a call from any other ABI kills the process.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

enum deny_when {
	DENY_ALWAYS,
	DENY_UNLESS_DEVEL, /* --allow=devel (or the devel profile) lifts it */
	DENY_ARG0_HAS_FLAG, /* argument 0 has any bit of value set (clone, unshare flags) */
	DENY_ARG0_NOT, /* argument 0 is not value (personality) */
	DENY_IOCTL_REQUEST, /* the low 32 bits of the request are value */
};

struct deny_rule {
	const char *name;
	int error;
	enum deny_when when;
	uint64_t value;
	const char *reason;
};

static const struct deny_rule deny_table[] = {
	/* Other processes, even of the same user inside the sandbox. */
	{"ptrace", EPERM, DENY_UNLESS_DEVEL, 0,
		"reads and writes another process's memory and registers; older kernels let it "
		"cross namespace checks"},
	{"process_vm_readv", EPERM, DENY_ALWAYS, 0, "reads another process's memory"},
	{"process_vm_writev", EPERM, DENY_ALWAYS, 0, "writes another process's memory"},
	{"pidfd_getfd", EPERM, DENY_UNLESS_DEVEL, 0,
		"copies an fd out of another process of the sandbox (a shared memfd is its memory)"},
	{"kcmp", EPERM, DENY_UNLESS_DEVEL, 0,
		"compares another process's fds, memory map and files with one's own; Mesa's use "
		"(are two DRM fds one file?) falls back with a warning"},
	{"process_madvise", EPERM, DENY_ALWAYS, 0,
		"acts on another process's memory (pages it out, collapses it)"},
	{"process_mrelease", EPERM, DENY_ALWAYS, 0, "reaps another process's memory"},
	{"personality", EPERM, DENY_ARG0_NOT, PER_LINUX,
		"READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE and friends weaken exploit mitigations "
		"(compared on all 64 bits: an unusual high half is refused, never let through)"},

	/* The terminal: typing into it runs commands outside the sandbox. */
	{"ioctl", EPERM, DENY_IOCTL_REQUEST, TIOCSTI,
		"TIOCSTI pushes input into the terminal (CVE-2017-5226); the kernel reads only the "
		"low 32 bits of the request, so only those are compared"},
	{"ioctl", EPERM, DENY_IOCTL_REQUEST, TIOCLINUX,
		"TIOCLINUX can paste the console selection as input (CVE-2023-28100)"},

	/* New namespaces: a nested user namespace gives back every capability we dropped. */
	{"clone", EPERM, DENY_ARG0_HAS_FLAG, CLONE_NEWUSER,
		"a new user namespace regains all capabilities over new namespaces: a wide kernel "
		"attack surface"},
	{"unshare", EPERM, DENY_ARG0_HAS_FLAG, CLONE_NEWUSER, "as clone with CLONE_NEWUSER"},
	{"clone3", ENOSYS, DENY_ALWAYS, 0,
		"its flags are in memory, out of seccomp's sight; ENOSYS makes libc fall back to "
		"clone, which is checked"},

	/* The filesystem layout is the launcher's to decide. */
	{"mount", EPERM, DENY_ALWAYS, 0, "changes the app layout"},
	{"umount", EPERM, DENY_ALWAYS, 0, "would uncover what the layout hides"},
	{"umount2", EPERM, DENY_ALWAYS, 0, "would uncover what the layout hides"},
	{"pivot_root", EPERM, DENY_ALWAYS, 0, "changes the root"},
	{"chroot", EPERM, DENY_ALWAYS, 0, "changes the root"},
	{"open_tree", ENOSYS, DENY_ALWAYS, 0,
		"new mount API: ENOSYS, not EPERM, so libraries fall back to mount(2), which is "
		"refused above (CVE-2021-41133)"},
	{"move_mount", ENOSYS, DENY_ALWAYS, 0, "new mount API"},
	{"fsopen", ENOSYS, DENY_ALWAYS, 0, "new mount API"},
	{"fsconfig", ENOSYS, DENY_ALWAYS, 0, "new mount API"},
	{"fsmount", ENOSYS, DENY_ALWAYS, 0, "new mount API"},
	{"fspick", ENOSYS, DENY_ALWAYS, 0, "new mount API"},
	{"mount_setattr", ENOSYS, DENY_ALWAYS, 0,
		"new mount API: would clear the read-only flag of /usr if anything allowed it"},
	{"name_to_handle_at", EPERM, DENY_ALWAYS, 0,
		"file handles name files outside the mount layout (the 'shocker' escape)"},
	{"open_by_handle_at", EPERM, DENY_ALWAYS, 0, "opens files outside the mount layout"},

	/* Kernel state that no namespace isolates. */
	{"keyctl", EPERM, DENY_ALWAYS, 0, "the kernel keyring is not namespaced"},
	{"add_key", EPERM, DENY_ALWAYS, 0, "the kernel keyring is not namespaced"},
	{"request_key", EPERM, DENY_ALWAYS, 0, "the kernel keyring is not namespaced"},
	{"perf_event_open", EPERM, DENY_ALWAYS, 0,
		"observes other processes and the kernel; a frequent source of kernel bugs"},
	{"bpf", EPERM, DENY_ALWAYS, 0, "loads code into the kernel"},
	{"userfaultfd", EPERM, DENY_ALWAYS, 0,
		"stalls the kernel at a chosen page fault, the classic race-widener for exploits"},
	{"io_uring_setup", ENOSYS, DENY_ALWAYS, 0,
		"io_uring performs reads, writes, opens and connects in the kernel without passing "
		"through seccomp, so it would bypass this whole filter; ENOSYS so libraries fall "
		"back to ordinary calls"},
	{"io_uring_enter", ENOSYS, DENY_ALWAYS, 0, "see io_uring_setup"},
	{"io_uring_register", ENOSYS, DENY_ALWAYS, 0, "see io_uring_setup"},
	{"syslog", EPERM, DENY_ALWAYS, 0, "the kernel log leaks addresses and host activity"},
	{"acct", EPERM, DENY_ALWAYS, 0, "host-wide process accounting"},
	{"quotactl", EPERM, DENY_ALWAYS, 0, "host filesystem quotas"},
	{"quotactl_fd", EPERM, DENY_ALWAYS, 0, "host filesystem quotas"},
	{"uselib", EPERM, DENY_ALWAYS, 0, "obsolete loader interface with a history of bugs"},
	{"modify_ldt", EPERM, DENY_ALWAYS, 0, "obsolete, a history of kernel bugs"},
	{"move_pages", EPERM, DENY_ALWAYS, 0, "NUMA placement: leaks memory layout"},
	{"migrate_pages", EPERM, DENY_ALWAYS, 0, "NUMA placement"},
	{"mbind", EPERM, DENY_ALWAYS, 0, "NUMA placement"},
	{"get_mempolicy", EPERM, DENY_ALWAYS, 0, "NUMA placement: leaks memory layout"},
	{"set_mempolicy", EPERM, DENY_ALWAYS, 0, "NUMA placement"},

	/* The machine itself. */
	{"kexec_load", EPERM, DENY_ALWAYS, 0, "replaces the running kernel"},
	{"kexec_file_load", EPERM, DENY_ALWAYS, 0, "replaces the running kernel"},
	{"init_module", EPERM, DENY_ALWAYS, 0, "loads kernel code"},
	{"finit_module", EPERM, DENY_ALWAYS, 0, "loads kernel code"},
	{"delete_module", EPERM, DENY_ALWAYS, 0, "unloads kernel code"},
	{"swapon", EPERM, DENY_ALWAYS, 0, "host swap"},
	{"swapoff", EPERM, DENY_ALWAYS, 0, "host swap"},
	{"reboot", EPERM, DENY_ALWAYS, 0, "the machine"},
	{"ioperm", EPERM, DENY_ALWAYS, 0, "raw hardware I/O ports"},
	{"iopl", EPERM, DENY_ALWAYS, 0, "raw hardware I/O ports"},
	{"clock_settime", EPERM, DENY_ALWAYS, 0, "the clock is not namespaced"},
	{"clock_adjtime", EPERM, DENY_ALWAYS, 0, "the clock is not namespaced"},
	{"adjtimex", EPERM, DENY_ALWAYS, 0, "the clock is not namespaced"},
	{"settimeofday", EPERM, DENY_ALWAYS, 0, "the clock is not namespaced"},
	{"stime", EPERM, DENY_ALWAYS, 0, "the clock is not namespaced (i386)"},
};

/*
 * The allow-list: the system calls that exist inside. Everything else is ENOSYS (filter 1 in
 * the header). Grouped by what they are for; a call is here because ordinary programs (glibc,
 * GLib and GTK, Mesa, Python, foot, coreutils) use it and it acts only on the caller's own
 * process, files it can already reach, or its own namespaces. Calls refused by the deny table
 * but lifted by --allow=devel (ptrace, kcmp, pidfd_getfd) are listed so that devel can lift
 * them. Left out on purpose, so ENOSYS: the obsolete and never-implemented calls (sysfs, ustat,
 * _sysctl, nfsservctl, create_module, get_kernel_syms, query_module, lookup_dcookie,
 * vserver, afs_syscall, tuxcall, security, getpmsg, putpmsg, epoll_*_old, vm86, vm86old,
 * idle, bdflush, break, ftime, gtty, stty, lock, mpx, prof, profil, ulimit), vhangup, setns
 * and the host-wide set*name calls (no capability inside to use them), fanotify (host-wide
 * marks), set_mempolicy_home_node (NUMA, as mbind), and every call newer than this table.
 */
static const char *const allow_table[] = {
	/* Files and directories. */
	"read",
	"write",
	"open",
	"openat",
	"openat2",
	"creat",
	"close",
	"close_range",
	"lseek",
	"_llseek",
	"pread64",
	"pwrite64",
	"readv",
	"writev",
	"preadv",
	"pwritev",
	"preadv2",
	"pwritev2",
	"stat",
	"fstat",
	"lstat",
	"newfstatat",
	"statx",
	"stat64",
	"fstat64",
	"lstat64",
	"fstatat64",
	"oldstat",
	"oldfstat",
	"oldlstat",
	"statfs",
	"fstatfs",
	"statfs64",
	"fstatfs64",
	"access",
	"faccessat",
	"faccessat2",
	"truncate",
	"ftruncate",
	"truncate64",
	"ftruncate64",
	"fallocate",
	"fadvise64",
	"fadvise64_64",
	"readahead",
	"getdents",
	"getdents64",
	"readdir",
	"getcwd",
	"chdir",
	"fchdir",
	"rename",
	"renameat",
	"renameat2",
	"mkdir",
	"mkdirat",
	"rmdir",
	"link",
	"linkat",
	"unlink",
	"unlinkat",
	"symlink",
	"symlinkat",
	"readlink",
	"readlinkat",
	"chmod",
	"fchmod",
	"fchmodat",
	"fchmodat2",
	"chown",
	"fchown",
	"lchown",
	"fchownat",
	"chown32",
	"fchown32",
	"lchown32",
	"umask",
	"utime",
	"utimes",
	"futimesat",
	"utimensat",
	"utimensat_time64",
	"mknod",
	"mknodat",
	"fcntl",
	"fcntl64",
	"flock",
	"fsync",
	"fdatasync",
	"sync",
	"syncfs",
	"sync_file_range",
	"dup",
	"dup2",
	"dup3",
	"pipe",
	"pipe2",
	"splice",
	"tee",
	"vmsplice",
	"sendfile",
	"sendfile64",
	"copy_file_range",
	"ioctl",
	"cachestat",
	/* Extended attributes of files the app can reach. */
	"setxattr",
	"lsetxattr",
	"fsetxattr",
	"getxattr",
	"lgetxattr",
	"fgetxattr",
	"listxattr",
	"llistxattr",
	"flistxattr",
	"removexattr",
	"lremovexattr",
	"fremovexattr",
	/* Waiting for events. */
	"poll",
	"ppoll",
	"ppoll_time64",
	"select",
	"_newselect",
	"pselect6",
	"pselect6_time64",
	"epoll_create",
	"epoll_create1",
	"epoll_ctl",
	"epoll_wait",
	"epoll_pwait",
	"epoll_pwait2",
	"eventfd",
	"eventfd2",
	"signalfd",
	"signalfd4",
	"timerfd_create",
	"timerfd_settime",
	"timerfd_gettime",
	"timerfd_settime64",
	"timerfd_gettime64",
	"inotify_init",
	"inotify_init1",
	"inotify_add_watch",
	"inotify_rm_watch",
	/* Asynchronous I/O (not io_uring: see the deny table). */
	"io_setup",
	"io_destroy",
	"io_getevents",
	"io_pgetevents",
	"io_pgetevents_time64",
	"io_submit",
	"io_cancel",
	/* Memory of the caller's own process. */
	"brk",
	"mmap",
	"mmap2",
	"munmap",
	"mremap",
	"mprotect",
	"msync",
	"mincore",
	"madvise",
	"mlock",
	"mlock2",
	"munlock",
	"mlockall",
	"munlockall",
	"remap_file_pages",
	"memfd_create",
	"memfd_secret",
	"membarrier",
	"pkey_mprotect",
	"pkey_alloc",
	"pkey_free",
	"map_shadow_stack",
	/* Processes and threads (clone's flags are checked by the deny table). */
	"fork",
	"vfork",
	"clone",
	"clone3",
	"execve",
	"execveat",
	"exit",
	"exit_group",
	"wait4",
	"waitid",
	"waitpid",
	"getpid",
	"getppid",
	"gettid",
	"getpgid",
	"setpgid",
	"getpgrp",
	"getsid",
	"setsid",
	"set_tid_address",
	"set_robust_list",
	"get_robust_list",
	"rseq",
	"futex",
	"futex_time64",
	"futex_waitv",
	"futex_wake",
	"futex_wait",
	"futex_requeue",
	"arch_prctl",
	"set_thread_area",
	"get_thread_area",
	"prctl",
	"personality",
	"unshare",
	"seccomp",
	"landlock_create_ruleset",
	"landlock_add_rule",
	"landlock_restrict_self",
	"getrlimit",
	"ugetrlimit",
	"setrlimit",
	"prlimit64",
	"getrusage",
	"times",
	"nice",
	"getpriority",
	"setpriority",
	"ioprio_get",
	"ioprio_set",
	"sched_yield",
	"sched_setparam",
	"sched_getparam",
	"sched_setscheduler",
	"sched_getscheduler",
	"sched_get_priority_max",
	"sched_get_priority_min",
	"sched_rr_get_interval",
	"sched_rr_get_interval_time64",
	"sched_setaffinity",
	"sched_getaffinity",
	"sched_setattr",
	"sched_getattr",
	"getcpu",
	"pidfd_open",
	"pidfd_send_signal",
	/* Lifted by --allow=devel only (the deny table refuses them otherwise). */
	"ptrace",
	"kcmp",
	"pidfd_getfd",
	/* Signals. */
	"kill",
	"tkill",
	"tgkill",
	"rt_sigaction",
	"rt_sigprocmask",
	"rt_sigreturn",
	"rt_sigpending",
	"rt_sigtimedwait",
	"rt_sigtimedwait_time64",
	"rt_sigqueueinfo",
	"rt_tgsigqueueinfo",
	"rt_sigsuspend",
	"sigaltstack",
	"restart_syscall",
	"pause",
	"sigaction",
	"signal",
	"sigprocmask",
	"sigreturn",
	"sigsuspend",
	"sigpending",
	"sgetmask",
	"ssetmask",
	/* Credentials (within the sandbox's one uid; no capability to change them). */
	"getuid",
	"geteuid",
	"getgid",
	"getegid",
	"getresuid",
	"getresgid",
	"getgroups",
	"setuid",
	"setgid",
	"setreuid",
	"setregid",
	"setresuid",
	"setresgid",
	"setfsuid",
	"setfsgid",
	"setgroups",
	"getuid32",
	"geteuid32",
	"getgid32",
	"getegid32",
	"getresuid32",
	"getresgid32",
	"getgroups32",
	"setuid32",
	"setgid32",
	"setreuid32",
	"setregid32",
	"setresuid32",
	"setresgid32",
	"setfsuid32",
	"setfsgid32",
	"setgroups32",
	"capget",
	"capset",
	/* Time (reading it, sleeping, timers; setting the clock is in the deny table). */
	"time",
	"gettimeofday",
	"clock_gettime",
	"clock_gettime64",
	"clock_getres",
	"clock_getres_time64",
	"clock_nanosleep",
	"clock_nanosleep_time64",
	"nanosleep",
	"alarm",
	"getitimer",
	"setitimer",
	"timer_create",
	"timer_settime",
	"timer_settime64",
	"timer_gettime",
	"timer_gettime64",
	"timer_getoverrun",
	"timer_delete",
	/* Sockets (families are checked by the deny table). */
	"socket",
	"socketpair",
	"socketcall",
	"connect",
	"accept",
	"accept4",
	"bind",
	"listen",
	"shutdown",
	"getsockname",
	"getpeername",
	"setsockopt",
	"getsockopt",
	"sendto",
	"recvfrom",
	"sendmsg",
	"recvmsg",
	"sendmmsg",
	"recvmmsg",
	"recvmmsg_time64",
	/* System V IPC and POSIX message queues, in the sandbox's own IPC namespace. */
	"ipc",
	"shmget",
	"shmat",
	"shmdt",
	"shmctl",
	"semget",
	"semop",
	"semtimedop",
	"semtimedop_time64",
	"semctl",
	"msgget",
	"msgsnd",
	"msgrcv",
	"msgctl",
	"mq_open",
	"mq_unlink",
	"mq_timedsend",
	"mq_timedsend_time64",
	"mq_timedreceive",
	"mq_timedreceive_time64",
	"mq_notify",
	"mq_getsetattr",
	/* About the system. */
	"uname",
	"olduname",
	"oldolduname",
	"sysinfo",
	"getrandom",
};

/*
 * Socket families: an allow-list, everything else EAFNOSUPPORT so libraries fall back. AF_INET
 * and AF_INET6 only with --share=network (without it the sandbox has only a loopback
 * interface anyway); netlink only for NETLINK_ROUTE (libc's getaddrinfo and interface lists).
 */
#ifndef AF_MAX
#define AF_MAX 46
#endif

static bool family_allowed(int family, bool network) {
	switch (family) {
	case AF_UNIX:
	case AF_NETLINK:
		return true;
	case AF_INET:
	case AF_INET6:
		return network;
	default:
		return false;
	}
}

/*
 * A comparison of syscall argument arg with value (under mask for SCMP_CMP_MASKED_EQ). What
 * libseccomp's SCMP_A0() macros make, with every field named, which clang's
 * -Wmissing-field-initializers wants.
 */
static struct scmp_arg_cmp arg_cmp(
	unsigned int arg, enum scmp_compare op, uint64_t mask_or_value, uint64_t value) {
	return (struct scmp_arg_cmp){
		.arg = arg, .op = op, .datum_a = mask_or_value, .datum_b = value};
}

static int add_rule(scmp_filter_ctx ctx, const struct deny_rule *rule, int nr) {
	uint32_t action = SCMP_ACT_ERRNO((uint32_t)rule->error);
	switch (rule->when) {
	case DENY_ALWAYS:
	case DENY_UNLESS_DEVEL:
		return seccomp_rule_add(ctx, action, nr, 0);
	case DENY_ARG0_HAS_FLAG:
		return seccomp_rule_add(ctx, action, nr, 1,
			arg_cmp(0, SCMP_CMP_MASKED_EQ, rule->value, rule->value));
	case DENY_ARG0_NOT:
		return seccomp_rule_add(
			ctx, action, nr, 1, arg_cmp(0, SCMP_CMP_NE, rule->value, 0));
	case DENY_IOCTL_REQUEST:
		return seccomp_rule_add(ctx, action, nr, 1,
			arg_cmp(1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, rule->value));
	}
	return -EINVAL;
}

static void add_socket_rules(scmp_filter_ctx ctx, bool network) {
	int nr = SCMP_SYS(socket);
	uint32_t action = SCMP_ACT_ERRNO(EAFNOSUPPORT);
	for (int family = 0; family < AF_MAX; family++) {
		if (family_allowed(family, network)) {
			continue;
		}
		int r = seccomp_rule_add(ctx, action, nr, 1,
			arg_cmp(0, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, (uint64_t)family));
		if (r < 0) {
			errno = -r;
			cordon_die_errno("seccomp: adding the rule for socket family %d", family);
		}
	}
	/* Families above the last known one, and any value with a non-zero high half. */
	int r = seccomp_rule_add(ctx, action, nr, 1, arg_cmp(0, SCMP_CMP_GE, (uint64_t)AF_MAX, 0));
	if (r == 0) {
		r = seccomp_rule_add(ctx, action, nr, 2, arg_cmp(0, SCMP_CMP_EQ, AF_NETLINK, 0),
			arg_cmp(2, SCMP_CMP_NE, NETLINK_ROUTE, 0));
	}
	if (r < 0) {
		errno = -r;
		cordon_die_errno("seccomp: adding the socket family rules");
	}
}

/* The compat ABIs of the native architecture: their calls are filtered, not let through. */
static void add_compat_arches(scmp_filter_ctx ctx) {
	uint32_t native = seccomp_arch_native();
	uint32_t compat[2] = {0, 0};
	if (native == SCMP_ARCH_X86_64) {
		compat[0] = SCMP_ARCH_X32;
		compat[1] = SCMP_ARCH_X86;
	} else if (native == SCMP_ARCH_AARCH64) {
		compat[0] = SCMP_ARCH_ARM;
	}
	for (size_t i = 0; i < 2 && compat[i] != 0; i++) {
		int r = seccomp_arch_add(ctx, compat[i]);
		if (r < 0 && r != -EEXIST) {
			errno = -r;
			cordon_die_errno("seccomp: adding a compat architecture");
		}
	}
}

static scmp_filter_ctx new_filter(uint32_t default_action) {
	scmp_filter_ctx ctx = seccomp_init(default_action);
	if (ctx == NULL) {
		cordon_die("seccomp: cannot initialise libseccomp");
	}
	add_compat_arches(ctx);
	return ctx;
}

static void load_filter(scmp_filter_ctx ctx, const char *what) {
	/* no_new_privs is already set (capabilities.c), so an unprivileged load is allowed. */
	int r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		errno = -r;
		cordon_die_errno("seccomp: loading the %s", what);
	}
}

/* Filter 1: the listed calls exist, everything else is ENOSYS. */
static void load_allow_list(void) {
	scmp_filter_ctx ctx = new_filter(SCMP_ACT_ERRNO(ENOSYS));
	for (size_t i = 0; i < sizeof(allow_table) / sizeof(allow_table[0]); i++) {
		/* A name of another ABI (stat64 on x86_64) resolves to a pseudo number that
		 * libseccomp places only on the ABIs that have it. */
		int nr = seccomp_syscall_resolve_name(allow_table[i]);
		if (nr == __NR_SCMP_ERROR) {
			cordon_debug("seccomp: this libseccomp does not know %s; it stays ENOSYS",
				allow_table[i]);
			continue;
		}
		int r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
		if (r < 0) {
			errno = -r;
			cordon_die_errno("seccomp: allowing %s", allow_table[i]);
		}
	}
	load_filter(ctx, "allow-list");
}

/* Filter 2: the deny table and the socket families. */
static void load_deny_table(const struct cordon_launch_options *options) {
	scmp_filter_ctx ctx = new_filter(SCMP_ACT_ALLOW);
	for (size_t i = 0; i < sizeof(deny_table) / sizeof(deny_table[0]); i++) {
		const struct deny_rule *rule = &deny_table[i];
		if (rule->when == DENY_UNLESS_DEVEL && options->allow_devel) {
			continue;
		}
		int nr = seccomp_syscall_resolve_name(rule->name);
		if (nr == __NR_SCMP_ERROR) {
			cordon_debug("seccomp: this libseccomp does not know %s; it stays ENOSYS",
				rule->name);
			continue;
		}
		int r = add_rule(ctx, rule, nr);
		if (r < 0) {
			errno = -r;
			cordon_die_errno("seccomp: adding the rule for %s", rule->name);
		}
	}
	add_socket_rules(ctx, options->share_network);
	load_filter(ctx, "deny table");
}

void cordon_launch_load_seccomp(const struct cordon_launch_options *options) {
	load_allow_list();
	load_deny_table(options);
}
