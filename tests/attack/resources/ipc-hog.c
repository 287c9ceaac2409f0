/*
 * ipc-hog SOCKET COUNT: a control-socket peer that asks and never reads. Sends COUNT
 * "windows" requests on one connection without reading a byte of the replies, so that
 * cordon would have to keep them all. Prints "cut-off after=N" when cordon closed the
 * connection (a write failed with EPIPE or ECONNRESET) after N requests, "sent N" when all
 * went out (the probe ran, and cordon kept the connection).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: ipc-hog SOCKET COUNT\n");
		return 2;
	}
	long count = atol(argv[2]);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (count <= 0 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	signal(SIGPIPE, SIG_IGN);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		fprintf(stderr, "ipc-hog: connect %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	static const char request[] = "{\"command\": \"windows\"}\n";
	for (long i = 0; i < count; i++) {
		size_t off = 0;
		while (off < sizeof(request) - 1) {
			ssize_t n =
				send(fd, request + off, sizeof(request) - 1 - off, MSG_NOSIGNAL);
			if (n < 0 && errno == EINTR) {
				continue;
			}
			if (n < 0) {
				printf("cut-off after=%ld (%s)\n", i, strerror(errno));
				return 0;
			}
			off += (size_t)n;
		}
	}
	printf("sent %ld\n", count);
	return 0;
}
