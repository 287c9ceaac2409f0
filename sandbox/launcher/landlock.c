/*
 * The app's Landlock domain: what the kernel refuses between the app and everything outside it,
 * and between the app's own processes, where namespaces and seccomp cannot tell them apart.
 *
 *  - Abstract unix sockets (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET, ABI 6, kernel 6.12): they live
 *    in the network namespace, so with --share=network the host's X11 (@/tmp/.X11-unix/X0)
 *    and abstract D-Bus addresses would be one connect() away. The app may connect only to
 *    abstract sockets made inside its own domain.
 *  - ptrace-class access to its init: init stays outside the domain the app runs in, and
 *    Landlock refuses ptrace, /proc/PID/mem, environ, fd and pidfd_getfd from a domain to any
 *    process outside it. (init is also non-dumpable, namespaces.c.)
 *  - /proc/PID/mem written by a sibling: processes of one user in one domain may ptrace-access
 *    each other, and exec makes every process dumpable again, so no per-process flag survives.
 *    Instead the domain handles LANDLOCK_ACCESS_FS_WRITE_FILE and grants it beneath every
 *    writable mount of the sandbox except /proc, and on the files the caller
 *    gave as stdin, stdout or stderr open for writing (so `>>/dev/stdout` into a host file
 *    works). Nothing under /proc can be opened for writing: not another process's mem, nor
 *    /proc/self/mem, oom_score_adj or a thread's comm (glibc names its own thread through
 *    prctl, not /proc). Nor can a host file be reopened for writing through /proc/self/fd/N
 *    unless it is one of those: a stdin read from a host file, or a file a portal handed to a
 *    sibling read-only, is not upgraded to a writable open. ptrace, process_vm_writev,
 *    pidfd_getfd and kcmp are seccomp's (seccomp.c). --allow=devel lifts the /proc rule with
 *    the rest: a debugger writes breakpoints through /proc/PID/mem.
 *
 * init builds the ruleset after the pivot, while it still holds the caller's stdio, and the
 * command enters it between fork and exec, after no_new_privs. A kernel without Landlock, or
 * with an ABI below what a guarantee needs, gets one warning naming what is not enforced;
 * the launch goes on, as on any kernel before these features.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

/* The ruleset attribute as of ABI 6; Debian 12's headers stop at handled_access_fs. */
struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped; /* ABI 6 */
};
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define ACCESS_FS_WRITE_FILE (1ULL << 1)

/* The ABI each part needs. */
#define ABI_FS 1
#define ABI_NET 4
#define ABI_SCOPE 6

static int landlock_abi(void) {
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}

static void allow_write_beneath(int ruleset, int dir_fd, const char *what) {
	struct landlock_path_beneath_attr rule = {
		.allowed_access = ACCESS_FS_WRITE_FILE,
		.parent_fd = dir_fd,
	};
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0) {
		cordon_die_errno("landlock: allowing writes beneath %s", what);
	}
}

static bool under_proc(const char *path) {
	return strncmp(path, "/proc", 5) == 0 && (path[5] == '\0' || path[5] == '/');
}

/*
 * Write access where the layout allows writing: every mount of the sandbox that is not
 * read-only (/tmp, /dev, /run/user/UID, the home and its data dirs...), except /proc and what
 * is below it. Read-only ones get no rule, so a host file under /usr or the app dir reached
 * through /proc/self/fd is not writable either.
 */
static void allow_writes_where_mounted_rw(int ruleset) {
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (f == NULL) {
		cordon_die_errno("landlock: reading the sandbox's mounts");
	}
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) >= 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS ...; the layout's mount points have
		 * no blanks to escape. */
		char point[4096], options[256];
		if (sscanf(line, "%*s %*s %*s %*s %4095s %255s", point, options) != 2) {
			continue;
		}
		if (strncmp(options, "ro", 2) == 0 && (options[2] == ',' || options[2] == '\0')) {
			continue;
		}
		if (under_proc(point)) {
			continue;
		}
		cleanup_fd int fd = open(point, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			cordon_die_errno("landlock: opening the mount point %s", point);
		}
		allow_write_beneath(ruleset, fd, point);
	}
	free(line);
	fclose(f);
}

/*
 * The caller's stdin, stdout and stderr, where they are files of the host open for writing:
 * reached again by path (/dev/stdout is /proc/self/fd/1) they must stay writable. Pipes,
 * sockets and ttys of the sandbox need no rule; a read-only one gets none.
 */
static void allow_caller_stdio(int ruleset) {
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		int flags = fcntl(fd, F_GETFL);
		if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat(fd, &st) < 0 ||
			!(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
			continue;
		}
		struct landlock_path_beneath_attr rule = {
			.allowed_access = ACCESS_FS_WRITE_FILE,
			.parent_fd = fd,
		};
		/* EBADFD: a file of an internal filesystem, which Landlock never restricts. */
		if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) <
				0 &&
			errno != EBADFD) {
			cordon_die_errno("landlock: allowing writes to the caller's fd %d", fd);
		}
	}
}

bool cordon_launch_landlock_scopes_abstract_sockets(void) {
	return landlock_abi() >= ABI_SCOPE;
}

int cordon_launch_landlock_prepare(const struct cordon_launch_options *options) {
	int abi = landlock_abi();
	if (abi < ABI_SCOPE && options->share_network) {
		fprintf(stderr,
			"cordon-run: warning: this kernel has no Landlock scoping (ABI %d, 6 needed): "
			"with --share=network the app can reach the host's abstract unix sockets "
			"(X11, D-Bus)\n",
			abi);
	}
	if (abi < ABI_FS) {
		fprintf(stderr,
			"cordon-run: warning: this kernel has no Landlock: the app's processes can "
			"write each other's /proc/PID/mem\n");
		return -1;
	}
	bool guard_proc = !options->allow_devel;
	struct ruleset_attr attr = {
		.handled_access_fs = guard_proc ? ACCESS_FS_WRITE_FILE : 0,
		.scoped = abi >= ABI_SCOPE ? SCOPE_ABSTRACT_UNIX_SOCKET : 0,
	};
	if (attr.handled_access_fs == 0 && attr.scoped == 0) {
		return -1; /* nothing to enforce (devel on a kernel without scoping) */
	}
	/* The kernel refuses a larger struct with fields it does not know set: give it its own. */
	size_t size = abi >= ABI_SCOPE ? sizeof(attr)
		: abi >= ABI_NET       ? offsetof(struct ruleset_attr, scoped)
				       : offsetof(struct ruleset_attr, handled_access_net);
	int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0) {
		cordon_die_errno("landlock: creating the app's ruleset");
	}
	if (guard_proc) {
		allow_writes_where_mounted_rw(ruleset);
		allow_caller_stdio(ruleset);
	}
	cordon_debug("landlock ABI %d: /proc %s, abstract unix sockets %s", abi,
		guard_proc ? "not writable" : "writable (devel)",
		attr.scoped ? "scoped to the app" : "not scoped");
	return ruleset;
}

void cordon_launch_landlock_enter(int ruleset) {
	if (ruleset < 0) {
		return;
	}
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
		cordon_die_errno("landlock: entering the app's domain");
	}
	close(ruleset);
}
