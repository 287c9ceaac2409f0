/*
 * The structure-aware Wayland fuzzer (docs/fuzzing.md, "The Wayland fuzzer"): an input is a
 * sequence of steps on an in-process cordon (wayland_cordon.c). A step connects a client
 * (the host's, or one of two sandboxed apps' through their security-context listeners),
 * disconnects one, sends a request made from the protocol tables (wayland_protocol.h) with
 * arguments decoded from the input (live, wrong or destroyed ids, serials the client was
 * sent, strings from a dictionary or raw, fds of the client's own: memfds, a short memfd,
 * pipes, a socket), sends raw bytes as a message, injects seat input, plugs and unplugs
 * outputs through cordon's control socket, or chooses the text/uri-list a client's sources
 * write (wayland_files.h: real files of every kind a hostile source names). After each step
 * cordon's loop runs (until the files a paste or a drop hands over are granted by the real
 * document portal, wayland_bus.h), every client reads what it was sent, and the policy oracle
 * (wayland_oracle.c) checks what they got and what the portal granted; at the end the outputs
 * are as they were, every client goes, the fd count must be back where it was, and the
 * input's documents are deleted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "wayland_bus.h"
#include "wayland_client.h"
#include "wayland_cordon.h"
#include "wayland_files.h"
#include "wayland_oracle.h"

#define CLIENTS 4
#define STEPS 160
#define PIPES 6
/* Turns of cordon's loop after a step, for a host's round trip, and to see clients go. */
#define STEP_TURNS 3
#define ROUNDTRIP_TURNS 32
#define END_TURNS 256
#define SHM_SIZE 65536
/* Outputs an input may plug in at a time, besides the desktop's own. */
#define ADDED_OUTPUTS 3
#define OUTPUT_NAME_SIZE 32

/* A grant takes a few ms (docs/mediation.md); one that takes a second is left to run. */
#define GRANT_WAIT_MS 2
#define GRANT_WAITS 500
/* Entries of one uri-list step, bytes of a raw entry. */
#define LIST_ENTRIES 4
#define RAW_ENTRY_MAX 64
#define DOCUMENT_URI_MAX 1024

enum step {
	STEP_CONNECT,
	STEP_DISCONNECT,
	STEP_REQUEST, /* the most common: several values */
	STEP_OUTPUT = 8,
	STEP_POINTER_TO_VIEW,
	STEP_POINTER_TO,
	STEP_BUTTON,
	STEP_KEY,
	STEP_RAW,
	STEP_TIME_PASSES,
	STEP_CONTROL,
	STEP_FILES,
	STEP_COUNT,
};

struct input {
	const uint8_t *data;
	size_t size, at;
};

struct fuzzed_client {
	struct run *run;
	struct fuzz_client wire;
	bool used;
	enum fuzz_sandbox sandbox;
	struct wl_client *wl_client; /* NULL once cordon let it go */
	struct wl_listener destroy;
	bool user_acted; /* a key or button the fuzzer injected went to one of its surfaces */
	/* The fds it may send, made when first used (-1 before). */
	int shm_fd, short_shm_fd, socket_fds[2];
	int pipes[PIPES][2];
	int pipe_count;
	/* What was read from each pipe and the socket, line by line, for the uri-list rule. */
	struct fuzz_oracle_stream streams[PIPES + 1];
	/* What its sources write for text/uri-list (a plain file until a step chose). */
	struct fuzz_uri_list *files;
};

struct run {
	struct fuzz_cordon *cordon;
	struct input input;
	struct fuzz_oracle oracle;
	struct fuzzed_client clients[CLIENTS];
	struct fuzzed_client watch; /* a host client that only asks for round trips */
	uint32_t held_buttons; /* bit n: BTN_LEFT + n is down */
	uint8_t held_keys[32]; /* bit per keycode below 256 */
	/*
	 * The process's fds when the input began. Counted for each input: libFuzzer itself opens
	 * fds between inputs (the pipes to its symbolizer).
	 */
	int fd_baseline, swapchain_baseline;
	int control_fd; /* a connection to cordon's control socket, as cordonctl's; -1 for none */
	int screenshots; /* asked for in this input (SCREENSHOTS_MAX) */
	/* The outputs this input plugged in, oldest first, by the names cordon gave them. */
	char added_outputs[ADDED_OUTPUTS][OUTPUT_NAME_SIZE];
	int added_output_count;
	/* The desktop's own output, as the input began, and whether the input unplugged it. */
	char desktop_output[OUTPUT_NAME_SIZE];
	bool desktop_unplugged;

	/* The user acted on a surface of a client of this side in this input. */
	bool acted[FUZZ_SANDBOX_COUNT];
	/* The last document URI a client of each side read, for the lists that side writes. */
	char documents[FUZZ_SANDBOX_COUNT][DOCUMENT_URI_MAX];
	struct fuzz_oracle_portal portal;
	char hidden[512]; /* the folder only symlinks lead to */
	/*
	 * The last document each app was found to hold: a list of 1024 entries of one file is
	 * one document, asked for once (documents go only at the input's end).
	 */
	char held[FUZZ_SANDBOX_COUNT][FUZZ_DOCUMENT_ID_MAX];
	/* The transfer log's next id when the input began, and when documents were last checked. */
	uint64_t input_mark, checked_mark;
};

/* Strings requests may carry: MIME types, app ids, paths, names, and a few hostile ones. */
static const char *const dictionary[] = {
	"text/plain",
	"text/plain;charset=utf-8",
	"UTF8_STRING",
	"TEXT",
	"image/png",
	"text/uri-list",
	"application/x-cordon-fuzz",
	"",
	"org.cordon.FuzzA",
	"org.cordon.FuzzB",
	"org.example.App",
	"flatpak",
	"file:///etc/passwd\r\n",
	"/",
	"/tmp",
	"..",
	"../x",
	"a.txt",
	"*.png",
	"Images",
	"title",
	"\u202elive",
	"\x1b]52;c;AAAA\x07",
	"%s%s%n",
	"default",
	"pointer",
	"text",
};
#define DICTIONARY_SIZE (sizeof(dictionary) / sizeof(dictionary[0]))

/* Keys worth typing: modifiers, letters of bindings and shortcuts, Escape, Return, Tab. */
static const uint32_t keycodes[] = {
	1,
	15,
	16,
	28,
	29,
	30,
	33,
	42,
	46,
	47,
	50,
	56,
	103,
	125,
};
#define KEYCODE_COUNT (sizeof(keycodes) / sizeof(keycodes[0]))
#define BTN_LEFT 0x110

/* Reading the input */

static uint8_t take(struct run *run) {
	struct input *in = &run->input;
	return in->at < in->size ? in->data[in->at++] : 0;
}

static uint32_t take_u32(struct run *run) {
	uint32_t value = 0;
	for (int i = 0; i < 4; i++) {
		value = value << 8 | take(run);
	}
	return value;
}

static bool input_left(const struct run *run) {
	return run->input.at < run->input.size;
}

/* Clients */

static void handle_wl_client_destroy(struct wl_listener *listener, void *data) {
	struct fuzzed_client *client = wl_container_of(listener, client, destroy);
	wl_list_remove(&client->destroy.link);
	client->wl_client = NULL;
}

static void handle_global(void *data, struct fuzz_client *wire, const char *interface) {
	struct fuzzed_client *client = data;
	fuzz_oracle_check_global(client->sandbox, interface);
}

static bool is_source_send(
	const struct fuzz_wl_interface *interface, const struct fuzz_wl_message *event) {
	/* wl_data_source, zwp_primary_selection_source_v1, the data-control sources. */
	return strcmp(event->name, "send") == 0 && strstr(interface->name, "_source");
}

/* The list a client's sources write until a step chose one: a plain file. */
static struct fuzz_uri_list *client_files(struct fuzzed_client *client) {
	if (!client->files) {
		client->files = calloc(1, sizeof(*client->files));
		fuzz_require(client->files != NULL, "memory for a uri-list");
		fuzz_files_append(client->files, fuzz_cordon_scratch_dir(client->run->cordon),
			client->sandbox, FUZZ_FILE_PLAIN, NULL, 0, "");
	}
	return client->files;
}

static void handle_fd(void *data, struct fuzz_client *wire, int fd,
	const struct fuzz_wl_interface *interface, const struct fuzz_wl_message *event) {
	struct fuzzed_client *client = data;
	fuzz_oracle_check_fd(
		&client->run->oracle, fd, client->sandbox, interface->name, event->name);
	if (is_source_send(interface, event)) {
		/*
		 * A source asked for its data writes its uri-list when asked for text/uri-list
		 * (the event's string, just parsed), its sandbox's marker otherwise, and is done.
		 */
		char marker[64];
		const char *bytes = marker;
		size_t length;
		if (strcmp(wire->last_string, "text/uri-list") == 0) {
			struct fuzz_uri_list *files = client_files(client);
			bytes = files->bytes;
			length = files->length;
		} else {
			length = fuzz_oracle_marker(client->sandbox, marker, sizeof(marker));
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		if (write(fd, bytes, length) < 0) {
			/* A reader gone, or a full pipe: nothing to check. */
		}
	}
	close(fd);
}

static const struct fuzz_client_listener client_listener = {
	.global = handle_global,
	.fd = handle_fd,
};

static void send_message(struct fuzz_client *wire, struct fuzz_message *message) {
	if (fuzz_message_end(message)) {
		fuzz_client_send(
			wire, message->bytes, message->length, message->fds, message->fd_count);
	}
}

static void client_init(struct run *run, struct fuzzed_client *client) {
	client->run = run;
	client->shm_fd = client->short_shm_fd = -1;
	client->socket_fds[0] = client->socket_fds[1] = -1;
	client->wire.fd = -1;
}

static bool client_connect(
	struct run *run, struct fuzzed_client *client, enum fuzz_sandbox sandbox) {
	/* A slot's last client left nothing behind: not its consent, not its objects. */
	memset(client, 0, sizeof(*client));
	client_init(run, client);
	struct wl_client *wl_client;
	int fd = fuzz_cordon_connect(run->cordon, sandbox, &wl_client);
	if (fd < 0) {
		return false;
	}
	fuzz_client_init(&client->wire, fd, &client_listener, client);
	client->used = true;
	client->sandbox = sandbox;
	client->wl_client = wl_client;
	client->destroy.notify = handle_wl_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	return true;
}

static void client_close(struct fuzzed_client *client) {
	fuzz_client_finish(&client->wire);
	int *fds[] = {&client->shm_fd, &client->short_shm_fd, &client->socket_fds[0],
		&client->socket_fds[1]};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
	for (int i = 0; i < client->pipe_count; i++) {
		close(client->pipes[i][0]);
		close(client->pipes[i][1]);
	}
	client->pipe_count = 0;
	client->used = false;
	free(client->files);
	client->files = NULL;
}

static struct fuzzed_client *pick_client(struct run *run) {
	uint8_t n = take(run);
	for (int i = 0; i < CLIENTS; i++) {
		struct fuzzed_client *client = &run->clients[(n + i) % CLIENTS];
		if (client->used) {
			return client;
		}
	}
	return NULL;
}

/* The fds a client sends */

static int make_memfd(struct fuzzed_client *client, off_t size) {
	int fd = memfd_create("cordon-fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, size) != 0) {
		fuzz_require(false, "a memfd for the client");
	}
	fuzz_oracle_own_fd(&client->run->oracle, fd, client->sandbox);
	return fd;
}

static int *new_pipe(struct fuzzed_client *client) {
	if (client->pipe_count == PIPES) {
		return client->pipes[PIPES - 1];
	}
	int *ends = client->pipes[client->pipe_count];
	fuzz_require(pipe2(ends, O_CLOEXEC | O_NONBLOCK) == 0, "a pipe for the client");
	fuzz_oracle_own_fd(&client->run->oracle, ends[0], client->sandbox);
	client->pipe_count++;
	return ends;
}

static int client_fd(struct fuzzed_client *client, uint8_t kind) {
	switch (kind % 5) {
	case 0:
		if (client->shm_fd < 0) {
			client->shm_fd = make_memfd(client, SHM_SIZE);
		}
		return client->shm_fd;
	case 1:
		/* Shorter than any pool worth making: reading it past its end is SIGBUS. */
		if (client->short_shm_fd < 0) {
			client->short_shm_fd = make_memfd(client, 256);
		}
		return client->short_shm_fd;
	case 2:
		return new_pipe(client)[1];
	case 3:
		return new_pipe(client)[0];
	default:
		if (client->socket_fds[0] < 0) {
			fuzz_require(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
					     client->socket_fds) == 0,
				"a socket pair for the client");
			fuzz_oracle_own_fd(
				&client->run->oracle, client->socket_fds[0], client->sandbox);
			fuzz_oracle_own_fd(
				&client->run->oracle, client->socket_fds[1], client->sandbox);
		}
		return client->socket_fds[1];
	}
}

/* Requests */

static bool object_matches(const struct fuzz_object *object, int interface) {
	return object->alive && object->interface >= 0 &&
		(interface < 0 || object->interface == interface);
}

/* The n-th live object of the client (its own ids first, then cordon's), 0 for none. */
static uint32_t live_object(struct fuzz_client *wire, unsigned n, int interface) {
	unsigned count = 0;
	for (uint32_t i = 1; i < wire->next_id; i++) {
		count += object_matches(&wire->objects[i], interface);
	}
	for (uint32_t i = 0; i < FUZZ_CLIENT_OBJECTS; i++) {
		count += object_matches(&wire->server_objects[i], interface);
	}
	if (count == 0) {
		return 0;
	}
	n %= count;
	for (uint32_t i = 1; i < wire->next_id; i++) {
		if (object_matches(&wire->objects[i], interface) && n-- == 0) {
			return i;
		}
	}
	for (uint32_t i = 0; i < FUZZ_CLIENT_OBJECTS; i++) {
		if (object_matches(&wire->server_objects[i], interface) && n-- == 0) {
			return FUZZ_SERVER_ID_BASE + i;
		}
	}
	return 0;
}

static uint32_t dead_object(struct fuzz_client *wire) {
	for (uint32_t id = 2; id < wire->next_id; id++) {
		if (!wire->objects[id].alive) {
			return id;
		}
	}
	return wire->next_id + 3;
}

static void put_int(struct run *run, struct fuzz_message *message, struct fuzz_client *wire,
	const struct fuzz_wl_arg *arg) {
	static const uint32_t special[] = {
		0xffffffff, 0x7fffffff, 0x80000000, 0x10000, 1u << 20, 4096, 0xfffffff0, 2};
	uint8_t kind = take(run);
	uint32_t value;
	if (arg->serial && kind < 0x60) {
		value = wire->last_serial;
	} else if (arg->serial && kind < 0xc0) {
		value = wire->last_input_serial;
	} else if (kind < 0xc0) {
		value = take(run);
	} else if (kind < 0xe0) {
		value = (uint32_t)take(run) * 16;
	} else if (kind < 0xf0) {
		value = take_u32(run);
	} else {
		value = special[kind % 8];
	}
	fuzz_message_put_u32(message, value);
}

static void put_string(
	struct run *run, struct fuzz_message *message, const struct fuzz_wl_arg *arg) {
	uint8_t kind = take(run);
	if (arg->nullable && kind == 0xff) {
		fuzz_message_put_string(message, NULL, 0);
	} else if (kind >= 0xf0) {
		/* Raw bytes, NULs and all. */
		size_t length = take(run) % 96;
		char text[96];
		for (size_t i = 0; i < length; i++) {
			text[i] = (char)take(run);
		}
		fuzz_message_put_string(message, text, length);
	} else if (kind >= 0xe0) {
		/* What some client was sent: an activation token, an exported handle, a name. */
		const struct fuzzed_client *from = &run->clients[kind % CLIENTS];
		fuzz_message_put_string(
			message, from->wire.last_string, strlen(from->wire.last_string));
	} else if (kind % 2 == 0) {
		const char *text = dictionary[(kind / 2) % DICTIONARY_SIZE];
		fuzz_message_put_string(message, text, strlen(text));
	} else {
		const char *text = fuzz_wl_interfaces[(kind / 2) % fuzz_wl_interface_count].name;
		fuzz_message_put_string(message, text, strlen(text));
	}
}

static void put_object(struct run *run, struct fuzz_message *message, struct fuzz_client *wire,
	const struct fuzz_wl_arg *arg) {
	uint8_t kind = take(run);
	uint32_t id = 0;
	switch (kind % 8) {
	case 5:
		id = live_object(wire, take(run), -1);
		break;
	case 6:
		id = dead_object(wire);
		break;
	case 7:
		id = 0;
		break;
	default:
		id = live_object(wire, take(run), arg->interface);
		if (id == 0 && !arg->nullable) {
			id = live_object(wire, kind, -1);
		}
		break;
	}
	fuzz_message_put_u32(message, id);
}

/* wl_registry.bind's untyped new id: a global the client was told of, by its interface. */
static void put_bind(struct run *run, struct fuzz_message *message, struct fuzz_client *wire) {
	uint16_t pick = (uint16_t)(take(run) << 8 | take(run));
	int interface = pick % fuzz_wl_interface_count;
	uint32_t name = pick, version = 1;
	bool told = false;
	for (int i = 0; i < wire->global_count; i++) {
		if (wire->globals[i].interface == interface) {
			name = wire->globals[i].name;
			version = wire->globals[i].version;
			told = true;
		}
	}
	if (!told && name >= fuzz_cordon_setup_global_limit(run->cordon)) {
		/*
		 * A name no global has: hot-plugged outputs' globals take new names as the
		 * process goes on, so a number past those made at start-up would name one in a
		 * campaign and none when the saved input is replayed.
		 */
		name = UINT32_MAX - 1;
	}
	if (fuzz_wl_interfaces[interface].version < version) {
		version = fuzz_wl_interfaces[interface].version;
	}
	uint8_t wrong_version = take(run);
	if (wrong_version >= 0xf0) {
		version = wrong_version & 0xf;
	}
	const char *text = fuzz_wl_interfaces[interface].name;
	fuzz_message_put_u32(message, name);
	fuzz_message_put_string(message, text, strlen(text));
	fuzz_message_put_u32(message, version);
	fuzz_message_put_u32(message, fuzz_client_new_id(wire, interface, version));
}

static void put_arg(struct run *run, struct fuzzed_client *client, struct fuzz_message *message,
	const struct fuzz_object *target, const struct fuzz_wl_arg *arg) {
	struct fuzz_client *wire = &client->wire;
	switch (arg->type) {
	case 'i':
	case 'u':
		put_int(run, message, wire, arg);
		break;
	case 'f':
		fuzz_message_put_u32(message, (uint32_t)(int8_t)take(run) * 256u);
		break;
	case 's':
		put_string(run, message, arg);
		break;
	case 'o':
		put_object(run, message, wire, arg);
		break;
	case 'n':
		if (arg->interface < 0) {
			put_bind(run, message, wire);
		} else {
			fuzz_message_put_u32(
				message, fuzz_client_new_id(wire, arg->interface, target->version));
		}
		break;
	case 'a': {
		uint8_t bytes[64];
		size_t length = take(run) % sizeof(bytes);
		for (size_t i = 0; i < length; i++) {
			bytes[i] = take(run);
		}
		fuzz_message_put_array(message, bytes, length);
		break;
	}
	case 'h':
		fuzz_message_put_fd(message, client_fd(client, take(run)));
		break;
	}
}

/* A request the object's version has, mostly; now and then any. */
static int pick_request(
	struct run *run, const struct fuzz_wl_interface *interface, uint32_t version) {
	uint8_t n = take(run);
	if (n >= 0xf8) {
		return n % interface->request_count;
	}
	int eligible = 0;
	for (int i = 0; i < interface->request_count; i++) {
		eligible += interface->requests[i].since <= version;
	}
	if (eligible == 0) {
		return -1;
	}
	n %= eligible;
	for (int i = 0; i < interface->request_count; i++) {
		if (interface->requests[i].since <= version && n-- == 0) {
			return i;
		}
	}
	return -1;
}

static void step_request(struct run *run) {
	struct fuzzed_client *client = pick_client(run);
	if (!client) {
		return;
	}
	struct fuzz_client *wire = &client->wire;
	uint32_t id = live_object(wire, take(run), -1);
	struct fuzz_object *target = fuzz_client_object(wire, id);
	if (!target) {
		return;
	}
	const struct fuzz_wl_interface *interface = &fuzz_wl_interfaces[target->interface];
	if (interface->request_count == 0) {
		return;
	}
	int opcode = pick_request(run, interface, target->version);
	if (opcode < 0) {
		return;
	}
	const struct fuzz_wl_message *request = &interface->requests[opcode];
	struct fuzz_message message;
	fuzz_message_begin(&message, id, (uint16_t)opcode);
	for (int i = 0; i < request->arg_count; i++) {
		const struct fuzz_wl_arg *arg = &request->args[i];
		/* wl_registry.bind's name goes with its untyped new id (put_bind). */
		bool bind_name = i + 1 < request->arg_count && request->args[i + 1].type == 'n' &&
			request->args[i + 1].interface < 0;
		if (!bind_name) {
			put_arg(run, client, &message, target, arg);
		}
	}
	if (getenv("CORDON_FUZZ_TRACE")) {
		fprintf(stderr, "fuzz-wayland: client %d (sandbox %d): %s@%u.%s\n",
			(int)(client - run->clients), (int)client->sandbox, interface->name, id,
			request->name);
	}
	send_message(wire, &message);
	if (request->destructor) {
		target->alive = false;
	}
}

/* Bytes as they come, as a message, with fds or not: a client that lies about sizes. */
static void step_raw(struct run *run) {
	struct fuzzed_client *client = pick_client(run);
	if (!client) {
		return;
	}
	uint8_t bytes[64];
	size_t length = take(run) % sizeof(bytes);
	for (size_t i = 0; i < length; i++) {
		bytes[i] = take(run);
	}
	int fds[2];
	int fd_count = take(run) % 3;
	for (int i = 0; i < fd_count; i++) {
		fds[i] = client_fd(client, take(run));
	}
	fuzz_client_send(&client->wire, bytes, length, fds, fd_count);
}

static void step_connect(struct run *run) {
	enum fuzz_sandbox sandbox = take(run) % FUZZ_SANDBOX_COUNT;
	for (int i = 0; i < CLIENTS; i++) {
		struct fuzzed_client *client = &run->clients[i];
		/* Not a slot whose last client cordon has not let go of yet: its listener is
		 * still on that wl_client. */
		if (client->used || client->wl_client) {
			continue;
		}
		if (!client_connect(run, client, sandbox)) {
			return;
		}
		/* Every client starts with its registry: what it may bind is what it is told. */
		struct fuzz_message message;
		fuzz_message_begin(&message, 1, 1);
		fuzz_message_put_u32(&message,
			fuzz_client_new_id(
				&client->wire, fuzz_wl_interface_find("wl_registry"), 1));
		send_message(&client->wire, &message);
		return;
	}
}

/* Seat input */

static struct fuzzed_client *client_of(struct run *run, struct wl_client *wl_client) {
	for (int i = 0; i < CLIENTS && wl_client; i++) {
		if (run->clients[i].used && run->clients[i].wl_client == wl_client) {
			return &run->clients[i];
		}
	}
	return NULL;
}

/* The user acted on a surface of this client: the consent the oracle looks for. */
static void user_acted_on(struct run *run, struct wl_client *wl_client) {
	struct fuzzed_client *client = client_of(run, wl_client);
	if (client) {
		client->user_acted = true;
		run->acted[client->sandbox] = true;
	}
}

static void step_button(struct run *run) {
	uint8_t b = take(run);
	uint32_t index = b % 3;
	bool pressed = !(run->held_buttons & (1u << index));
	user_acted_on(run, fuzz_cordon_pointer_client(run->cordon));
	fuzz_cordon_button(run->cordon, BTN_LEFT + index, pressed);
	run->held_buttons ^= 1u << index;
}

static void step_key(struct run *run) {
	uint8_t b = take(run);
	uint32_t keycode = b < 0xe0 ? keycodes[b % KEYCODE_COUNT] : take(run);
	bool pressed = !(run->held_keys[keycode / 8] & (1u << (keycode % 8)));
	user_acted_on(run, fuzz_cordon_keyboard_client(run->cordon));
	fuzz_cordon_key(run->cordon, keycode, pressed);
	run->held_keys[keycode / 8] ^= (uint8_t)(1u << (keycode % 8));
}

/* Whatever is down goes up: the next input starts with a seat at rest. */
static void release_input(struct run *run) {
	for (uint32_t i = 0; i < 3; i++) {
		if (run->held_buttons & (1u << i)) {
			fuzz_cordon_button(run->cordon, BTN_LEFT + i, false);
		}
	}
	for (uint32_t keycode = 0; keycode < 256; keycode++) {
		if (run->held_keys[keycode / 8] & (1u << (keycode % 8))) {
			fuzz_cordon_key(run->cordon, keycode, false);
		}
	}
	fuzz_cordon_pointer_to(run->cordon, 0, 0);
}

/* The control socket */

/*
 * What a host's cordonctl may ask. Left out: quit (it ends a run the fuzzer does not have),
 * freeze and thaw (they freeze an app through its cgroup, which is the fuzzer's own), and
 * output-add and output-remove, which the output step sends instead (step_output): it keeps
 * the names of the outputs it plugged in, to unplug them by index and at the end of the input.
 */
/*
 * A screenshot encodes a whole output as PNG: a few tenths of a second in the instrumented
 * build, where the rest of an input takes milliseconds. Past two in an input (which find
 * nothing the first did not), the command asks for the outputs instead: inputs with a dozen
 * ran ten times slower and met the 10 s timeout on a loaded machine.
 */
#define SCREENSHOTS_MAX 2

static const char *const control_commands[] = {
	"outputs",
	"windows",
	"clients",
	"transfers",
	"focus",
	"close",
	"minimize",
	"restore",
	"pointer",
	"key",
	"screenshot",
	"permissions",
	"portal-requests",
	"camera-streams",
	"apps",
	"attention",
	/* Last: an input's control steps name the commands by their index here. */
	"selection",
};
#define CONTROL_COMMAND_COUNT (sizeof(control_commands) / sizeof(control_commands[0]))

static const char *const control_words[] = {
	"1",
	"2",
	"3",
	"0",
	"-1",
	"4294967297",
	"HEADLESS-1", /* the first output now: see control_word */
	"HEADLESS-0", /* no output: wlroots numbers its headless outputs from 1 */
	"move",
	"motion",
	"button",
	"click",
	"press",
	"release",
	"left",
	"right",
	"axis",
	"100",
	"50.5",
	"nan",
	"a",
	"v",
	"ctrl+v",
	"Logo+Escape",
	"Escape",
	"Return",
	"list",
	"cursor",
};
#define CONTROL_WORD_COUNT (sizeof(control_words) / sizeof(control_words[0]))

static void control_connect(struct run *run) {
	const char *path = fuzz_cordon_control_path(run->cordon);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(address.sun_path)) {
		return;
	}
	memcpy(address.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return;
	}
	if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
		close(fd);
		return;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	run->control_fd = fd;
}

/*
 * The name of the n-th output cordon has now (modulo their count), or one no output has.
 * Headless outputs are numbered as the process makes them, so a name written in the input
 * would mean another output, or none, when the input is replayed; an index means the same.
 */
static const char *output_name(struct run *run, unsigned n) {
	const char *name = fuzz_cordon_output_name(run->cordon, n);
	return name ? name : "HEADLESS-0";
}

/*
 * A word of the request's arguments, appended: from the list, or up to 15 bytes of the
 * input as one printable word (no quote or backslash: the request is JSON).
 */
static size_t control_word(struct run *run, char *out) {
	uint8_t kind = take(run);
	if (kind < 0xe0) {
		const char *word = control_words[kind % CONTROL_WORD_COUNT];
		if (strcmp(word, "HEADLESS-1") == 0) {
			/* The desktop's own output, whatever name it has after an input unplugged
			 * it and the end of that input plugged in another (end_outputs). */
			word = output_name(run, 0);
		}
		size_t length = strlen(word);
		memcpy(out, word, length);
		return length;
	}
	size_t length = kind % 16;
	for (size_t i = 0; i < length; i++) {
		uint8_t byte = take(run);
		bool plain = byte > ' ' && byte < 0x7f && byte != '"' && byte != '\\';
		out[i] = plain ? (char)byte : '_';
	}
	return length;
}

/* A cordonctl request: {"command": NAME, "args": [WORD, ...]} and a newline. */
static void step_control(struct run *run) {
	if (run->control_fd < 0) {
		control_connect(run);
	}
	if (run->control_fd < 0) {
		return;
	}
	const char *command = control_commands[take(run) % CONTROL_COMMAND_COUNT];
	int words = take(run) % 4;
	if (strcmp(command, "screenshot") == 0 && run->screenshots++ >= SCREENSHOTS_MAX) {
		command = "outputs";
	}
	char line[512];
	size_t length =
		(size_t)snprintf(line, sizeof(line), "{\"command\": \"%s\", \"args\": [", command);
	if (strcmp(command, "screenshot") == 0) {
		/* Into the scratch folder only; of the output the word count picks. */
		length += (size_t)snprintf(line + length, sizeof(line) - length,
			"\"%s\", \"%s/screenshot.png\"", output_name(run, (unsigned)words),
			fuzz_cordon_scratch_dir(run->cordon));
	} else if (strcmp(command, "permissions") == 0) {
		/* list only: a grant would outlive the input, in the permission store. */
		length += (size_t)snprintf(line + length, sizeof(line) - length, "\"list\"");
	} else {
		for (int i = 0; i < words; i++) {
			length += (size_t)snprintf(
				line + length, sizeof(line) - length, "%s\"", i ? ", " : "");
			length += control_word(run, line + length);
			line[length++] = '"';
		}
	}
	length += (size_t)snprintf(line + length, sizeof(line) - length, "]}\n");
	if (strcmp(command, "pointer") == 0 || strcmp(command, "key") == 0) {
		/* Input through the control socket is the user's as much as the seat's. */
		user_acted_on(run, fuzz_cordon_pointer_client(run->cordon));
		user_acted_on(run, fuzz_cordon_keyboard_client(run->cordon));
	}
	if (getenv("CORDON_FUZZ_TRACE")) {
		fprintf(stderr, "fuzz-wayland: control: %.*s", (int)length, line);
	}
	if (send(run->control_fd, line, length, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		close(run->control_fd);
		run->control_fd = -1;
	}
}

/* What cordon answered on the control socket: read and dropped (a hang-up closes it). */
static void drain_control(struct run *run) {
	char bytes[4096];
	ssize_t got;
	while (run->control_fd >= 0 &&
		(got = recv(run->control_fd, bytes, sizeof(bytes), MSG_DONTWAIT)) != 0) {
		if (got < 0) {
			if (errno != EAGAIN) {
				close(run->control_fd);
				run->control_fd = -1;
			}
			return;
		}
		if (getenv("CORDON_FUZZ_TRACE")) {
			fprintf(stderr, "fuzz-wayland: control answered: %.*s\n",
				(int)(got > 120 ? 120 : got), bytes);
		}
	}
	if (run->control_fd >= 0) {
		close(run->control_fd);
		run->control_fd = -1;
	}
}

/* Outputs coming and going */

/*
 * The sizes an input may plug in: the smallest there is, small, middling and the usual
 * monitor. Each output has a swapchain of up to four buffers of its size (1920x1080: 8 MiB
 * each), so with at most ADDED_OUTPUTS of them the memory stays well within the fuzzer's
 * -rss_limit_mb.
 */
static const struct {
	int width, height;
} output_sizes[] = {
	{1, 1},
	{320, 200},
	{800, 600},
	{1920, 1080},
};
#define OUTPUT_SIZE_COUNT (sizeof(output_sizes) / sizeof(output_sizes[0]))

/* The desktop's own output, as every input begins with (wayland_cordon.c makes it). */
#define DESKTOP_WIDTH 1280
#define DESKTOP_HEIGHT 720

/*
 * Sends cordonctl's output-add or output-remove on a connection of its own and waits for the
 * answer: the output's name in name (when it is not NULL); false when cordon refused.
 */
static bool output_command(struct run *run, const char *command, const char *arg, char *name) {
	char request[128], reply[512];
	snprintf(request, sizeof(request), "{\"command\": \"%s\", \"args\": [\"%s\"]}\n", command,
		arg);
	if (getenv("CORDON_FUZZ_TRACE")) {
		fprintf(stderr, "fuzz-wayland: output: %s", request);
	}
	if (!fuzz_cordon_control(run->cordon, request, reply, sizeof(reply))) {
		return false;
	}
	struct json_object *answer = json_tokener_parse(reply);
	struct json_object *success, *result, *named;
	bool ok = answer && json_object_object_get_ex(answer, "success", &success) &&
		json_object_get_boolean(success) &&
		json_object_object_get_ex(answer, "result", &result) &&
		json_object_object_get_ex(result, "name", &named);
	if (ok && name) {
		snprintf(name, OUTPUT_NAME_SIZE, "%s", json_object_get_string(named));
	}
	json_object_put(answer);
	return ok;
}

static void output_add(struct run *run, int width, int height, char *name) {
	char size[32];
	snprintf(size, sizeof(size), "%dx%d", width, height);
	fuzz_require(output_command(run, "output-add", size, name), "cordon plugged an output in");
}

static void output_remove(struct run *run, const char *name) {
	fuzz_require(
		output_command(run, "output-remove", name, NULL), "cordon unplugged an output");
}

/*
 * A monitor plugged in or unplugged, or the pointer moved onto one. Below 0x80, an even byte
 * plugs one in (its size from the table), an odd one unplugs one that this input plugged in,
 * by its index among them (their names grow from input to input). From 0x80 the pointer goes
 * to the output of that index among all cordon has (the desktop's first), at a point given in
 * 256ths of its width and height: where a window maps, and a layer surface without an output
 * goes. From 0xf0, the desktop's own output is unplugged.
 *
 * The desktop's own output goes too, as a laptop's lid closes: with no output at all, windows,
 * layer surfaces, a lock and the pointer have nowhere to be, which is where a compositor goes
 * wrong. end_outputs plugs a 1280x720 output in again at the end, so the next input starts
 * from the same desktop (its name is another: words and screenshots name outputs by index,
 * output_name). It is one byte in sixteen, as an input without the desktop's output cannot
 * do much else.
 */
static void step_output(struct run *run) {
	uint8_t b = take(run);
	if (b >= 0xf0) {
		if (!run->desktop_unplugged) {
			output_remove(run, run->desktop_output);
			run->desktop_unplugged = true;
		}
	} else if (b >= 0x80) {
		uint8_t x = take(run);
		fuzz_cordon_pointer_to_output(run->cordon, b - 0x80u, x, take(run));
	} else if (b % 2 == 0) {
		if (run->added_output_count == ADDED_OUTPUTS) {
			return;
		}
		int pick = (b / 2) % OUTPUT_SIZE_COUNT;
		output_add(run, output_sizes[pick].width, output_sizes[pick].height,
			run->added_outputs[run->added_output_count]);
		run->added_output_count++;
	} else if (run->added_output_count > 0) {
		int n = (b / 2) % run->added_output_count;
		output_remove(run, run->added_outputs[n]);
		/* The others keep their order: an index means the same output to the end. */
		memmove(run->added_outputs[n], run->added_outputs[n + 1],
			(size_t)(run->added_output_count - n - 1) * OUTPUT_NAME_SIZE);
		run->added_output_count--;
	}
}

/* The outputs as the input found them: the added ones unplugged, the desktop's own back. */
static void end_outputs(struct run *run) {
	while (run->added_output_count > 0) {
		output_remove(run, run->added_outputs[--run->added_output_count]);
	}
	/* Switched off or changed (output power, output management): replaced, as if unplugged
	 * and plugged in again, so that the next input finds it as it was. */
	if (!run->desktop_unplugged &&
		!fuzz_cordon_output_as_made(
			run->cordon, run->desktop_output, DESKTOP_WIDTH, DESKTOP_HEIGHT)) {
		output_remove(run, run->desktop_output);
		run->desktop_unplugged = true;
	}
	if (run->desktop_unplugged) {
		/* With no other output it goes where the old one was, at 0,0 of the layout. */
		output_add(run, DESKTOP_WIDTH, DESKTOP_HEIGHT, run->desktop_output);
		run->desktop_unplugged = false;
	}
	fuzz_require(fuzz_cordon_output_count(run->cordon) == 1,
		"the desktop has one output again at the end of the input");
}

/* The text/uri-list a client's sources write: entries from the input (wayland_files.h). */
static void step_files(struct run *run) {
	struct fuzzed_client *client = pick_client(run);
	if (!client) {
		return;
	}
	struct fuzz_uri_list *files = client_files(client);
	files->length = 0;
	int entries = 1 + take(run) % LIST_ENTRIES;
	for (int i = 0; i < entries; i++) {
		enum fuzz_file_kind kind = take(run) % FUZZ_FILE_KIND_COUNT;
		uint8_t raw[RAW_ENTRY_MAX];
		size_t raw_length = 0;
		if (kind == FUZZ_FILE_RAW) {
			raw_length = take(run) % sizeof(raw);
			for (size_t j = 0; j < raw_length; j++) {
				raw[j] = take(run);
			}
		}
		/* Another side's: B's for A, A's for B and the host (a stolen document id). */
		enum fuzz_sandbox side = kind != FUZZ_FILE_OTHERS_DOCUMENT ? client->sandbox
			: client->sandbox == FUZZ_SANDBOX_A                ? FUZZ_SANDBOX_B
									   : FUZZ_SANDBOX_A;
		fuzz_files_append(files, fuzz_cordon_scratch_dir(run->cordon), client->sandbox,
			kind, raw, raw_length, run->documents[side]);
	}
}

/* After each step */

static void read_clients(struct run *run) {
	for (int i = 0; i < CLIENTS; i++) {
		if (run->clients[i].used) {
			fuzz_client_read(&run->clients[i].wire);
		}
	}
}

static void check_readable(
	struct fuzzed_client *client, int fd, struct fuzz_oracle_stream *stream) {
	struct run *run = client->run;
	char bytes[4096];
	ssize_t got;
	while ((got = recv(fd, bytes, sizeof(bytes), MSG_DONTWAIT)) > 0 ||
		(got < 0 && errno == ENOTSOCK && (got = read(fd, bytes, sizeof(bytes))) > 0)) {
		fuzz_oracle_check_data(bytes, (size_t)got, client->sandbox, client->user_acted);
		fuzz_oracle_check_uris(stream, bytes, (size_t)got, client->sandbox,
			client->user_acted, &run->portal, run->documents[client->sandbox],
			sizeof(run->documents[client->sandbox]));
	}
}

/* What came out of the pipes and the socket each client gave to be written into. */
static void check_pipes(struct run *run) {
	for (int i = 0; i < CLIENTS; i++) {
		struct fuzzed_client *client = &run->clients[i];
		if (!client->used) {
			continue;
		}
		for (int p = 0; p < client->pipe_count; p++) {
			check_readable(client, client->pipes[p][0], &client->streams[p]);
		}
		if (client->socket_fds[0] >= 0) {
			check_readable(client, client->socket_fds[0], &client->streams[PIPES]);
		}
	}
}

static void check_roundtrip(struct run *run) {
	struct fuzz_client *wire = &run->watch.wire;
	struct fuzz_message message;
	wire->sync_done = false;
	wire->sync_id = fuzz_client_new_id(wire, fuzz_wl_interface_find("wl_callback"), 1);
	if (wire->sync_id == 0) {
		/* Out of ids: start the count again (the old callbacks are all gone). */
		wire->next_id = 2;
		wire->sync_id = fuzz_client_new_id(wire, fuzz_wl_interface_find("wl_callback"), 1);
	}
	fuzz_message_begin(&message, 1, 0);
	fuzz_message_put_u32(&message, wire->sync_id);
	send_message(wire, &message);
	for (int i = 0; i < ROUNDTRIP_TURNS && !wire->sync_done && !wire->hung_up; i++) {
		fuzz_cordon_dispatch(run->cordon);
		fuzz_client_read(wire);
	}
	fuzz_oracle_check_roundtrip(wire->sync_done, wire->hung_up || wire->errored);
}

struct document_search {
	const char *id;
	bool found;
};

static void find_document(void *data, const char *id, const char *path) {
	struct document_search *search = data;
	search->found = search->found || strcmp(id, search->id) == 0;
}

/* Does the app of this sandbox hold the document (the portal's List)? */
static bool portal_holds(void *data, enum fuzz_sandbox app, const char *id) {
	struct run *run = data;
	if (strcmp(run->held[app], id) == 0) {
		return true;
	}
	struct document_search search = {.id = id};
	fuzz_bus_each_document(
		fuzz_cordon_bus(run->cordon), fuzz_cordon_app_id(app), find_document, &search);
	if (search.found) {
		snprintf(run->held[app], sizeof(run->held[app]), "%s", id);
	}
	return search.found;
}

/* Does a list of a client of this sandbox name the document (as /doc/ID/)? */
static bool lists_name(void *data, enum fuzz_sandbox app, const char *id) {
	struct run *run = data;
	char needle[128];
	int length = snprintf(needle, sizeof(needle), "/doc/%s/", id);
	for (int i = 0; i < CLIENTS; i++) {
		const struct fuzzed_client *client = &run->clients[i];
		if (client->used && client->sandbox == app && client->files &&
			memmem(client->files->bytes, client->files->length, needle,
				(size_t)length)) {
			return true;
		}
	}
	return false;
}

struct document_check {
	struct run *run;
	enum fuzz_sandbox app;
};

static void check_document(void *data, const char *id, const char *path) {
	struct document_check *check = data;
	fuzz_oracle_check_document(
		path, check->app, check->run->acted[check->app], check->run->hidden);
}

static void check_documents(struct run *run) {
	for (enum fuzz_sandbox app = FUZZ_SANDBOX_A; app < FUZZ_SANDBOX_COUNT; app++) {
		struct document_check check = {.run = run, .app = app};
		fuzz_bus_each_document(fuzz_cordon_bus(run->cordon), fuzz_cordon_app_id(app),
			check_document, &check);
	}
	run->checked_mark = fuzz_cordon_transfer_mark(run->cordon);
}

/*
 * A uri-list on its way waits for a thread and the portal, which answer on their own
 * schedule: the loop turns until they have (what the readers get is read meanwhile), so that
 * an input replays the same way each time.
 */
static void wait_for_grants(struct run *run) {
	for (int i = 0; i < GRANT_WAITS && fuzz_cordon_granting(run->cordon); i++) {
		fuzz_cordon_wait(run->cordon, GRANT_WAIT_MS);
		read_clients(run);
		check_pipes(run);
	}
}

static void after_step(struct run *run) {
	for (int i = 0; i < STEP_TURNS; i++) {
		fuzz_cordon_dispatch(run->cordon);
		read_clients(run);
		drain_control(run);
	}
	wait_for_grants(run);
	for (int i = 0; i < STEP_TURNS; i++) {
		fuzz_cordon_dispatch(run->cordon);
		read_clients(run);
	}
	check_pipes(run);
	if (fuzz_cordon_granted_since(run->cordon, run->checked_mark)) {
		check_documents(run);
	}
	for (int i = 0; i < CLIENTS; i++) {
		fuzz_oracle_check_resources(run->clients[i].wl_client, run->clients[i].sandbox);
	}
	check_roundtrip(run);
}

static bool clients_gone(struct run *run) {
	for (int i = 0; i < CLIENTS; i++) {
		if (run->clients[i].wl_client) {
			return false;
		}
	}
	return !run->watch.wl_client;
}

/* The outputs as they were; every client goes; cordon must let go of everything they cost. */
static void end_run(struct run *run) {
	release_input(run);
	/* While the clients are still there: they see the outputs go, as a user's apps would. */
	end_outputs(run);
	fuzz_cordon_dispatch(run->cordon);
	wait_for_grants(run);
	/* Documents come only from grants: an input without one (most) asks the portal nothing. */
	if (fuzz_cordon_granted_since(run->cordon, run->input_mark)) {
		check_documents(run);
		/* Documents outlive the input in the portal: the next starts from none. */
		for (enum fuzz_sandbox app = FUZZ_SANDBOX_A; app < FUZZ_SANDBOX_COUNT; app++) {
			fuzz_bus_forget_documents(
				fuzz_cordon_bus(run->cordon), fuzz_cordon_app_id(app));
		}
	}
	for (int i = 0; i < CLIENTS; i++) {
		if (run->clients[i].used) {
			client_close(&run->clients[i]);
		}
	}
	client_close(&run->watch);
	if (run->control_fd >= 0) {
		close(run->control_fd);
		run->control_fd = -1;
	}
	int now = 0, swapchain = 0;
	int baseline = run->fd_baseline, swapchain_baseline = run->swapchain_baseline;
	for (int i = 0; i < END_TURNS; i++) {
		fuzz_cordon_dispatch(run->cordon);
		now = fuzz_cordon_fd_count(&swapchain);
		if (clients_gone(run) && now == baseline) {
			break;
		}
	}
	if (getenv("CORDON_FUZZ_TRACE")) {
		fprintf(stderr, "fuzz-wayland: end: %d fds (%d before), %d of swapchains (%d)\n",
			now, baseline, swapchain, swapchain_baseline);
	}
	fuzz_require(clients_gone(run), "cordon let every client go once its connection closed");
	fuzz_oracle_check_fd_count(now, baseline, swapchain, swapchain_baseline);
}

static void run_step(struct run *run) {
	uint8_t step = take(run) % STEP_COUNT;
	if (step >= STEP_REQUEST && step < STEP_OUTPUT) {
		step_request(run);
		return;
	}
	switch (step) {
	case STEP_CONNECT:
		step_connect(run);
		break;
	case STEP_DISCONNECT: {
		struct fuzzed_client *client = pick_client(run);
		if (client) {
			client_close(client);
		}
		break;
	}
	case STEP_POINTER_TO_VIEW: {
		uint8_t n = take(run), dx = take(run);
		fuzz_cordon_pointer_to_view(run->cordon, n, dx, take(run));
		break;
	}
	case STEP_POINTER_TO: {
		double x = take(run) * 5.0;
		fuzz_cordon_pointer_to(run->cordon, x, take(run) * 3.0);
		break;
	}
	case STEP_BUTTON:
		step_button(run);
		break;
	case STEP_KEY:
		step_key(run);
		break;
	case STEP_RAW:
		step_raw(run);
		break;
	case STEP_TIME_PASSES:
		fuzz_cordon_time_passes(run->cordon);
		break;
	case STEP_CONTROL:
		step_control(run);
		break;
	case STEP_OUTPUT:
		step_output(run);
		break;
	case STEP_FILES:
		step_files(run);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct run *run = calloc(1, sizeof(*run));
	fuzz_require(run != NULL, "memory for the run");
	run->cordon = fuzz_cordon_get();
	/* Every input starts from the same desktop: one output (end_outputs). */
	fuzz_require(fuzz_cordon_output_count(run->cordon) == 1, "the desktop has one output");
	snprintf(run->desktop_output, sizeof(run->desktop_output), "%s", output_name(run, 0));
	run->fd_baseline = fuzz_cordon_fd_count(&run->swapchain_baseline);
	run->input = (struct input){.data = data, .size = size};
	run->control_fd = -1;
	run->input_mark = run->checked_mark = fuzz_cordon_transfer_mark(run->cordon);
	run->portal = (struct fuzz_oracle_portal){
		.mount_point = fuzz_bus_mount_point(fuzz_cordon_bus(run->cordon)),
		.holds = portal_holds,
		.wrote = lists_name,
		.data = run,
	};
	fuzz_files_hidden(fuzz_cordon_scratch_dir(run->cordon), run->hidden, sizeof(run->hidden));
	for (int i = 0; i < CLIENTS; i++) {
		client_init(run, &run->clients[i]);
	}
	fuzz_require(client_connect(run, &run->watch, FUZZ_HOST), "the host's watch client");
	for (int i = 0; i < STEPS && input_left(run); i++) {
		run_step(run);
		after_step(run);
	}
	end_run(run);
	free(run);
	return 0;
}
