/*
 * The fuzzer's hand-made Wayland client (wayland_client.h). It never links libwayland-client:
 * the wire format is written byte by byte so that a message can be anything, and what comes
 * back is parsed against the same tables the requests are made from.
 */
#include "wayland_client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DISPLAY_ID 1

int fuzz_wl_interface_find(const char *name) {
	for (int i = 0; i < fuzz_wl_interface_count; i++) {
		if (strcmp(fuzz_wl_interfaces[i].name, name) == 0) {
			return i;
		}
	}
	return -1;
}

void fuzz_client_init(struct fuzz_client *client, int fd,
	const struct fuzz_client_listener *listener, void *data) {
	memset(client, 0, sizeof(*client));
	client->fd = fd;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	client->listener = listener;
	client->data = data;
	for (int i = 0; i < FUZZ_CLIENT_OBJECTS; i++) {
		client->objects[i].interface = -1;
		client->server_objects[i].interface = -1;
	}
	client->objects[DISPLAY_ID] = (struct fuzz_object){
		.interface = (int16_t)fuzz_wl_interface_find("wl_display"),
		.alive = true,
		.version = 1,
	};
	client->next_id = DISPLAY_ID + 1;
}

void fuzz_client_finish(struct fuzz_client *client) {
	if (client->fd >= 0) {
		close(client->fd);
		client->fd = -1;
	}
	for (int i = 0; i < client->in_fd_count; i++) {
		close(client->in_fds[i]);
	}
	client->in_fd_count = 0;
}

struct fuzz_object *fuzz_client_object(struct fuzz_client *client, uint32_t id) {
	if (id >= FUZZ_SERVER_ID_BASE) {
		id -= FUZZ_SERVER_ID_BASE;
		return id < FUZZ_CLIENT_OBJECTS ? &client->server_objects[id] : NULL;
	}
	return id > 0 && id < FUZZ_CLIENT_OBJECTS ? &client->objects[id] : NULL;
}

uint32_t fuzz_client_new_id(struct fuzz_client *client, int interface, uint32_t version) {
	if (client->next_id >= FUZZ_CLIENT_OBJECTS) {
		return 0;
	}
	uint32_t id = client->next_id++;
	client->objects[id] = (struct fuzz_object){
		.interface = (int16_t)interface,
		.alive = true,
		.version = version,
	};
	return id;
}

/* Messages */

static void put_bytes(struct fuzz_message *message, const void *bytes, size_t length) {
	size_t padded = (length + 3) & ~(size_t)3;
	if (message->length + padded > sizeof(message->bytes)) {
		message->overflow = true;
		return;
	}
	memcpy(message->bytes + message->length, bytes, length);
	memset(message->bytes + message->length + length, 0, padded - length);
	message->length += padded;
}

void fuzz_message_begin(struct fuzz_message *message, uint32_t id, uint16_t opcode) {
	message->length = 0;
	message->fd_count = 0;
	message->overflow = false;
	fuzz_message_put_u32(message, id);
	fuzz_message_put_u32(message, opcode);
}

void fuzz_message_put_u32(struct fuzz_message *message, uint32_t value) {
	put_bytes(message, &value, sizeof(value));
}

void fuzz_message_put_string(struct fuzz_message *message, const char *text, size_t length) {
	if (!text) {
		fuzz_message_put_u32(message, 0);
		return;
	}
	/* The length counts the NUL; the text may hold NULs of its own (cordon must cope). */
	fuzz_message_put_u32(message, (uint32_t)length + 1);
	if (message->length + length + 1 > sizeof(message->bytes)) {
		message->overflow = true;
		return;
	}
	memcpy(message->bytes + message->length, text, length);
	message->bytes[message->length + length] = '\0';
	size_t padded = (length + 1 + 3) & ~(size_t)3;
	memset(message->bytes + message->length + length + 1, 0, padded - length - 1);
	message->length += padded;
}

void fuzz_message_put_array(struct fuzz_message *message, const uint8_t *bytes, size_t length) {
	fuzz_message_put_u32(message, (uint32_t)length);
	put_bytes(message, bytes, length);
}

void fuzz_message_put_fd(struct fuzz_message *message, int fd) {
	if (message->fd_count >= FUZZ_MESSAGE_FDS) {
		message->overflow = true;
		return;
	}
	message->fds[message->fd_count++] = fd;
}

bool fuzz_message_end(struct fuzz_message *message) {
	if (message->overflow || message->length < 8) {
		return false;
	}
	uint32_t word;
	memcpy(&word, message->bytes + 4, sizeof(word));
	word = (uint32_t)(message->length << 16) | (word & 0xffff);
	memcpy(message->bytes + 4, &word, sizeof(word));
	return true;
}

bool fuzz_client_send(struct fuzz_client *client, const uint8_t *bytes, size_t length,
	const int *fds, int fd_count) {
	if (client->fd < 0 || client->hung_up || length == 0) {
		return false;
	}
	struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
	union {
		char buffer[CMSG_SPACE(sizeof(int) * FUZZ_MESSAGE_FDS)];
		struct cmsghdr align;
	} control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	if (fd_count > 0) {
		msg.msg_control = control.buffer;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)fd_count);
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)fd_count);
		memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * (size_t)fd_count);
	}
	ssize_t sent = sendmsg(client->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (sent < 0) {
		if (errno != EAGAIN) {
			client->hung_up = true;
		}
		return false;
	}
	if ((size_t)sent < length) {
		/* The rest of a message cut short would be the next one's start: the connection
		 * is garbage from here, which cordon must survive, and the fuzzer stops using it.
		 */
		client->hung_up = true;
	}
	return true;
}

/* Parsing events */

struct reader {
	const uint8_t *at, *end;
	bool short_message;
};

static uint32_t read_u32(struct reader *reader) {
	uint32_t value = 0;
	if (reader->end - reader->at < 4) {
		reader->short_message = true;
		return 0;
	}
	memcpy(&value, reader->at, sizeof(value));
	reader->at += 4;
	return value;
}

/* A string or array: its bytes, NULL for an empty or a cut one. */
static const uint8_t *read_blob(struct reader *reader, uint32_t *length) {
	*length = read_u32(reader);
	size_t padded = ((size_t)*length + 3) & ~(size_t)3;
	if ((size_t)(reader->end - reader->at) < padded) {
		reader->short_message = true;
		return NULL;
	}
	const uint8_t *bytes = reader->at;
	reader->at += padded;
	return *length ? bytes : NULL;
}

static int take_fd(struct fuzz_client *client) {
	if (client->in_fd_count == 0) {
		return -1;
	}
	int fd = client->in_fds[0];
	client->in_fd_count--;
	memmove(client->in_fds, client->in_fds + 1, sizeof(int) * (size_t)client->in_fd_count);
	return fd;
}

static void hand_on_fd(
	struct fuzz_client *client, int fd, int interface, const struct fuzz_wl_message *event) {
	if (fd < 0) {
		return;
	}
	if (client->listener && client->listener->fd) {
		client->listener->fd(
			client->data, client, fd, &fuzz_wl_interfaces[interface], event);
	} else {
		close(fd);
	}
}

static void note_global(
	struct fuzz_client *client, uint32_t name, const char *interface, uint32_t version) {
	if (client->listener && client->listener->global) {
		client->listener->global(client->data, client, interface);
	}
	if (client->global_count < FUZZ_CLIENT_GLOBALS) {
		client->globals[client->global_count++] = (struct fuzz_global){
			.name = name,
			.interface = (int16_t)fuzz_wl_interface_find(interface),
			.version = version,
		};
	}
}

static void forget_global(struct fuzz_client *client, uint32_t name) {
	for (int i = 0; i < client->global_count; i++) {
		if (client->globals[i].name == name) {
			client->globals[i] = client->globals[--client->global_count];
			return;
		}
	}
}

/* What the fuzzer needs from the core's own events; the rest is only parsed. */
static void core_event(struct fuzz_client *client, uint32_t id, const char *interface,
	const char *event, const uint32_t *words, const char *text) {
	if (strcmp(interface, "wl_display") == 0) {
		if (strcmp(event, "error") == 0) {
			client->errored = true;
			if (getenv("CORDON_FUZZ_TRACE")) {
				fprintf(stderr, "fuzz-wayland: protocol error on %u: %s\n",
					words[0], text ? text : "");
			}
		} else if (strcmp(event, "delete_id") == 0) {
			struct fuzz_object *object = fuzz_client_object(client, words[0]);
			if (object) {
				object->alive = false;
			}
		}
	} else if (strcmp(interface, "wl_registry") == 0) {
		if (strcmp(event, "global") == 0 && text) {
			note_global(client, words[0], text, words[2]);
		} else if (strcmp(event, "global_remove") == 0) {
			forget_global(client, words[0]);
		}
	} else if (strcmp(interface, "wl_callback") == 0 && id == client->sync_id) {
		client->sync_done = true;
	}
}

static bool is_input_event(const struct fuzz_wl_message *event) {
	return strcmp(event->name, "button") == 0 || strcmp(event->name, "key") == 0 ||
		strcmp(event->name, "down") == 0;
}

/*
 * An output's name and description ("HEADLESS-3", "Headless output 3"): numbered as the
 * process makes outputs, so a later request that carried one would not replay the same.
 */
static bool names_output(const struct fuzz_wl_interface *interface) {
	return strcmp(interface->name, "wl_output") == 0 ||
		strcmp(interface->name, "zxdg_output_v1") == 0;
}

static void parse_event(struct fuzz_client *client, uint32_t id, uint16_t opcode,
	const uint8_t *body, size_t length) {
	struct fuzz_object *object = fuzz_client_object(client, id);
	if (!object || object->interface < 0) {
		/* An object the client never made: drop the fds, as nothing says how many. */
		while (client->in_fd_count > 0) {
			close(take_fd(client));
		}
		return;
	}
	const struct fuzz_wl_interface *interface = &fuzz_wl_interfaces[object->interface];
	if (opcode >= interface->event_count) {
		return;
	}
	const struct fuzz_wl_message *event = &interface->events[opcode];
	struct reader reader = {.at = body, .end = body + length};
	uint32_t words[8] = {0};
	const char *text = NULL;
	for (int i = 0; i < event->arg_count; i++) {
		const struct fuzz_wl_arg *arg = &event->args[i];
		uint32_t value = 0, blob_length = 0;
		const uint8_t *blob = NULL;
		switch (arg->type) {
		case 's':
		case 'a':
			blob = read_blob(&reader, &blob_length);
			if (arg->type == 's' && blob && blob[blob_length - 1] == '\0') {
				text = (const char *)blob;
				if (!names_output(interface)) {
					snprintf(client->last_string, sizeof(client->last_string),
						"%s", text);
				}
			}
			break;
		case 'h':
			hand_on_fd(client, take_fd(client), object->interface, event);
			break;
		case 'n':
			value = read_u32(&reader);
			struct fuzz_object *made = fuzz_client_object(client, value);
			if (made) {
				*made = (struct fuzz_object){
					.interface = arg->interface,
					.alive = arg->interface >= 0,
					.version = object->version,
				};
			}
			break;
		default:
			value = read_u32(&reader);
			if (arg->serial) {
				client->last_serial = value;
				if (is_input_event(event)) {
					client->last_input_serial = value;
				}
			}
			break;
		}
		if (i < 8) {
			words[i] = value;
		}
	}
	if (reader.short_message) {
		return;
	}
	core_event(client, id, interface->name, event->name, words, text);
	if (strcmp(interface->name, "wl_callback") == 0) {
		object->alive = false;
	}
}

static void receive(struct fuzz_client *client) {
	union {
		char buffer[CMSG_SPACE(sizeof(int) * FUZZ_MESSAGE_FDS)];
		struct cmsghdr align;
	} control;
	while (client->in_length < sizeof(client->in)) {
		struct iovec iov = {
			.iov_base = client->in + client->in_length,
			.iov_len = sizeof(client->in) - client->in_length,
		};
		struct msghdr msg = {
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = control.buffer,
			.msg_controllen = sizeof(control.buffer),
		};
		ssize_t got = recvmsg(client->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (got <= 0) {
			if (got == 0 || errno != EAGAIN) {
				client->hung_up = true;
			}
			return;
		}
		client->in_length += (size_t)got;
		for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg); cmsg;
			cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) {
				continue;
			}
			size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fds[FUZZ_MESSAGE_FDS];
			memcpy(fds, CMSG_DATA(cmsg), sizeof(int) * count);
			for (size_t i = 0; i < count; i++) {
				if (client->in_fd_count <
					(int)(sizeof(client->in_fds) / sizeof(int))) {
					client->in_fds[client->in_fd_count++] = fds[i];
				} else {
					close(fds[i]);
				}
			}
		}
	}
}

void fuzz_client_read(struct fuzz_client *client) {
	if (client->fd < 0) {
		return;
	}
	for (;;) {
		receive(client);
		size_t at = 0;
		while (client->in_length - at >= 8) {
			uint32_t header[2];
			memcpy(header, client->in + at, sizeof(header));
			size_t size = header[1] >> 16;
			if (size < 8) {
				/* cordon sent garbage: nothing after it can be parsed. */
				client->hung_up = true;
				client->in_length = 0;
				return;
			}
			if (client->in_length - at < size) {
				break;
			}
			parse_event(client, header[0], (uint16_t)(header[1] & 0xffff),
				client->in + at + 8, size - 8);
			at += size;
		}
		memmove(client->in, client->in + at, client->in_length - at);
		client->in_length -= at;
		if (client->in_length < sizeof(client->in) || client->hung_up) {
			return;
		}
	}
}
