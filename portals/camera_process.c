/*
 * Starting a camera provider. It is handed a pipe as its standard output and
 * nothing else: stdin is /dev/null, every other fd is closed, the environment is
 * the short list below, argv is built as an array with "--" before the one word
 * that comes from the app's side (its id, and only for providers that ask).
 *
 * The provider runs in a cordon-run sandbox of its own (its folder at /app, no
 * network, /dev/video* only for Device = video), or, with [portal] camera-launcher
 * = none, directly. Either way in a process group of its own, so that stopping it
 * stops what it started (cordon-run's sandbox dies with cordon-run).
 */
#include "portals/camera_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "portals/camera_providers.h"

/*
 * The profiles cordon hands cordon-run for providers, as a policy file on fd 3:
 * nothing shared, no relaxation, /dev/video* only for Device = video. The user's
 * own policy.ini is not read for them.
 */
static const char launcher_policy[] =
	"[profile cordon-camera]\nshare =\ndevices =\nallow =\n"
	"[profile cordon-camera-video]\nshare =\ndevices = video\nallow =\n";

static int make_policy_fd(void) {
	int fd = memfd_create("cordon-camera-policy", MFD_CLOEXEC);
	if (fd < 0) {
		return -1;
	}
	size_t len = sizeof(launcher_policy) - 1;
	if (write(fd, launcher_policy, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static pid_t spawn(const struct cordon_camera_provider *provider,
	const struct cordon_camera_process_options *options, int out_fd) {
	char width[32], height[32], mime[128], app_id[128], app_dir[4096], program[4096];
	snprintf(width, sizeof(width), "--width=%u", options->width);
	snprintf(height, sizeof(height), "--height=%u", options->height);
	char *argv[CORDON_CAMERA_MAX_ARGS + 24];
	size_t argc = 0;
	if (options->launcher) {
		/* Its program's folder is /app inside; the rest of Exec is passed as it is. */
		const char *slash = strrchr(provider->argv[0], '/');
		snprintf(app_dir, sizeof(app_dir), "%.*s",
			slash == provider->argv[0] ? 1 : (int)(slash - provider->argv[0]),
			provider->argv[0]);
		snprintf(program, sizeof(program), "/app/%s", slash + 1);
		snprintf(app_id, sizeof(app_id), "cordon-camera.%s", provider->id);
		argv[argc++] = (char *)options->launcher;
		argv[argc++] = "--no-wayland";
		/* A provider makes frames: it needs no session bus (docs/sandbox.md). */
		argv[argc++] = "--no-dbus";
		argv[argc++] = "--app-id";
		argv[argc++] = app_id;
		argv[argc++] = "--app";
		argv[argc++] = app_dir;
		argv[argc++] = "--policy";
		argv[argc++] = "/dev/fd/3";
		argv[argc++] = "--profile";
		argv[argc++] = provider->needs_video ? "cordon-camera-video" : "cordon-camera";
		argv[argc++] = "--";
		argv[argc++] = program;
	} else {
		argv[argc++] = provider->argv[0];
	}
	for (size_t i = 1; i < provider->argc; i++) {
		argv[argc++] = provider->argv[i];
	}
	if (options->width && options->height) {
		argv[argc++] = width;
		argv[argc++] = height;
	}
	if (options->mime_type) {
		snprintf(mime, sizeof(mime), "--mime-type=%s", options->mime_type);
		argv[argc++] = mime;
	} else {
		argv[argc++] = "--stream";
	}
	if (provider->wants_app_id && options->app_id[0]) {
		/* The app id is the one word of the app's side: never an option. */
		argv[argc++] = "--";
		argv[argc++] = (char *)options->app_id;
	}
	argv[argc] = NULL;
	/* cordon-run keeps the per-provider data dirs under the user's data home. */
	char home[4096], data_home[4096];
	const char *home_env = getenv("HOME"), *data_env = getenv("XDG_DATA_HOME");
	snprintf(home, sizeof(home), "HOME=%s", home_env ? home_env : "/");
	snprintf(data_home, sizeof(data_home), "XDG_DATA_HOME=%s", data_env ? data_env : "");
	char *envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", NULL, NULL, NULL};
	if (options->launcher) {
		envp[2] = home;
		envp[3] = data_env && data_env[0] == '/' ? data_home : NULL;
	}
	int policy_fd = options->launcher ? make_policy_fd() : -1;
	if (options->launcher && policy_fd < 0) {
		return -1;
	}

	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&actions);
	posix_spawnattr_init(&attr);
	posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	/* stderr stays cordon's, so that a provider's reason lands in cordon's log. */
	if (policy_fd >= 0) {
		posix_spawn_file_actions_adddup2(&actions, policy_fd, 3);
	}
	posix_spawn_file_actions_addclosefrom_np(&actions, policy_fd >= 0 ? 4 : 3);
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(
		&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	pid_t pid;
	int err = posix_spawn(&pid, argv[0], &actions, &attr, argv, envp);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	if (policy_fd >= 0) {
		close(policy_fd);
	}
	if (err != 0) {
		errno = err;
		return -1;
	}
	return pid;
}

bool cordon_camera_process_spawn(struct cordon_camera_process *process,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_process_options *options, int out_fd) {
	*process = (struct cordon_camera_process){.pidfd = -1};
	pid_t pid = spawn(provider, options, out_fd);
	if (pid < 0) {
		return false;
	}
	process->pid = process->pgid = pid;
	process->launcher = options->launcher != NULL;
	process->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return true;
}

bool cordon_camera_process_reap(struct cordon_camera_process *process, int *status) {
	if (process->pid <= 0 || waitpid(process->pid, status, WNOHANG) <= 0) {
		return false;
	}
	process->pid = 0;
	return true;
}

void cordon_camera_process_kill_group(struct cordon_camera_process *process) {
	/* The group cannot be reused while a member lives, so this hits only the provider's. */
	if (process->pgid > 0) {
		kill(-process->pgid, SIGKILL);
	}
}

/*
 * How long cordon-run gets to stop its sandbox (it kills it after 100 ms) and remove its
 * cgroup scope, which a SIGKILL would leave behind. A bounded wait on the rare paths that
 * stop a provider early: it hung, misbehaved, or its app went away.
 */
#define LAUNCHER_STOP_MS 300

void cordon_camera_process_stop(struct cordon_camera_process *process) {
	if (process->pid > 0 && process->launcher && process->pidfd >= 0) {
		kill(process->pid, SIGTERM);
		struct pollfd exited = {.fd = process->pidfd, .events = POLLIN};
		while (poll(&exited, 1, LAUNCHER_STOP_MS) < 0 && errno == EINTR) {
		}
	}
	if (process->pid > 0) {
		/* Its process group: whatever it started goes with it. */
		kill(-process->pid, SIGKILL);
		kill(process->pid, SIGKILL);
		while (waitpid(process->pid, NULL, 0) < 0 && errno == EINTR) {
		}
		process->pid = 0;
	}
	if (process->pidfd >= 0) {
		close(process->pidfd);
		process->pidfd = -1;
	}
}
