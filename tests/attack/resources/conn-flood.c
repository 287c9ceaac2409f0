/*
 * conn-flood SOCKET COUNT: what a hostile app does to exhaust cordon's fds. Opens COUNT
 * connections to the unix socket SOCKET as fast as it can and keeps them, without saying a
 * word on any (each one still costs cordon a client: its socket, the event loop's copy and,
 * before the caps, a pidfd). Prints "opened N" once every connect returned (N succeeded),
 * then "alive M" whenever the number of connections cordon has not closed changes, until
 * SIGTERM.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void handle_term(int sig) {
	stop = 1;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: conn-flood SOCKET COUNT\n");
		return 2;
	}
	int count = atoi(argv[2]);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (count <= 0 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "conn-flood: bad arguments\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	/* As many fds as the kernel lets this process have: the attack is on cordon's. */
	struct rlimit limit;
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
	struct pollfd *fds = calloc((size_t)count, sizeof(*fds));
	if (!fds) {
		return 1;
	}
	int opened = 0;
	for (int i = 0; i < count; i++) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
			fprintf(stderr, "conn-flood: connection %d: %s\n", i + 1, strerror(errno));
			if (fd >= 0) {
				close(fd);
			}
			fds[i].fd = -1;
			continue;
		}
		fds[i].fd = fd;
		fds[i].events = POLLIN;
		opened++;
	}
	printf("opened %d\n", opened);
	fflush(stdout);

	signal(SIGTERM, handle_term);
	signal(SIGINT, handle_term);
	int last = -1;
	while (!stop) {
		int alive = 0;
		if (poll(fds, (nfds_t)count, 0) < 0 && errno != EINTR) {
			return 1;
		}
		for (int i = 0; i < count; i++) {
			/* cordon's hang-up, after the protocol error it may have sent first. */
			if (fds[i].fd >= 0 && !(fds[i].revents & (POLLHUP | POLLERR))) {
				alive++;
			}
		}
		if (alive != last) {
			printf("alive %d\n", alive);
			fflush(stdout);
			last = alive;
		}
		struct timespec pause = {0, 50 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
	for (int i = 0; i < count; i++) {
		if (fds[i].fd >= 0) {
			close(fds[i].fd);
		}
	}
	free(fds);
	return 0;
}
