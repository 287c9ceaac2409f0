/*
 * cordon-run [options] --app-id ID -- COMMAND [ARGS...]
 *
 * Reads the command line, then runs the launch in order: the host dirs as fds (appdirs.c),
 * the Wayland listener (wayland.c) and the X display (x11.c), the session bus proxy (dbus_proxy.c),
 * the cgroup scope (cgroup.c), the sandbox itself (namespaces.c, which goes on with mounts.c,
 * capabilities.c and seccomp.c), and waits. On every way out, normal or cordon_die, the host-side
 * state is undone: nothing stays mounted, listening or in the cgroup tree.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/app_id.h"
#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

static const char usage[] =
	"Usage: cordon-run [OPTIONS] --app-id ID -- COMMAND [ARGS...]\n"
	"\n"
	"Runs COMMAND in a new sandbox (docs/sandbox.md) and exits with its status.\n"
	"\n"
	"  --app-id ID          the app's id (letters, digits, '.', '_', '-'); names its data\n"
	"                       dir $XDG_DATA_HOME/cordon/apps/ID and its cgroup scope\n"
	"  --app DIR            the app's files, bound read-only at /app (/app/bin is in PATH)\n"
	"  --image FILE         the app's files as a squashfs or erofs image, read-only at /app\n"
	"  --image-mount=HOW    kernel (a loop device; root only, the default for root) or\n"
	"                       fuse (squashfuse in user space; the default otherwise)\n"
	"  --runtime DIR        bind DIR read-only at /usr instead of the host's /usr\n"
	"  --share=network      keep the host's network (default: a new network namespace); its\n"
	"                       abstract unix sockets (X11, D-Bus) stay out of reach\n"
	"  --allow=devel        for debuggers: allow ptrace, kcmp and pidfd_getfd, and writes to\n"
	"                       /proc (breakpoints through /proc/PID/mem) inside the sandbox\n"
	"  --cgroup-parent DIR  make the scope app-cordon-ID-INSTANCE.scope under this cgroup v2\n"
	"                       directory (default: beside the caller's own cgroup)\n"
	"  --setenv VAR=VALUE   set VAR in the command's environment (repeatable)\n"
	"  --no-wayland         no Wayland socket (default: ask the cordon at WAYLAND_DISPLAY)\n"
	"  --no-dbus            no session bus (default: a filtered one through xdg-dbus-proxy)\n"
	"  --x11                an X display of the sandbox's own (DISPLAY=:0): a rootless\n"
	"                       Xwayland that cordon runs for this instance only\n"
	"  --profile NAME       the permissions of profile NAME from policy.ini (built in:\n"
	"                       default, network-client, game, devel) instead of the app's own\n"
	"  --policy FILE        read profiles and [app ID] sections from FILE (default:\n"
	"                       $XDG_CONFIG_HOME/cordon/policy.ini, see docs/policy.md)\n"
	"  -v, --verbose        say what is set up\n"
	"  -h, --help           this text\n"
	"      --version        the version\n"
	"\n"
	"Exit status: the command's (128+N if killed by signal N); 2 for a bad command line;\n"
	"125 if the sandbox could not be set up; 126/127 if COMMAND cannot be run inside.\n";

enum {
	OPT_APP_ID = 256,
	OPT_APP,
	OPT_IMAGE,
	OPT_IMAGE_MOUNT,
	OPT_RUNTIME,
	OPT_SHARE,
	OPT_ALLOW,
	OPT_CGROUP_PARENT,
	OPT_SETENV,
	OPT_NO_WAYLAND,
	OPT_NO_DBUS,
	OPT_X11,
	OPT_PROFILE,
	OPT_POLICY,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{"app-id", required_argument, NULL, OPT_APP_ID},
	{"app", required_argument, NULL, OPT_APP},
	{"image", required_argument, NULL, OPT_IMAGE},
	{"image-mount", required_argument, NULL, OPT_IMAGE_MOUNT},
	{"runtime", required_argument, NULL, OPT_RUNTIME},
	{"share", required_argument, NULL, OPT_SHARE},
	{"allow", required_argument, NULL, OPT_ALLOW},
	{"cgroup-parent", required_argument, NULL, OPT_CGROUP_PARENT},
	{"setenv", required_argument, NULL, OPT_SETENV},
	{"no-wayland", no_argument, NULL, OPT_NO_WAYLAND},
	{"no-dbus", no_argument, NULL, OPT_NO_DBUS},
	{"x11", no_argument, NULL, OPT_X11},
	{"profile", required_argument, NULL, OPT_PROFILE},
	{"policy", required_argument, NULL, OPT_POLICY},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, OPT_VERSION},
	{0},
};

static bool valid_setenv(const char *word) {
	const char *eq = strchr(word, '=');
	if (eq == NULL || eq == word) {
		return false;
	}
	for (const char *p = word; p < eq; p++) {
		bool ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
			(p > word && *p >= '0' && *p <= '9');
		if (!ok) {
			return false;
		}
	}
	return true;
}

static void parse_options(int argc, char **argv, struct cordon_launch_options *o) {
	int c;
	opterr = 0;
	/* "+": stop at the first non-option, so the command's own options stay its own. */
	while ((c = getopt_long(argc, argv, "+vh", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_APP_ID:
			o->app_id = optarg;
			break;
		case OPT_APP:
			o->app_dir = optarg;
			break;
		case OPT_IMAGE:
			o->image = optarg;
			break;
		case OPT_IMAGE_MOUNT:
			if (strcmp(optarg, "kernel") != 0 && strcmp(optarg, "fuse") != 0) {
				cordon_die_usage(
					"--image-mount=%s: expected kernel or fuse", optarg);
			}
			o->image_mount = optarg;
			break;
		case OPT_RUNTIME:
			o->runtime = optarg;
			break;
		case OPT_SHARE:
			if (strcmp(optarg, "network") != 0) {
				cordon_die_usage(
					"--share=%s: only --share=network is known", optarg);
			}
			o->share_network = true;
			break;
		case OPT_ALLOW:
			if (strcmp(optarg, "devel") != 0) {
				cordon_die_usage("--allow=%s: only --allow=devel is known", optarg);
			}
			o->allow_devel = true;
			break;
		case OPT_CGROUP_PARENT:
			if (optarg[0] != '/') {
				cordon_die_usage(
					"--cgroup-parent %s: an absolute path is needed", optarg);
			}
			o->cgroup_parent = optarg;
			break;
		case OPT_SETENV:
			if (!valid_setenv(optarg)) {
				cordon_die_usage("--setenv %s: expected VAR=VALUE", optarg);
			}
			o->setenv = realloc(o->setenv, (o->setenv_len + 2) * sizeof(char *));
			if (o->setenv == NULL) {
				cordon_die_errno("--setenv");
			}
			o->setenv[o->setenv_len++] = optarg;
			o->setenv[o->setenv_len] = NULL;
			break;
		case OPT_NO_WAYLAND:
			o->no_wayland = true;
			break;
		case OPT_NO_DBUS:
			o->no_dbus = true;
			break;
		case OPT_X11:
			o->x11 = true;
			break;
		case OPT_PROFILE:
			o->profile = optarg;
			break;
		case OPT_POLICY:
			o->policy_path = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case OPT_VERSION:
			printf("cordon-run %s\n", CORDON_VERSION);
			exit(0);
		case ':':
			cordon_die_usage("%s needs an argument", argv[optind - 1]);
		default:
			cordon_die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (o->app_id == NULL) {
		cordon_die_usage("--app-id ID is required");
	}
	const char *problem = cordon_app_id_problem(o->app_id);
	if (problem == NULL && strlen(o->app_id) > CORDON_APP_ID_SCOPE_MAX) {
		problem = "longer than 200 bytes (the scope's name must fit 255)";
	}
	if (problem != NULL) {
		/* %.200s: the id is the caller's, keep the message bounded. */
		cordon_die_usage("--app-id '%.200s' %s: use letters, digits, '.', '_' and '-', not "
				 "'.' or '-' first nor '.' last, no '..', at most 200 bytes",
			o->app_id, problem);
	}
	if (o->app_dir != NULL && o->image != NULL) {
		cordon_die_usage("--app and --image both give /app: pick one");
	}
	if (optind >= argc) {
		cordon_die_usage("no command given (cordon-run [OPTIONS] --app-id ID -- COMMAND)");
	}
	o->argv = argv + optind;
}

static void make_instance_id(char out[CORDON_LAUNCH_INSTANCE_LEN + 1]) {
	unsigned char bytes[CORDON_LAUNCH_INSTANCE_LEN / 2];
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes)) {
		cordon_die_errno("getrandom for the instance id");
	}
	for (size_t i = 0; i < sizeof(bytes); i++) {
		snprintf(out + 2 * i, 3, "%02x", bytes[i]);
	}
}

/* A name safe in a path and a passwd line; the account's own if it is. */
static char *user_name(uid_t uid) {
	struct passwd *pw = getpwuid(uid);
	if (pw == NULL || pw->pw_name[0] == '\0' || strlen(pw->pw_name) > 32) {
		return strdup("user");
	}
	for (const char *p = pw->pw_name; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.') ||
			pw->pw_name[0] == '.') {
			return strdup("user");
		}
	}
	return strdup(pw->pw_name);
}

static void undo_host_state(void *data) {
	struct cordon_launch *launch = data;
	cordon_launch_wayland_finish(launch);
	cordon_launch_x11_finish(launch);
	cordon_launch_dbus_proxy_finish(launch);
	cordon_launch_finish_image(launch);
	cordon_launch_remove_scope(launch);
}

static void close_launch_fds(struct cordon_launch *launch) {
	int *fds[] = {&launch->app_fd, &launch->usr_fd, &launch->data_fd, &launch->config_fd,
		&launch->cache_fd, &launch->documents_fd, &launch->parent_alive_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
}

/* The sandbox's init, for forwarding: a handler has no other way to it. */
static volatile pid_t init_pid;
static volatile sig_atomic_t stop_requested;

/*
 * How long the sandbox has to end after a forwarded signal before its init (and with it
 * the whole pid namespace) is killed: whoever stops cordon-run wants it gone, and a SIGKILL
 * of cordon-run itself would leave its cgroup scope behind.
 */
#define STOP_GRACE_MS 100

static void forward_signal(int sig) {
	if (init_pid > 0) {
		kill(init_pid, sig);
		stop_requested = 1;
	}
}

static void kill_sandbox(int sig) {
	if (init_pid > 0) {
		kill(init_pid, SIGKILL);
	}
}

static int wait_for_sandbox(pid_t pid) {
	bool grace_armed = false;
	for (;;) {
		/* Checked before each wait too: the signal may have come before the first one. */
		if (stop_requested && !grace_armed) {
			struct sigaction on_alarm = {.sa_handler = kill_sandbox};
			sigaction(SIGALRM, &on_alarm, NULL);
			struct itimerval grace = {.it_value = {.tv_usec = STOP_GRACE_MS * 1000}};
			setitimer(ITIMER_REAL, &grace, NULL);
			grace_armed = true;
		}
		int status;
		if (waitpid(pid, &status, 0) < 0) {
			if (errno == EINTR) {
				continue;
			}
			cordon_die_errno("waiting for the sandbox");
		}
		if (WIFEXITED(status)) {
			return WEXITSTATUS(status);
		}
		return 128 + WTERMSIG(status);
	}
}

int main(int argc, char **argv) {
	struct cordon_launch launch = {
		.app_fd = -1,
		.usr_fd = -1,
		.data_fd = -1,
		.config_fd = -1,
		.cache_fd = -1,
		.documents_fd = -1,
		.image_mount_fd = -1,
		.fuse_fd = -1,
		.fuse_ready_read = -1,
		.fuse_ready_write = -1,
		.fuse_pid = -1,
		.cgroup_fd = -1,
		.scope_helper_pid = -1,
		.wayland_socket_fd = -1,
		.wayland_close_fd = -1,
		.x11_socket_fd = -1,
		.x11_close_fd = -1,
		.parent_alive_fd = -1,
		.dbus_socket_fd = -1,
		.dbus_system_socket_fd = -1,
		.dbus_a11y_socket_fd = -1,
		.dbus_sync_fd = -1,
		.dbus_proxy_pid = -1,
	};
	parse_options(argc, argv, &launch.options);
	cordon_set_verbose(launch.options.verbose);
	cordon_launch_apply_profile(&launch.options);
	cordon_launch_x11_check(&launch.options);
	launch.uid = getuid();
	launch.gid = getgid();
	launch.user_name = user_name(launch.uid);
	if (launch.user_name == NULL) {
		cordon_die_errno("copying the user name");
	}
	make_instance_id(launch.instance);

	/* Signals wait until init exists; then they go to it, and from it to the command. */
	sigset_t forwarded, old;
	sigemptyset(&forwarded);
	int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaddset(&forwarded, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &forwarded, &old);

	cordon_die_set_cleanup(undo_host_state, &launch);
	cordon_launch_open_dirs(&launch);
	cordon_launch_open_documents(&launch);
	cordon_launch_mount_image(&launch);
	cordon_launch_wayland_listen(&launch);
	cordon_launch_dbus_proxy_start(&launch);
	cordon_launch_create_scope(&launch);
	pid_t pid = cordon_launch_spawn(&launch);
	cordon_launch_dbus_identity_publish(&launch, pid);
	cordon_launch_release_scope_helper(&launch);
	cordon_debug("sandbox %s/%s started, init is pid %d", launch.options.app_id,
		launch.instance, (int)pid);
	init_pid = pid;
	cordon_launch_serve_image(&launch);
	struct sigaction forward = {.sa_handler = forward_signal};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &forward, NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);

	int status = wait_for_sandbox(pid);
	cordon_die_set_cleanup(NULL, NULL);
	undo_host_state(&launch);
	close_launch_fds(&launch);
	free(launch.user_name);
	free(launch.documents_host_path);
	free(launch.options.setenv);
	free(launch.options.dbus_talk);
	free(launch.options.dbus_own);
	free(launch.options.dbus_see);
	free(launch.options.dbus_system_talk);
	return status;
}
