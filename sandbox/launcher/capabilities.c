/*
 * No capability survives into the app. The sandbox's init holds every capability of its new
 * user namespace while it builds the mounts; before anything of the app runs it gives them
 * all up, in every set: bounding (so no exec of a setuid or file-capability binary, nor uid 0
 * inside, can bring one back), ambient, inheritable, permitted and effective. no_new_privs
 * comes first: it is what allows an unprivileged seccomp filter (seccomp.c) and it holds for
 * every descendant.
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

static int last_cap(void) {
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int last = CAP_LAST_CAP;
	if (f != NULL) {
		if (fscanf(f, "%d", &last) != 1) {
			last = CAP_LAST_CAP;
		}
		fclose(f);
	}
	return last;
}

void cordon_launch_drop_capabilities(void) {
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		cordon_die_errno("setting no_new_privs");
	}
	/* uid 0 inside (a launch as root) must not regain capabilities by exec. */
	unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
		SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
		SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
	if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0) {
		cordon_die_errno("setting the securebits");
	}
	int last = last_cap();
	for (int cap = 0; cap <= last; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) {
			cordon_die_errno("dropping capability %d from the bounding set", cap);
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0) {
		cordon_die_errno("clearing the ambient capabilities");
	}
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[2] = {{0}};
	if (syscall(SYS_capset, &header, data) < 0) {
		cordon_die_errno("dropping every capability");
	}
	/* Verified, not assumed: a kernel that ignored a step must not run the app. */
	if (syscall(SYS_capget, &header, data) < 0) {
		cordon_die_errno("reading the capabilities back");
	}
	for (int i = 0; i < 2; i++) {
		if (data[i].effective != 0 || data[i].permitted != 0 || data[i].inheritable != 0) {
			cordon_die("a capability survived the drop");
		}
	}
	if (prctl(PR_CAPBSET_READ, 0, 0, 0, 0) != 0) {
		cordon_die("the bounding set survived the drop");
	}
}
