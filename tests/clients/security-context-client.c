/*
 * security-context-client: a sandbox launcher in miniature. It binds
 * wp_security_context_manager_v1, makes a listening socket at PATH, and sends the
 * requests given on the command line, in that order:
 *
 *   --listen PATH       create_listener for a new socket at PATH; the requests after it
 *                       go to this listener (give it again for more listeners)
 *   --listen-kind K     what to pass as listen_fd instead: listening (default), unbound
 *                       (a unix stream socket that does not listen), dgram, inet, pipe
 *   --close-kind K      what to pass as close_fd: pipe (default) or file (/dev/null)
 *   --manager-name N    bind the global of this name instead of the advertised one
 *                       (for a client the manager is hidden from)
 *   --engine S, --app-id S, --instance S    the set_* requests, each as often as given
 *   --commit            commit
 *   -- COMMAND...       once everything was sent, run COMMAND with WAYLAND_DISPLAY=PATH
 *
 * Prints "manager-name N" when it found the manager, then after a round trip either
 * "protocol-error interface=I code=C" (exit 1) or "ready"; then it stays connected.
 * SIGUSR1 closes close_fd's other end (prints "close-fd-closed"), SIGTERM ends it; the
 * command's end prints "command-exit status=N".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client.h>

#include "common.h"
#include "security-context-v1-client-protocol.h"

struct state {
	struct wl_display *display;
	struct wp_security_context_manager_v1 *manager;
	struct wp_security_context_v1 *context;
	uint32_t manager_name;
	const char *path;
	int close_write_fd; /* our end of close_fd; -1 once closed */
};

static void handle_global(void *data, struct wl_registry *registry, uint32_t name,
	const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wp_security_context_manager_v1_interface.name) == 0 &&
		state->manager_name == 0) {
		state->manager_name = name;
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

/* Exits after printing what the compositor said, if the connection is gone. */
static void check_connection(struct state *state, int result) {
	if (result >= 0) {
		return;
	}
	int error = wl_display_get_error(state->display);
	if (error == EPROTO) {
		const struct wl_interface *interface;
		uint32_t id;
		uint32_t code = wl_display_get_protocol_error(state->display, &interface, &id);
		tc_print("protocol-error interface=%s code=%u",
			interface ? interface->name : "unknown", code);
	} else {
		tc_print("disconnected errno=%d", error);
	}
	exit(TC_EXIT_FAIL);
}

static int make_listen_fd(const char *kind, const char *path) {
	if (strcmp(kind, "pipe") == 0) {
		int fds[2];
		if (pipe2(fds, O_CLOEXEC) < 0) {
			tc_die("pipe: %s", strerror(errno));
		}
		close(fds[1]);
		return fds[0];
	}
	if (strcmp(kind, "inet") == 0) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_in addr = {
			.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
			listen(fd, 8) < 0) {
			tc_die("inet socket: %s", strerror(errno));
		}
		return fd;
	}
	bool dgram = strcmp(kind, "dgram") == 0;
	bool listening = strcmp(kind, "listening") == 0;
	if (!dgram && !listening && strcmp(kind, "unbound") != 0) {
		tc_die("unknown --listen-kind %s", kind);
	}
	int fd = socket(AF_UNIX, (dgram ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		tc_die("socket: %s", strerror(errno));
	}
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		tc_die("socket path too long: %s", path);
	}
	strcpy(addr.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		tc_die("bind %s: %s", path, strerror(errno));
	}
	if (listening && listen(fd, 128) < 0) {
		tc_die("listen: %s", strerror(errno));
	}
	return fd;
}

static void create_listener(struct state *state, const char *listen_kind, const char *close_kind) {
	int listen_fd = make_listen_fd(listen_kind, state->path);
	int close_fd;
	if (strcmp(close_kind, "file") == 0) {
		close_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	} else if (strcmp(close_kind, "pipe") == 0) {
		int fds[2];
		if (pipe2(fds, O_CLOEXEC) < 0) {
			tc_die("pipe: %s", strerror(errno));
		}
		close_fd = fds[0];
		state->close_write_fd = fds[1];
	} else {
		tc_die("unknown --close-kind %s", close_kind);
	}
	state->context =
		wp_security_context_manager_v1_create_listener(state->manager, listen_fd, close_fd);
	/* Sent (libwayland dups fds into the message) once flushed: then only cordon accepts. */
	check_connection(state, wl_display_flush(state->display));
	close(listen_fd);
	close(close_fd);
}

static void need_context(struct state *state, const char *option) {
	if (!state->context) {
		tc_die("%s needs --listen first", option);
	}
}

static pid_t run_command(struct state *state, char **argv) {
	pid_t pid = fork();
	if (pid < 0) {
		tc_die("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		sigset_t set;
		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		setenv("WAYLAND_DISPLAY", state->path, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Stays connected, so that errors still arrive, until SIGTERM. */
static int serve(struct state *state) {
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0) {
		tc_die("signalfd: %s", strerror(errno));
	}
	for (;;) {
		check_connection(state, wl_display_flush(state->display));
		struct pollfd fds[2] = {
			{.fd = wl_display_get_fd(state->display), .events = POLLIN},
			{.fd = sfd, .events = POLLIN},
		};
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR) {
				continue;
			}
			tc_die("poll: %s", strerror(errno));
		}
		if (fds[0].revents) {
			check_connection(state, wl_display_dispatch(state->display));
		}
		if (!(fds[1].revents & POLLIN)) {
			continue;
		}
		struct signalfd_siginfo info;
		if (read(sfd, &info, sizeof(info)) != sizeof(info)) {
			continue;
		}
		if (info.ssi_signo == SIGUSR1) {
			if (state->close_write_fd >= 0) {
				close(state->close_write_fd);
				state->close_write_fd = -1;
			}
			tc_print("close-fd-closed");
		} else if (info.ssi_signo == SIGCHLD) {
			int status;
			pid_t pid;
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
				tc_print("command-exit status=%d",
					WIFEXITED(status) ? WEXITSTATUS(status)
							  : 128 + WTERMSIG(status));
			}
		} else {
			return TC_EXIT_OK;
		}
	}
}

int main(int argc, char **argv) {
	/* Signals arrive through the signalfd, and a command starts with them unblocked. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);

	struct state state = {.close_write_fd = -1};
	state.display = wl_display_connect(NULL);
	if (!state.display) {
		tc_die("cannot connect to the Wayland display");
	}
	struct wl_registry *registry = wl_display_get_registry(state.display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	check_connection(&state, wl_display_roundtrip(state.display));

	static const struct option options[] = {
		{"listen", required_argument, NULL, 'l'},
		{"listen-kind", required_argument, NULL, 'k'},
		{"close-kind", required_argument, NULL, 'c'},
		{"manager-name", required_argument, NULL, 'n'},
		{"engine", required_argument, NULL, 'e'},
		{"app-id", required_argument, NULL, 'a'},
		{"instance", required_argument, NULL, 'i'},
		{"commit", no_argument, NULL, 'C'},
		{0},
	};
	const char *listen_kind = "listening", *close_kind = "pipe";
	int opt;
	/* "+": stop at the command; the requests go out in the order given. */
	while ((opt = getopt_long(argc, argv, "+", options, NULL)) != -1) {
		switch (opt) {
		case 'k':
			listen_kind = optarg;
			break;
		case 'c':
			close_kind = optarg;
			break;
		case 'n':
			state.manager_name =
				(uint32_t)tc_parse_int("--manager-name", optarg, 1, 1 << 30);
			break;
		case 'l':
			if (state.manager_name == 0) {
				tc_print("no-manager");
				return TC_EXIT_FAIL;
			}
			if (!state.manager) {
				tc_print("manager-name %u", state.manager_name);
				state.manager = wl_registry_bind(registry, state.manager_name,
					&wp_security_context_manager_v1_interface, 1);
			}
			/* An earlier listener's close fd stays open: that listener lives on. */
			state.path = optarg;
			create_listener(&state, listen_kind, close_kind);
			break;
		case 'e':
			need_context(&state, "--engine");
			wp_security_context_v1_set_sandbox_engine(state.context, optarg);
			break;
		case 'a':
			need_context(&state, "--app-id");
			wp_security_context_v1_set_app_id(state.context, optarg);
			break;
		case 'i':
			need_context(&state, "--instance");
			wp_security_context_v1_set_instance_id(state.context, optarg);
			break;
		case 'C':
			need_context(&state, "--commit");
			wp_security_context_v1_commit(state.context);
			break;
		default:
			tc_die("usage: security-context-client --listen PATH [requests...] [-- COMMAND...]");
		}
	}
	if (!state.context) {
		tc_die("--listen PATH is required");
	}
	check_connection(&state, wl_display_roundtrip(state.display));
	tc_print("ready");
	if (optind < argc) {
		run_command(&state, argv + optind);
	}
	int code = serve(&state);
	wp_security_context_v1_destroy(state.context);
	wp_security_context_manager_v1_destroy(state.manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(state.display);
	return code;
}
