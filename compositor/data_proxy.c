/*
 * The data proxy: across a sandbox boundary the reader's fd never reaches the
 * source (SECURITY-NOTES: wlroots passes the paste fd straight through, so the
 * source would learn when and how much the reader reads, could keep the fd or
 * write without end). Cordon gives the source its own pipe and copies between
 * the two from its event loop: both fds non-blocking, splice() from pipe to
 * pipe (no copy through user space), a read/write buffer when splice cannot
 * serve the reader's fd, a size limit after which the reader sees a clean end,
 * and an idle timeout for a side that is stuck. Nothing here ever waits.
 */
#include "compositor/data_proxy.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wlr/util/log.h>

#define CHUNK (1024 * 1024)
#define PIPE_SIZE (1024 * 1024)
/* Bounded work per wake-up, so that one fast transfer does not starve other clients. */
#define MAX_STEPS_PER_WAKE 16
#define BUFFER_SIZE (64 * 1024)
#define DEFAULT_IDLE_TIMEOUT_MS 30000

struct transfer {
	struct cordon_data_proxy *proxy;
	struct wl_list link; /* cordon_data_proxy.transfers */
	uint64_t id;
	int from, to;
	const void *source, *reader;
	uint64_t source_group, reader_group; /* their apps, 0 for none (the host) */
	uint64_t limit, bytes;
	bool use_buffer; /* splice refused the reader's fd */
	char *buffer;
	size_t buffered, buffer_offset;
	/* to_event is NULL for a reader's fd that epoll cannot watch (a regular file). */
	struct wl_event_source *from_event, *to_event, *timer;
	/* Transformed transfers: collect the source's bytes, wait for them changed, deliver. */
	cordon_transfer_transform_fn transform;
	void *transform_data;
	enum { STREAM, COLLECT, TRANSFORM, DELIVER } stage;
	char *collected;
	size_t collected_len;
	uint64_t collect_limit;
};

struct cordon_data_proxy {
	struct wl_event_loop *loop;
	struct wl_list transfers; /* transfer.link */
	cordon_transfer_done_fn done;
	void *data;
	int idle_timeout_ms;
	cordon_transfer_group_fn group_of; /* NULL: transfers are counted per client only */
};

static void transfer_end(struct transfer *transfer, enum cordon_transfer_end end) {
	struct cordon_data_proxy *proxy = transfer->proxy;
	wl_list_remove(&transfer->link);
	if (transfer->from_event) {
		wl_event_source_remove(transfer->from_event);
	}
	if (transfer->to_event) {
		wl_event_source_remove(transfer->to_event);
	}
	wl_event_source_remove(transfer->timer);
	/* Closing the reader's fd is its end of file: at the limit, a clean end. */
	if (transfer->from >= 0) {
		close(transfer->from);
	}
	close(transfer->to);
	wlr_log(WLR_DEBUG, "Transfer %llu ended (%s) after %llu bytes",
		(unsigned long long)transfer->id, cordon_transfer_end_name(end),
		(unsigned long long)transfer->bytes);
	proxy->done(proxy->data, transfer->id, transfer->bytes, end);
	free(transfer->buffer);
	free(transfer->collected);
	free(transfer);
}

/* Waits for the source to have data (want_write false) or the reader to take some. */
static void transfer_wait(struct transfer *transfer, bool want_write) {
	if (!transfer->to_event) {
		/* A regular file is always ready: only the source is waited for. */
		if (transfer->from_event) {
			wl_event_source_fd_update(transfer->from_event, WL_EVENT_READABLE);
		}
		return;
	}
	if (transfer->from_event) {
		wl_event_source_fd_update(transfer->from_event, want_write ? 0 : WL_EVENT_READABLE);
	}
	wl_event_source_fd_update(transfer->to_event, want_write ? WL_EVENT_WRITABLE : 0);
}

static void transfer_progress(struct transfer *transfer, size_t count) {
	transfer->bytes += count;
	wl_event_source_timer_update(transfer->timer, transfer->proxy->idle_timeout_ms);
}

static size_t transfer_room(const struct transfer *transfer) {
	uint64_t left = transfer->limit - transfer->bytes;
	return left < CHUNK ? (size_t)left : CHUNK;
}

/* One step of the buffered path. Returns false once the transfer ended or must wait. */
static bool buffered_step(struct transfer *transfer) {
	if (transfer->buffered > 0) {
		ssize_t n = write(transfer->to, transfer->buffer + transfer->buffer_offset,
			transfer->buffered);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			transfer_wait(transfer, true);
			return false;
		}
		if (n < 0) {
			transfer_end(transfer,
				errno == EPIPE ? CORDON_TRANSFER_READER_GONE
					       : CORDON_TRANSFER_FAILED);
			return false;
		}
		transfer->buffered -= (size_t)n;
		transfer->buffer_offset += (size_t)n;
		transfer_progress(transfer, (size_t)n);
		return true;
	}
	if (transfer->stage == DELIVER) {
		/* The transformed bytes are all written: that is the whole transfer. */
		transfer_end(transfer, CORDON_TRANSFER_COMPLETE);
		return false;
	}
	size_t room = transfer_room(transfer);
	if (room == 0) {
		transfer_end(transfer, CORDON_TRANSFER_LIMIT);
		return false;
	}
	ssize_t n = read(transfer->from, transfer->buffer, room < BUFFER_SIZE ? room : BUFFER_SIZE);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		transfer_wait(transfer, false);
		return false;
	}
	if (n <= 0) {
		transfer_end(transfer, n == 0 ? CORDON_TRANSFER_COMPLETE : CORDON_TRANSFER_FAILED);
		return false;
	}
	transfer->buffered = (size_t)n;
	transfer->buffer_offset = 0;
	return true;
}

/* One step of the splice path. Returns false once the transfer ended or must wait. */
static bool splice_step(struct transfer *transfer) {
	size_t room = transfer_room(transfer);
	if (room == 0) {
		transfer_end(transfer, CORDON_TRANSFER_LIMIT);
		return false;
	}
	ssize_t n = splice(
		transfer->from, NULL, transfer->to, NULL, room, SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
	if (n > 0) {
		transfer_progress(transfer, (size_t)n);
		return true;
	}
	if (n == 0) {
		transfer_end(transfer, CORDON_TRANSFER_COMPLETE);
		return false;
	}
	if (errno == EAGAIN || errno == EINTR) {
		/* Either side may be the one that is not ready: data waiting means the reader is
		 * full. */
		int waiting = 0;
		if (ioctl(transfer->from, FIONREAD, &waiting) < 0) {
			waiting = 0;
		}
		transfer_wait(transfer, waiting > 0);
		return false;
	}
	if (errno == EINVAL || errno == ENOSYS) {
		/* The reader's fd is not something splice writes to (a tty, an O_APPEND file). */
		transfer->buffer = malloc(BUFFER_SIZE);
		if (!transfer->buffer) {
			transfer_end(transfer, CORDON_TRANSFER_FAILED);
			return false;
		}
		transfer->use_buffer = true;
		return true;
	}
	transfer_end(
		transfer, errno == EPIPE ? CORDON_TRANSFER_READER_GONE : CORDON_TRANSFER_FAILED);
	return false;
}

/* The source is done (or failed): its bytes go to the transform, which answers later. */
static void collect_done(struct transfer *transfer) {
	wl_event_source_remove(transfer->from_event);
	transfer->from_event = NULL;
	close(transfer->from);
	transfer->from = -1;
	transfer->stage = TRANSFORM;
	/* The reader's fd is still watched (mask 0) for a reader that goes meanwhile. */
	transfer->transform(transfer->transform_data, transfer->id,
		transfer->collected ? transfer->collected : "", transfer->collected_len);
}

/* One read of a transformed transfer's source. Returns false once it must wait or stop. */
static bool collect_step(struct transfer *transfer) {
	if (!transfer->collected) {
		transfer->collected = malloc(transfer->collect_limit + 1);
		if (!transfer->collected) {
			transfer_end(transfer, CORDON_TRANSFER_FAILED);
			return false;
		}
	}
	/* One byte more than the limit: a source that fills it wrote too much. */
	size_t room = transfer->collect_limit + 1 - transfer->collected_len;
	ssize_t n = read(transfer->from, transfer->collected + transfer->collected_len,
		room < BUFFER_SIZE ? room : BUFFER_SIZE);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return false;
	}
	if (n < 0) {
		transfer_end(transfer, CORDON_TRANSFER_FAILED);
		return false;
	}
	if (n == 0) {
		collect_done(transfer);
		return false;
	}
	transfer->collected_len += (size_t)n;
	wl_event_source_timer_update(transfer->timer, transfer->proxy->idle_timeout_ms);
	if (transfer->collected_len > transfer->collect_limit) {
		transfer_end(transfer, CORDON_TRANSFER_TOO_LARGE);
		return false;
	}
	return true;
}

static void transfer_pump(struct transfer *transfer) {
	for (int i = 0; i < MAX_STEPS_PER_WAKE; i++) {
		if (transfer->stage == TRANSFORM) {
			return;
		}
		if (transfer->stage == COLLECT) {
			if (!collect_step(transfer)) {
				return;
			}
			continue;
		}
		bool more = transfer->use_buffer ? buffered_step(transfer) : splice_step(transfer);
		if (!more) {
			return;
		}
	}
	/* Still busy: level-triggered events bring us back on the next loop iteration. */
	if (transfer->stage == DELIVER) {
		/* No source to wake us: the reader's readiness does. */
		transfer_wait(transfer, true);
	}
}

static int handle_from_event(int fd, uint32_t mask, void *data) {
	transfer_pump(data);
	return 0;
}

static int handle_to_event(int fd, uint32_t mask, void *data) {
	struct transfer *transfer = data;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		transfer_end(transfer, CORDON_TRANSFER_READER_GONE);
		return 0;
	}
	transfer_pump(transfer);
	return 0;
}

static int handle_timer(void *data) {
	transfer_end(data, CORDON_TRANSFER_STALLED);
	return 0;
}

static bool set_nonblocking(int fd) {
	int flags = fcntl(fd, F_GETFL);
	return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 &&
		fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
}

static struct transfer *transfer_start(struct cordon_data_proxy *proxy, int from, int to,
	uint64_t limit, const void *source, const void *reader, uint64_t id) {
	struct transfer *transfer = calloc(1, sizeof(*transfer));
	if (!transfer || !set_nonblocking(from) || !set_nonblocking(to)) {
		goto fail;
	}
	transfer->proxy = proxy;
	transfer->id = id;
	transfer->from = from;
	transfer->to = to;
	transfer->source = source;
	transfer->reader = reader;
	if (proxy->group_of) {
		/* Both are connected clients now; later they are only compared. */
		transfer->source_group = proxy->group_of(source);
		transfer->reader_group = proxy->group_of(reader);
	}
	transfer->limit = limit;
	/*
	 * Bigger pipes, fewer wake-ups: with the default 64 KiB each splice moves
	 * one pipe's worth. Best effort (capped by fs.pipe-max-size); the reader's
	 * fd may not be a pipe at all.
	 */
	fcntl(from, F_SETPIPE_SZ, PIPE_SIZE);
	fcntl(to, F_SETPIPE_SZ, PIPE_SIZE);
	transfer->from_event = wl_event_loop_add_fd(
		proxy->loop, from, WL_EVENT_READABLE, handle_from_event, transfer);
	/* Mask 0 still reports a reader that hung up. */
	transfer->to_event = wl_event_loop_add_fd(proxy->loop, to, 0, handle_to_event, transfer);
	/* epoll refuses regular files (EPERM), which never block: write to them when ready. */
	bool unwatchable = !transfer->to_event && errno == EPERM;
	transfer->timer = wl_event_loop_add_timer(proxy->loop, handle_timer, transfer);
	if (!transfer->from_event || (!transfer->to_event && !unwatchable) || !transfer->timer) {
		if (transfer->from_event) {
			wl_event_source_remove(transfer->from_event);
		}
		if (transfer->to_event) {
			wl_event_source_remove(transfer->to_event);
		}
		if (transfer->timer) {
			wl_event_source_remove(transfer->timer);
		}
		goto fail;
	}
	wl_event_source_timer_update(transfer->timer, proxy->idle_timeout_ms);
	wl_list_insert(&proxy->transfers, &transfer->link);
	return transfer;

fail:
	free(transfer);
	close(from);
	close(to);
	return NULL;
}

bool cordon_data_proxy_start(struct cordon_data_proxy *proxy, int from, int to, uint64_t limit,
	const void *source, const void *reader, uint64_t id) {
	return transfer_start(proxy, from, to, limit, source, reader, id) != NULL;
}

bool cordon_data_proxy_start_transformed(struct cordon_data_proxy *proxy, int from, int to,
	uint64_t collect_limit, const void *source, const void *reader, uint64_t id,
	cordon_transfer_transform_fn transform, void *transform_data) {
	struct transfer *transfer = transfer_start(proxy, from, to, UINT64_MAX, source, reader, id);
	if (!transfer) {
		return false;
	}
	transfer->stage = COLLECT;
	transfer->collect_limit = collect_limit;
	transfer->transform = transform;
	transfer->transform_data = transform_data;
	return true;
}

void cordon_data_proxy_deliver(
	struct cordon_data_proxy *proxy, uint64_t id, char *bytes, size_t len) {
	struct transfer *transfer, *found = NULL;
	wl_list_for_each(transfer, &proxy->transfers, link) {
		if (transfer->id == id && transfer->stage == TRANSFORM) {
			found = transfer;
			break;
		}
	}
	if (!found) {
		free(bytes);
		return;
	}
	if (!bytes) {
		transfer_end(found, CORDON_TRANSFER_REFUSED);
		return;
	}
	/* Written as the buffered path writes, so a slow reader is waited for the same way. */
	found->stage = DELIVER;
	found->use_buffer = true;
	free(found->buffer);
	found->buffer = bytes;
	found->buffered = len;
	found->buffer_offset = 0;
	wl_event_source_timer_update(found->timer, proxy->idle_timeout_ms);
	transfer_pump(found);
}

int cordon_data_proxy_count(const struct cordon_data_proxy *proxy, const void *client) {
	/*
	 * An app's transfers all count against it, whichever of its connections asked: each
	 * holds up to four fds and a buffer, and an app may open many connections.
	 */
	uint64_t group = proxy->group_of ? proxy->group_of(client) : 0;
	int count = 0;
	struct transfer *transfer;
	wl_list_for_each(transfer, &proxy->transfers, link) {
		if (transfer->source == client || transfer->reader == client ||
			(group != 0 &&
				(transfer->source_group == group ||
					transfer->reader_group == group))) {
			count++;
		}
	}
	return count;
}

void cordon_data_proxy_set_grouping(
	struct cordon_data_proxy *proxy, cordon_transfer_group_fn group_of) {
	proxy->group_of = group_of;
}

static void handle_sigpipe(int signal) {
	/* Nothing: the write that raised it fails with EPIPE, which ends its transfer. */
}

/*
 * A reader that closes its pipe must not kill cordon with SIGPIPE. A handler
 * rather than SIG_IGN: caught signals go back to the default across exec, so
 * the programs cordon spawns get the usual SIGPIPE.
 */
static void catch_sigpipe(void) {
	struct sigaction current;
	if (sigaction(SIGPIPE, NULL, &current) == 0 && current.sa_handler != SIG_DFL) {
		return;
	}
	struct sigaction action = {.sa_handler = handle_sigpipe, .sa_flags = SA_RESTART};
	sigemptyset(&action.sa_mask);
	sigaction(SIGPIPE, &action, NULL);
}

struct cordon_data_proxy *cordon_data_proxy_create(
	struct wl_event_loop *loop, cordon_transfer_done_fn done, void *data) {
	catch_sigpipe();
	struct cordon_data_proxy *proxy = calloc(1, sizeof(*proxy));
	if (!proxy) {
		return NULL;
	}
	proxy->loop = loop;
	proxy->done = done;
	proxy->data = data;
	proxy->idle_timeout_ms = DEFAULT_IDLE_TIMEOUT_MS;
	wl_list_init(&proxy->transfers);
	return proxy;
}

void cordon_data_proxy_set_idle_timeout(struct cordon_data_proxy *proxy, int timeout_ms) {
	proxy->idle_timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_IDLE_TIMEOUT_MS;
}

void cordon_data_proxy_destroy(struct cordon_data_proxy *proxy) {
	if (!proxy) {
		return;
	}
	struct transfer *transfer, *tmp;
	wl_list_for_each_safe(transfer, tmp, &proxy->transfers, link) {
		transfer_end(transfer, CORDON_TRANSFER_SHUTDOWN);
	}
	free(proxy);
}

const char *cordon_transfer_end_name(enum cordon_transfer_end end) {
	switch (end) {
	case CORDON_TRANSFER_COMPLETE:
		return "complete";
	case CORDON_TRANSFER_LIMIT:
		return "truncated-at-limit";
	case CORDON_TRANSFER_READER_GONE:
		return "reader-gone";
	case CORDON_TRANSFER_STALLED:
		return "stalled";
	case CORDON_TRANSFER_FAILED:
		return "failed";
	case CORDON_TRANSFER_SHUTDOWN:
		return "shutdown";
	case CORDON_TRANSFER_TOO_LARGE:
		return "too-large";
	case CORDON_TRANSFER_REFUSED:
		return "refused";
	}
	return "?";
}
