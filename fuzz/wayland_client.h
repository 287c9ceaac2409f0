/*
 * A Wayland client that speaks the wire format by hand, for the Wayland fuzzer: it writes
 * whatever message it is given (malformed ones too) with whatever fds, and reads and parses
 * what cordon sends back with the tables of wayland_protocol.h, keeping the ids it knows of,
 * the globals it was told of and the last serial, and handing every fd it gets to its owner.
 */
#ifndef CORDON_FUZZ_WAYLAND_CLIENT_H
#define CORDON_FUZZ_WAYLAND_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wayland_protocol.h"

#define FUZZ_CLIENT_OBJECTS 256
#define FUZZ_CLIENT_GLOBALS 96
#define FUZZ_SERVER_ID_BASE 0xff000000u
/* libwayland's limit on one message, and on fds per sendmsg. */
#define FUZZ_MESSAGE_MAX 4096
#define FUZZ_MESSAGE_FDS 28

struct fuzz_object {
	int16_t interface; /* index in fuzz_wl_interfaces; -1: no such object */
	bool alive;
	uint32_t version;
};

struct fuzz_global {
	uint32_t name;
	int16_t interface; /* -1: an interface the tables do not have */
	uint32_t version;
};

struct fuzz_client;

/* What the client's owner is told while the client parses what cordon sent. */
struct fuzz_client_listener {
	/* A wl_registry.global event. */
	void (*global)(void *data, struct fuzz_client *client, const char *interface);
	/* An fd came with an event; the callee owns it and closes it. */
	void (*fd)(void *data, struct fuzz_client *client, int fd,
		const struct fuzz_wl_interface *interface, const struct fuzz_wl_message *event);
};

struct fuzz_client {
	int fd; /* the client's end of its connection; -1 once closed */
	const struct fuzz_client_listener *listener;
	void *data;
	bool errored; /* cordon posted a protocol error: it is disconnecting the client */
	bool hung_up; /* the connection ended */

	struct fuzz_object objects[FUZZ_CLIENT_OBJECTS]; /* ids 1..: the client's own */
	uint32_t next_id;
	struct fuzz_object server_objects[FUZZ_CLIENT_OBJECTS]; /* ids from 0xff000000 */
	struct fuzz_global globals[FUZZ_CLIENT_GLOBALS];
	int global_count;
	uint32_t last_serial;
	/* Of the last button, key or touch: what a copy or a drag must name (a configure that
	 * follows the click that focused a window is not one). */
	uint32_t last_input_serial;
	char last_string[128]; /* of the last event with a string: tokens, handles, names */

	uint32_t sync_id; /* of a wl_display.sync waited for; 0 for none */
	bool sync_done;

	uint8_t in[65536];
	size_t in_length;
	int in_fds[FUZZ_MESSAGE_FDS * 4];
	int in_fd_count;
};

/* A message being put together: the header's size is written by fuzz_message_end. */
struct fuzz_message {
	uint8_t bytes[FUZZ_MESSAGE_MAX];
	size_t length;
	int fds[FUZZ_MESSAGE_FDS];
	int fd_count;
	bool overflow; /* what did not fit was dropped */
};

/* Takes fd (made non-blocking); the client gets wl_display as id 1. */
void fuzz_client_init(struct fuzz_client *client, int fd,
	const struct fuzz_client_listener *listener, void *data);
/* Closes the connection and every fd not yet handed on. */
void fuzz_client_finish(struct fuzz_client *client);

/* The index of an interface by name, -1 if the tables have none. */
int fuzz_wl_interface_find(const char *name);

void fuzz_message_begin(struct fuzz_message *message, uint32_t id, uint16_t opcode);
void fuzz_message_put_u32(struct fuzz_message *message, uint32_t value);
/* NULL is the null string. */
void fuzz_message_put_string(struct fuzz_message *message, const char *text, size_t length);
void fuzz_message_put_array(struct fuzz_message *message, const uint8_t *bytes, size_t length);
void fuzz_message_put_fd(struct fuzz_message *message, int fd);
/* Writes the size into the header; false when it does not fit. */
bool fuzz_message_end(struct fuzz_message *message);

/* Writes the bytes and fds (which stay the caller's); false when cordon would not take them. */
bool fuzz_client_send(struct fuzz_client *client, const uint8_t *bytes, size_t length,
	const int *fds, int fd_count);
/* Reads and parses all that cordon sent so far. */
void fuzz_client_read(struct fuzz_client *client);

/* A new id for an object of this interface and version, 0 when the client has run out. */
uint32_t fuzz_client_new_id(struct fuzz_client *client, int interface, uint32_t version);
/* The object with this id (the client's or cordon's), NULL for none. */
struct fuzz_object *fuzz_client_object(struct fuzz_client *client, uint32_t id);

#endif
