/*
 * Unit tests for the data proxy on a bare wl_event_loop (no display): data
 * arrives intact, the size limit ends the reader's stream cleanly, a reader
 * that goes away or a source that stalls ends the transfer, and a reader that
 * never reads does not keep the loop from running other work.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include "compositor/data_proxy.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);            \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

struct outcome {
	int ended;
	uint64_t id, bytes;
	enum cordon_transfer_end end;
};

static void handle_done(void *data, uint64_t id, uint64_t bytes, enum cordon_transfer_end end) {
	struct outcome *outcome = data;
	outcome->ended++;
	outcome->id = id;
	outcome->bytes = bytes;
	outcome->end = end;
}

static int ticks;
static struct wl_event_source *tick;
static int handle_tick(void *data) {
	ticks++;
	wl_event_source_timer_update(tick, 1);
	return 0;
}

/* Runs the loop until the transfer ended or timeout_ms of loop time passed. */
static void run(struct wl_event_loop *loop, struct outcome *outcome, int timeout_ms) {
	for (int waited = 0; !outcome->ended && waited < timeout_ms; waited += 10) {
		wl_event_loop_dispatch(loop, 10);
	}
}

/* A pair of pipes: the source writes into source[1], the reader reads reader[0]. */
static void make_pipes(int source[2], int reader[2]) {
	if (pipe2(source, O_CLOEXEC) < 0 || pipe2(reader, O_CLOEXEC) < 0) {
		perror("pipe2");
		exit(1);
	}
}

static size_t drain(int fd, char *buffer, size_t size) {
	size_t total = 0;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		ssize_t n = read(fd, buffer ? buffer + total : (char[65536]){0},
			buffer ? size - total : 65536);
		if (n <= 0) {
			return total;
		}
		total += (size_t)n;
	}
}

static void test_complete(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	int source[2], reader[2];
	make_pipes(source, reader);
	const char text[] = "byte for byte: \xc3\xbc\xc3\xb1\xc3\xaf";
	CHECK(cordon_data_proxy_start(proxy, source[0], reader[1], 1 << 20, "src", "dst", 7));
	CHECK(cordon_data_proxy_count(proxy, "src") == 1 &&
		cordon_data_proxy_count(proxy, "dst") == 1);
	CHECK(write(source[1], text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(source[1]);
	run(loop, &outcome, 2000);
	char got[64] = {0};
	size_t n = drain(reader[0], got, sizeof(got));
	CHECK(outcome.ended == 1 && outcome.id == 7 && outcome.end == CORDON_TRANSFER_COMPLETE);
	CHECK(outcome.bytes == sizeof(text) - 1 && n == sizeof(text) - 1 &&
		memcmp(got, text, n) == 0);
	CHECK(cordon_data_proxy_count(proxy, "src") == 0);
	close(reader[0]);
	cordon_data_proxy_destroy(proxy);
}

static void test_limit(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	int source[2], reader[2];
	make_pipes(source, reader);
	fcntl(source[1], F_SETFL, O_NONBLOCK);
	CHECK(cordon_data_proxy_start(proxy, source[0], reader[1], 1000, "src", "dst", 1));
	char block[4096];
	memset(block, 'x', sizeof(block));
	CHECK(write(source[1], block, sizeof(block)) == (ssize_t)sizeof(block));
	run(loop, &outcome, 2000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_LIMIT && outcome.bytes == 1000);
	/* A clean end: exactly the limit, then end of file. */
	CHECK(drain(reader[0], NULL, 0) == 1000);
	char c;
	CHECK(read(reader[0], &c, 1) == 0);
	/* The source's pipe is closed: its next write fails instead of blocking. */
	CHECK(write(source[1], block, 1) < 0 && errno == EPIPE);
	close(source[1]);
	close(reader[0]);
	cordon_data_proxy_destroy(proxy);
}

static void test_reader_gone(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	int source[2], reader[2];
	make_pipes(source, reader);
	CHECK(cordon_data_proxy_start(proxy, source[0], reader[1], 1 << 20, "src", "dst", 2));
	close(reader[0]);
	CHECK(write(source[1], "abc", 3) == 3);
	run(loop, &outcome, 2000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_READER_GONE);
	close(source[1]);
	cordon_data_proxy_destroy(proxy);
}

/* A reader that never reads and a source that never ends: the loop keeps running. */
static void test_stuck(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	cordon_data_proxy_set_idle_timeout(proxy, 300);
	int source[2], reader[2];
	make_pipes(source, reader);
	fcntl(source[1], F_SETFL, O_NONBLOCK);
	CHECK(cordon_data_proxy_start(proxy, source[0], reader[1], 1 << 30, "src", "dst", 3));
	tick = wl_event_loop_add_timer(loop, handle_tick, NULL);
	wl_event_source_timer_update(tick, 1);
	ticks = 0;
	char block[65536] = {0};
	/* Fill every pipe in between; the writes never block, nor does cordon's loop. */
	for (int i = 0; i < 200 && !outcome.ended; i++) {
		if (write(source[1], block, sizeof(block)) < 0 && errno != EAGAIN) {
			break;
		}
		wl_event_loop_dispatch(loop, 1);
	}
	run(loop, &outcome, 3000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_STALLED);
	CHECK(outcome.bytes > 0 && outcome.bytes < (uint64_t)200 * sizeof(block));
	CHECK(ticks > 50);
	wl_event_source_remove(tick);
	close(source[1]);
	close(reader[0]);
	cordon_data_proxy_destroy(proxy);
}

/* A reader that passes a regular file (epoll cannot watch it) still gets everything. */
static void test_regular_file(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	int source[2], reader[2];
	make_pipes(source, reader);
	close(reader[0]);
	close(reader[1]);
	char path[] = "/tmp/cordon-test-proxy-XXXXXX";
	int file = mkstemp(path);
	CHECK(file >= 0);
	unlink(path);
	int out = dup(file);
	CHECK(cordon_data_proxy_start(proxy, source[0], out, 1 << 20, "src", "dst", 5));
	char block[100000];
	memset(block, 'y', sizeof(block));
	for (size_t done = 0; done < sizeof(block);) {
		ssize_t n = write(source[1], block + done, sizeof(block) - done);
		if (n <= 0) {
			break;
		}
		done += (size_t)n;
		wl_event_loop_dispatch(loop, 0);
	}
	close(source[1]);
	run(loop, &outcome, 2000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_COMPLETE &&
		outcome.bytes == sizeof(block));
	CHECK(lseek(file, 0, SEEK_END) == (off_t)sizeof(block));
	close(file);
	cordon_data_proxy_destroy(proxy);
}

static void test_shutdown(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	int source[2], reader[2];
	make_pipes(source, reader);
	CHECK(cordon_data_proxy_start(proxy, source[0], reader[1], 1 << 20, "src", "dst", 4));
	cordon_data_proxy_destroy(proxy);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_SHUTDOWN);
	char c;
	CHECK(read(reader[0], &c, 1) == 0);
	close(source[1]);
	close(reader[0]);
}

/* What a transform saw, and what it answers with (now, or later from the test). */
struct transform {
	struct cordon_data_proxy *proxy;
	int calls;
	uint64_t id;
	char seen[64];
	size_t len;
	const char *answer_now; /* delivered from within the callback */
};

static void handle_transform(void *data, uint64_t id, const char *bytes, size_t len) {
	struct transform *t = data;
	t->calls++;
	t->id = id;
	t->len = len;
	memcpy(t->seen, bytes, len < sizeof(t->seen) ? len : sizeof(t->seen));
	if (t->answer_now) {
		cordon_data_proxy_deliver(
			t->proxy, id, strdup(t->answer_now), strlen(t->answer_now));
	}
}

static void run_until_transform(struct wl_event_loop *loop, struct transform *t) {
	for (int waited = 0; !t->calls && waited < 2000; waited += 10) {
		wl_event_loop_dispatch(loop, 10);
	}
}

/* The source's bytes are read whole, changed, and the new bytes reach the reader. */
static void test_transformed(struct wl_event_loop *loop, bool answer_now) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	struct transform t = {.proxy = proxy, .answer_now = answer_now ? "rewritten\r\n" : NULL};
	int source[2], reader[2];
	make_pipes(source, reader);
	CHECK(cordon_data_proxy_start_transformed(
		proxy, source[0], reader[1], 100, "src", "dst", 9, handle_transform, &t));
	CHECK(write(source[1], "file:///a\r\n", 11) == 11);
	wl_event_loop_dispatch(loop, 10);
	CHECK(t.calls == 0);
	close(source[1]);
	run_until_transform(loop, &t);
	CHECK(t.calls == 1 && t.id == 9 && t.len == 11 && memcmp(t.seen, "file:///a\r\n", 11) == 0);
	/* Still in flight while the transform works: it counts against the caps. */
	CHECK(answer_now || cordon_data_proxy_count(proxy, "dst") == 1);
	if (!answer_now) {
		cordon_data_proxy_deliver(proxy, 9, strdup("rewritten\r\n"), 11);
	}
	run(loop, &outcome, 2000);
	char got[64] = {0};
	size_t n = drain(reader[0], got, sizeof(got));
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_COMPLETE && outcome.bytes == 11);
	CHECK(n == 11 && memcmp(got, "rewritten\r\n", 11) == 0);
	CHECK(t.calls == 1);
	/* A late answer for a transfer that ended is dropped. */
	cordon_data_proxy_deliver(proxy, 9, strdup("late"), 4);
	close(reader[0]);
	cordon_data_proxy_destroy(proxy);
}

/* Over the collect limit: no transform, the reader gets a clean empty end. */
static void test_transform_too_large(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	struct transform t = {.proxy = proxy};
	int source[2], reader[2];
	make_pipes(source, reader);
	fcntl(source[1], F_SETFL, O_NONBLOCK);
	CHECK(cordon_data_proxy_start_transformed(
		proxy, source[0], reader[1], 100, "src", "dst", 10, handle_transform, &t));
	char block[101];
	memset(block, 'z', sizeof(block));
	CHECK(write(source[1], block, sizeof(block)) == (ssize_t)sizeof(block));
	run(loop, &outcome, 2000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_TOO_LARGE && outcome.bytes == 0);
	CHECK(t.calls == 0);
	char c;
	CHECK(read(reader[0], &c, 1) == 0);
	close(source[1]);
	close(reader[0]);
	cordon_data_proxy_destroy(proxy);
}

/* Nothing to deliver (NULL): refused, a clean end; a reader that goes meanwhile ends it too. */
static void test_transform_refused_and_gone(struct wl_event_loop *loop) {
	struct outcome outcome = {0};
	struct cordon_data_proxy *proxy = cordon_data_proxy_create(loop, handle_done, &outcome);
	struct transform t = {.proxy = proxy};
	int source[2], reader[2];
	make_pipes(source, reader);
	CHECK(cordon_data_proxy_start_transformed(
		proxy, source[0], reader[1], 100, "src", "dst", 11, handle_transform, &t));
	close(source[1]);
	run_until_transform(loop, &t);
	cordon_data_proxy_deliver(proxy, 11, NULL, 0);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_REFUSED);
	char c;
	CHECK(read(reader[0], &c, 1) == 0);
	close(reader[0]);

	outcome = (struct outcome){0};
	t = (struct transform){.proxy = proxy};
	make_pipes(source, reader);
	CHECK(cordon_data_proxy_start_transformed(
		proxy, source[0], reader[1], 100, "src", "dst", 12, handle_transform, &t));
	close(source[1]);
	run_until_transform(loop, &t);
	close(reader[0]);
	run(loop, &outcome, 2000);
	CHECK(outcome.ended == 1 && outcome.end == CORDON_TRANSFER_READER_GONE);
	cordon_data_proxy_deliver(proxy, 12, strdup("late"), 4);
	cordon_data_proxy_destroy(proxy);
}

int main(void) {
	struct wl_event_loop *loop = wl_event_loop_create();
	test_transformed(loop, false);
	test_transformed(loop, true);
	test_transform_too_large(loop);
	test_transform_refused_and_gone(loop);
	test_complete(loop);
	test_limit(loop);
	test_reader_gone(loop);
	test_stuck(loop);
	test_regular_file(loop);
	test_shutdown(loop);
	wl_event_loop_destroy(loop);
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("data proxy: all checks pass\n");
	return 0;
}
