/*
 * The sandbox's process side, in launch order:
 *
 *  host   clone3 into new user, mount, pid, ipc, uts and (unless --share=network) net
 *         namespaces, born inside the scope (CLONE_INTO_CGROUP): no instant outside it.
 *  init   (pid 1 of the new pid namespace)
 *         1. PR_SET_PDEATHSIG, then check the launcher is still there (it may have died
 *            before the prctl): the sandbox never outlives cordon-run;
 *         2. map the user's uid and gid to themselves (setgroups denied first, as the kernel
 *            requires of an unprivileged map);
 *         3. a cgroup namespace rooted at the scope, so /proc/self/cgroup names no host path;
 *         4. hostname "cordon", the mounts (mounts.c) and the pivot into the new root;
 *         5. close every host fd it held, setsid() (no controlling terminal: TIOCSTI has no
 *            terminal to type into even before seccomp), drop every capability
 *            (capabilities.c), load seccomp (seccomp.c);
 *         6. fork the command, exec it with a listed environment and only fds 0-2, reap
 *            every orphan until the command exits, and exit with its status. The kernel
 *            then kills whatever is left in the namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

extern char **environ;

/* The command's pid, for init's signal forwarding (a handler has no other way to it). */
static volatile pid_t command_pid;

static void forward_signal(int sig) {
	if (command_pid > 0) {
		kill(command_pid, sig);
	}
}

static void write_proc_file(const char *path, const char *text) {
	if (!cordon_write_file(path, text, strlen(text), 0)) {
		cordon_die_errno("writing %s", path);
	}
}

static void map_user(const struct cordon_launch *launch) {
	char map[64];
	write_proc_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "%u %u 1\n", launch->uid, launch->uid);
	write_proc_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "%u %u 1\n", launch->gid, launch->gid);
	write_proc_file("/proc/self/gid_map", map);
}

static void close_host_fds(struct cordon_launch *launch) {
	int *fds[] = {&launch->app_fd, &launch->usr_fd, &launch->data_fd, &launch->config_fd,
		&launch->cache_fd, &launch->image_mount_fd, &launch->fuse_fd,
		&launch->fuse_ready_read, &launch->fuse_ready_write, &launch->cgroup_fd,
		&launch->wayland_socket_fd, &launch->wayland_close_fd, &launch->parent_alive_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
}

static __attribute__((noreturn)) void exec_command(const struct cordon_launch *launch) {
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &dfl, NULL);
	}
	/* Only stdin, stdout and stderr: any other fd the caller left open stays outside. */
	close_range(3, ~0U, 0);
	/* The caller's cwd is a host path: start in the sandbox's own home instead. */
	char *home = cordon_strdup_printf("/home/%s", launch->user_name);
	if (chdir(home) < 0) {
		cordon_die_errno("entering %s", home);
	}
	free(home);
	environ = cordon_launch_environment(launch);
	char *const *argv = launch->options.argv;
	execvp(argv[0], argv);
	int err = errno;
	fprintf(stderr, "cordon-run: cannot run '%s' in the sandbox: %s\n", argv[0], strerror(err));
	_exit(err == ENOENT ? 127 : 126);
}

static __attribute__((noreturn)) void reap_until_command_exits(pid_t pid) {
	for (;;) {
		int status;
		pid_t got = waitpid(-1, &status, 0);
		if (got < 0) {
			if (errno == EINTR) {
				continue;
			}
			_exit(CORDON_RUN_EXIT_SETUP);
		}
		if (got != pid) {
			continue; /* an orphan reparented to init */
		}
		if (WIFEXITED(status)) {
			_exit(WEXITSTATUS(status));
		}
		_exit(128 + WTERMSIG(status));
	}
}

static __attribute__((noreturn)) void sandbox_init(struct cordon_launch *launch) {
	/* This process is a copy of the launcher: the host-side state is not ours to undo. */
	cordon_die_set_cleanup(NULL, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		cordon_die_errno("setting the parent-death signal");
	}
	struct pollfd alive = {.fd = launch->parent_alive_fd, .events = POLLIN};
	if (poll(&alive, 1, 0) != 0) {
		_exit(CORDON_RUN_EXIT_SETUP); /* the launcher died before the prctl */
	}
	map_user(launch);
	if (unshare(CLONE_NEWCGROUP) < 0) {
		cordon_die_errno("creating the cgroup namespace");
	}
	if (sethostname("cordon", strlen("cordon")) < 0) {
		cordon_die_errno("setting the hostname");
	}
	cordon_launch_setup_mounts(launch);
	close_host_fds(launch);
	if (setsid() < 0) {
		cordon_die_errno("starting a new session");
	}
	cordon_launch_drop_capabilities();
	cordon_launch_load_seccomp(&launch->options);

	struct sigaction forward = {.sa_handler = forward_signal};
	int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &forward, NULL);
	}
	/* The launcher blocked them until init existed; the mask is inherited, so lift it. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	pid_t pid = fork();
	if (pid < 0) {
		cordon_die_errno("starting the command");
	}
	if (pid == 0) {
		exec_command(launch);
	}
	command_pid = pid;
	reap_until_command_exits(pid);
}

pid_t cordon_launch_spawn(struct cordon_launch *launch) {
	int alive[2];
	if (pipe2(alive, O_CLOEXEC) < 0) {
		cordon_die_errno("creating a pipe");
	}
	uint64_t flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
		CLONE_INTO_CGROUP;
	if (!launch->options.share_network) {
		flags |= CLONE_NEWNET;
	}
	struct clone_args args = {
		.flags = flags,
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)launch->cgroup_fd,
	};
	fflush(NULL);
	long pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		if (errno == EACCES || errno == EBUSY) {
			cordon_die_errno(
				"cannot start the sandbox in its cgroup %s (a move needs write "
				"access to the common ancestor's cgroup.procs; see --cgroup-parent)",
				launch->cgroup_path);
		}
		if (errno == EPERM || errno == ENOSPC || errno == EUSERS) {
			cordon_die_errno(
				"cannot create the sandbox's namespaces (are user namespaces "
				"disabled? see /proc/sys/user/max_user_namespaces)");
		}
		cordon_die_errno("clone3 into the sandbox's namespaces");
	}
	if (pid == 0) {
		close(alive[1]);
		launch->parent_alive_fd = alive[0];
		sandbox_init(launch);
	}
	close(alive[0]);
	/* alive[1] stays open for the launcher's lifetime: its hangup tells init we are gone. */
	launch->parent_alive_fd = alive[1];
	return (pid_t)pid;
}
