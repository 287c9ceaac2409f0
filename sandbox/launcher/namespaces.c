/*
 * The sandbox's process side, in launch order:
 *
 *  host   clone3 into new user, mount, pid, ipc, uts and (unless --share=network) net
 *         namespaces, born inside the scope (CLONE_INTO_CGROUP): no instant outside it.
 *  init   (pid 1 of the new pid namespace)
 *         1. PR_SET_PDEATHSIG, then check the launcher is still there (it may have died
 *            before the prctl): the sandbox never outlives cordon-run;
 *         2. map the user's uid and gid to themselves (setgroups denied first, as the kernel
 *            requires of an unprivileged map), then make itself non-dumpable (not before:
 *            a non-dumpable process's /proc files belong to root, its own uid_map too);
 *         3. a cgroup namespace rooted at the scope, so /proc/self/cgroup names no host path;
 *         4. hostname "cordon", the mounts (mounts.c) and the pivot into the new root, and
 *            the app's Landlock ruleset (landlock.c), which names the caller's stdio;
 *         5. close every host fd it held, setsid() (no controlling terminal: TIOCSTI has no
 *            terminal to type into even before seccomp), drop every capability
 *            (capabilities.c), load seccomp (seccomp.c);
 *         6. copy what the command needs (argv, its listed environment), then forget the
 *            caller: init is a fork of cordon-run, so its memory held the caller's whole
 *            environment and command line (/proc/1/environ and cmdline read them): both are
 *            zeroed and environ cleared;
 *         7. fork the command, which enters the Landlock domain and execs with only fds
 *            0-2; init itself keeps no fd of the caller (0-2 become /dev/null), reaps every
 *            orphan until the command exits, and exits with its status. The kernel then kills
 *            whatever is left in the namespace.
 *
 * So the app cannot reach init: it is non-dumpable and outside the app's Landlock domain (no
 * ptrace, /proc/1/mem, environ or fd access), and what it holds of the caller is gone.
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
		&launch->wayland_socket_fd, &launch->wayland_close_fd, &launch->parent_alive_fd,
		&launch->dbus_socket_fd, &launch->dbus_system_socket_fd, &launch->dbus_sync_fd,
		&launch->dbus_a11y_socket_fd, &launch->x11_socket_fd, &launch->x11_close_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
}

/* What the command starts with, copied out of the caller's memory before init forgets it. */
struct command {
	char **argv;
	char **env;
	char *home;
	int landlock_ruleset;
};

static __attribute__((noreturn)) void exec_command(const struct command *command) {
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &dfl, NULL);
	}
	cordon_launch_landlock_enter(command->landlock_ruleset);
	/* Only stdin, stdout and stderr: any other fd the caller left open stays outside. */
	close_range(3, ~0U, 0);
	/* The caller's cwd is a host path: start in the sandbox's own home instead. */
	if (chdir(command->home) < 0) {
		cordon_die_errno("entering %s", command->home);
	}
	environ = command->env;
	char *const *argv = command->argv;
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

static char **copy_argv(char **argv) {
	size_t n = 0;
	while (argv[n] != NULL) {
		n++;
	}
	char **copy = calloc(n + 1, sizeof(char *));
	if (copy == NULL) {
		cordon_die_errno("copying the command");
	}
	for (size_t i = 0; i < n; i++) {
		copy[i] = strdup(argv[i]);
		if (copy[i] == NULL) {
			cordon_die_errno("copying the command");
		}
	}
	return copy;
}

/*
 * Zeroes the caller's command line and environment where the kernel shows them from (the
 * ranges /proc/self/stat gives as arg_start..arg_end, env_start..env_end, fields 48 to 51):
 * clearing environ alone leaves every string in place for /proc/1/environ.
 */
static void forget_caller(void) {
	char buf[2048];
	cleanup_fd int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (len <= 0) {
		cordon_die_errno("reading /proc/self/stat");
	}
	buf[len] = '\0';
	/* Fields from the third on follow the last ')' (the second, comm, may hold any). */
	char *p = strrchr(buf, ')');
	unsigned long range[4];
	int field = 2;
	for (char *save = NULL, *tok = p ? strtok_r(p + 1, " ", &save) : NULL; tok != NULL;
		tok = strtok_r(NULL, " ", &save)) {
		field++;
		if (field >= 48 && field <= 51) {
			range[field - 48] = strtoul(tok, NULL, 10);
		}
	}
	if (field < 51 || range[1] < range[0] || range[3] < range[2]) {
		cordon_die("cannot find the caller's command line in /proc/self/stat");
	}
	clearenv();
	memset((void *)range[2], 0, range[3] - range[2]);
	memset((void *)range[0], 0, range[1] - range[0]);
	/* A name for ps, inside the old command line's room. */
	static const char name[] = "cordon-run-init";
	if (range[1] - range[0] > sizeof(name)) {
		memcpy((void *)range[0], name, sizeof(name));
	}
}

/* init keeps no fd of the caller's: its stdio goes to /dev/null once the command has it. */
static void drop_caller_fds(void) {
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	close_range(3, ~0U, 0);
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
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		cordon_die_errno("making init non-dumpable");
	}
	if (unshare(CLONE_NEWCGROUP) < 0) {
		cordon_die_errno("creating the cgroup namespace");
	}
	if (sethostname("cordon", strlen("cordon")) < 0) {
		cordon_die_errno("setting the hostname");
	}
	cordon_launch_setup_mounts(launch);
	struct command command = {
		.landlock_ruleset = cordon_launch_landlock_prepare(&launch->options),
	};
	close_host_fds(launch);
	if (setsid() < 0) {
		cordon_die_errno("starting a new session");
	}
	cordon_launch_drop_capabilities();
	cordon_launch_load_seccomp(&launch->options);
	command.argv = copy_argv(launch->options.argv);
	command.env = cordon_launch_environment(launch);
	command.home = cordon_strdup_printf("/home/%s", launch->user_name);
	forget_caller();

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
		exec_command(&command);
	}
	command_pid = pid;
	drop_caller_fds();
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
