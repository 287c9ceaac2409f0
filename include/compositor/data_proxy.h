/* Cordon-owned pipes between a selection's source and its reader: non-blocking, capped, accounted.
 */
#ifndef CORDON_COMPOSITOR_DATA_PROXY_H
#define CORDON_COMPOSITOR_DATA_PROXY_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct cordon_data_proxy;

enum cordon_transfer_end {
	CORDON_TRANSFER_COMPLETE, /* the source closed its end: everything arrived */
	CORDON_TRANSFER_LIMIT, /* the size limit was reached: the reader got a clean end there */
	CORDON_TRANSFER_READER_GONE, /* the reader closed its end */
	CORDON_TRANSFER_STALLED, /* no progress for the idle timeout: one side is stuck */
	CORDON_TRANSFER_FAILED, /* a read or write error */
	CORDON_TRANSFER_SHUTDOWN, /* cordon is going away */
	CORDON_TRANSFER_TOO_LARGE, /* a transformed transfer's source wrote more than it may */
	CORDON_TRANSFER_REFUSED, /* the transform gave nothing to deliver */
};

/* Called once when a transfer ends, with the bytes that reached the reader. */
typedef void (*cordon_transfer_done_fn)(
	void *data, uint64_t id, uint64_t bytes, enum cordon_transfer_end end);

struct cordon_data_proxy *cordon_data_proxy_create(
	struct wl_event_loop *loop, cordon_transfer_done_fn done, void *data);
/* Ends every transfer in flight (each reported as CORDON_TRANSFER_SHUTDOWN). */
void cordon_data_proxy_destroy(struct cordon_data_proxy *proxy);

/* No progress for this long ends a transfer (milliseconds); tests shorten it. */
void cordon_data_proxy_set_idle_timeout(struct cordon_data_proxy *proxy, int timeout_ms);

/*
 * How many transfers in flight involve this client (as source or reader), or, with a
 * grouping, any client of its group (its app).
 */
int cordon_data_proxy_count(const struct cordon_data_proxy *proxy, const void *client);

/* The group (app) of a client, 0 for none; called with connected clients only. */
typedef uint64_t (*cordon_transfer_group_fn)(const void *client);
/* Counts transfers per group too (cordon_client_app_group): a cap per app, not per client. */
void cordon_data_proxy_set_grouping(
	struct cordon_data_proxy *proxy, cordon_transfer_group_fn group_of);

/*
 * Copies from `from` (the read end of cordon's pipe, whose write end went to
 * the source) to `to` (the reader's fd) without ever blocking, at most
 * `limit` bytes. Takes both fds in every case. source and reader are only
 * compared (for cordon_data_proxy_count), never dereferenced. Returns false,
 * after closing both, when the transfer could not be set up.
 */
bool cordon_data_proxy_start(struct cordon_data_proxy *proxy, int from, int to, uint64_t limit,
	const void *source, const void *reader, uint64_t id);

/*
 * A transfer whose data is changed on the way (file grants rewrite a uri-list): the
 * source's output is read whole, at most collect_limit bytes, then handed to transform,
 * which answers later (or at once) with cordon_data_proxy_deliver(). Called at most once.
 */
typedef void (*cordon_transfer_transform_fn)(
	void *data, uint64_t id, const char *bytes, size_t len);

/* As cordon_data_proxy_start, for a transformed transfer (transform_data is passed back). */
bool cordon_data_proxy_start_transformed(struct cordon_data_proxy *proxy, int from, int to,
	uint64_t collect_limit, const void *source, const void *reader, uint64_t id,
	cordon_transfer_transform_fn transform, void *transform_data);

/*
 * The transformed bytes for transfer id, written to its reader without blocking; takes
 * bytes (malloc'd). NULL ends the transfer as CORDON_TRANSFER_REFUSED. A transfer that
 * already ended (its reader went, it stalled) is ignored.
 */
void cordon_data_proxy_deliver(
	struct cordon_data_proxy *proxy, uint64_t id, char *bytes, size_t len);

const char *cordon_transfer_end_name(enum cordon_transfer_end end);

#endif
