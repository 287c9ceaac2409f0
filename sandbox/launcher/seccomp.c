/*
 * The sandbox's seccomp filter: a deny table, as data, each entry with the reason it is there
 * (docs/sandbox.md has the same list for people). Everything not listed is allowed: the
 * namespaces, the missing capabilities and the mount layout are the primary walls; this
 * closes the kernel interfaces that those do not cover, or that cross them.
 *
 * Names are resolved at run time (seccomp_syscall_resolve_name): libseccomp 2.5.4 predates
 * some syscalls, and a name it or this architecture does not know is skipped with a debug
 * message instead of failing the launch. The same rules are added for the native architecture
 * and its compat ABIs (x86_64: x32 and i386); a call from any other ABI kills the process.
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

static int add_rule(scmp_filter_ctx ctx, const struct deny_rule *rule, int nr) {
	uint32_t action = SCMP_ACT_ERRNO((uint32_t)rule->error);
	switch (rule->when) {
	case DENY_ALWAYS:
	case DENY_UNLESS_DEVEL:
		return seccomp_rule_add(ctx, action, nr, 0);
	case DENY_ARG0_HAS_FLAG:
		return seccomp_rule_add(
			ctx, action, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, rule->value, rule->value));
	case DENY_ARG0_NOT:
		return seccomp_rule_add(ctx, action, nr, 1, SCMP_A0(SCMP_CMP_NE, rule->value));
	case DENY_IOCTL_REQUEST:
		return seccomp_rule_add(
			ctx, action, nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, rule->value));
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
			SCMP_A0(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, (uint64_t)family));
		if (r < 0) {
			errno = -r;
			cordon_die_errno("seccomp: adding the rule for socket family %d", family);
		}
	}
	/* Families above the last known one, and any value with a non-zero high half. */
	int r = seccomp_rule_add(ctx, action, nr, 1, SCMP_A0(SCMP_CMP_GE, (uint64_t)AF_MAX));
	if (r == 0) {
		r = seccomp_rule_add(ctx, action, nr, 2, SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
			SCMP_A2(SCMP_CMP_NE, NETLINK_ROUTE));
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

void cordon_launch_load_seccomp(const struct cordon_launch_options *options) {
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL) {
		cordon_die("seccomp: cannot initialise libseccomp");
	}
	add_compat_arches(ctx);
	for (size_t i = 0; i < sizeof(deny_table) / sizeof(deny_table[0]); i++) {
		const struct deny_rule *rule = &deny_table[i];
		if (rule->when == DENY_UNLESS_DEVEL && options->allow_devel) {
			continue;
		}
		int nr = seccomp_syscall_resolve_name(rule->name);
		if (nr == __NR_SCMP_ERROR) {
			cordon_debug("seccomp: this libseccomp does not know %s; not filtered",
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
	/* no_new_privs is already set (capabilities.c), so an unprivileged load is allowed. */
	int r = seccomp_load(ctx);
	seccomp_release(ctx);
	if (r < 0) {
		errno = -r;
		cordon_die_errno("seccomp: loading the filter");
	}
}
