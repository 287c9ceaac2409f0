/*
 * ipc-flood SOCKET RATE SECONDS X Y W H: moves cordon's virtual pointer RATE times a second
 * for SECONDS, to points walking around the box X,Y WxH, over one control-socket connection
 * (a cordonctl process per motion could not keep up). Waits for each reply, so that cordon
 * has handled every motion; prints how many it sent and the rate reached.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads up to and including the next newline; false on EOF or error. */
static bool read_reply(int fd, char *buf, size_t size) {
	size_t n = 0;
	while (n + 1 < size) {
		ssize_t r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return false;
		}
		if (buf[n++] == '\n') {
			break;
		}
	}
	buf[n] = '\0';
	return true;
}

int main(int argc, char *argv[]) {
	if (argc != 8) {
		fprintf(stderr, "usage: ipc-flood SOCKET RATE SECONDS X Y W H\n");
		return 2;
	}
	double rate = atof(argv[2]), seconds = atof(argv[3]);
	int x = atoi(argv[4]), y = atoi(argv[5]), w = atoi(argv[6]), h = atoi(argv[7]);
	if (rate <= 0 || seconds <= 0 || w <= 0 || h <= 0) {
		fprintf(stderr, "ipc-flood: bad arguments\n");
		return 2;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (fd < 0 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "ipc-flood: bad socket\n");
		return 1;
	}
	strcpy(addr.sun_path, argv[1]);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		fprintf(stderr, "ipc-flood: connect %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	double start = now(), interval = 1.0 / rate;
	long sent = 0;
	char request[256], reply[4096];
	while (now() - start < seconds) {
		/* A walk around the box's inner part: every motion lands inside it. */
		int px = x + 1 + (int)(sent % (w - 2 > 0 ? w - 2 : 1));
		int py = y + 1 + (int)((sent / 7) % (h - 2 > 0 ? h - 2 : 1));
		int len = snprintf(request, sizeof(request),
			"{\"command\": \"pointer\", \"args\": [\"move\", \"%d\", \"%d\"]}\n", px,
			py);
		if (write(fd, request, (size_t)len) != len ||
			!read_reply(fd, reply, sizeof(reply))) {
			fprintf(stderr, "ipc-flood: the control socket went away after %ld\n",
				sent);
			return 1;
		}
		if (strstr(reply, "\"success\": true") == NULL &&
			strstr(reply, "\"success\":true") == NULL) {
			fprintf(stderr, "ipc-flood: refused: %s", reply);
			return 1;
		}
		sent++;
		double next = start + (double)sent * interval, wait = next - now();
		if (wait > 0) {
			struct timespec ts = {
				(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
			nanosleep(&ts, NULL);
		}
	}
	double elapsed = now() - start;
	printf("sent=%ld seconds=%.1f rate=%.0f\n", sent, elapsed, (double)sent / elapsed);
	return 0;
}
