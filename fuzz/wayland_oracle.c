/* The Wayland fuzzer's policy oracle (wayland_oracle.h). */
#include "wayland_oracle.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include "compositor/global_filter.h"

#define MARKER "cordon-fuzz-data-from-sandbox-"

static const char *const sandbox_names[FUZZ_SANDBOX_COUNT] = {
	[FUZZ_HOST] = "the host",
	[FUZZ_SANDBOX_A] = "sandbox A",
	[FUZZ_SANDBOX_B] = "sandbox B",
};

__attribute__((format(printf, 1, 2), noreturn)) static void violation(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "fuzz oracle: broken rule: ");
	vfprintf(stderr, fmt, args);
	fprintf(stderr, "\n");
	va_end(args);
	abort();
}

void fuzz_oracle_own_fd(struct fuzz_oracle *oracle, int fd, enum fuzz_sandbox sandbox) {
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || oracle->owned_count >= FUZZ_ORACLE_OWNED) {
		return;
	}
	oracle->owned[oracle->owned_count].dev = st.st_dev;
	oracle->owned[oracle->owned_count].ino = st.st_ino;
	oracle->owned[oracle->owned_count].sandbox = sandbox;
	oracle->owned_count++;
}

size_t fuzz_oracle_marker(enum fuzz_sandbox sandbox, char *buffer, size_t size) {
	int length = snprintf(buffer, size, MARKER "%d\n", (int)sandbox);
	return length > 0 && (size_t)length < size ? (size_t)length : 0;
}

void fuzz_oracle_check_global(enum fuzz_sandbox receiver, const char *interface) {
	/* The fuzzer's policy grants nothing: a sandbox sees the offered table and no more. */
	if (receiver != FUZZ_HOST && cordon_global_class_of(interface) != CORDON_GLOBAL_OFFERED) {
		violation("%s was told of the global %s, which is not offered to sandboxed apps",
			sandbox_names[receiver], interface);
	}
}

static enum wl_iterator_result check_resource(struct wl_resource *resource, void *data) {
	const char *interface = wl_resource_get_class(resource);
	if (cordon_global_class_of(interface) == CORDON_GLOBAL_HOST_ONLY) {
		violation("a client of a sandbox holds a %s, a host-only global", interface);
	}
	return WL_ITERATOR_CONTINUE;
}

void fuzz_oracle_check_resources(struct wl_client *client, enum fuzz_sandbox sandbox) {
	if (client && sandbox != FUZZ_HOST) {
		wl_client_for_each_resource(client, check_resource, NULL);
	}
}

void fuzz_oracle_check_fd(const struct fuzz_oracle *oracle, int fd, enum fuzz_sandbox receiver,
	const char *interface, const char *event) {
	struct stat st;
	if (fstat(fd, &st) != 0) {
		violation("%s.%s came with an fd that is not open", interface, event);
	}
	for (int i = 0; i < oracle->owned_count; i++) {
		if (oracle->owned[i].dev == st.st_dev && oracle->owned[i].ino == st.st_ino &&
			oracle->owned[i].sandbox != receiver) {
			violation("%s got an fd made by a client of %s, with %s.%s",
				sandbox_names[receiver], sandbox_names[oracle->owned[i].sandbox],
				interface, event);
		}
	}
}

void fuzz_oracle_check_data(
	const char *bytes, size_t length, enum fuzz_sandbox reader, bool user_acted) {
	if (reader == FUZZ_HOST || user_acted) {
		return;
	}
	size_t marker_length = strlen(MARKER);
	for (size_t at = 0; at + marker_length < length; at++) {
		if (memcmp(bytes + at, MARKER, marker_length) != 0) {
			continue;
		}
		int source = bytes[at + marker_length] - '0';
		if (source != (int)reader) {
			violation("%s read data of %s without a user action in its own surfaces",
				sandbox_names[reader],
				source >= 0 && source < FUZZ_SANDBOX_COUNT ? sandbox_names[source]
									   : "another client");
		}
	}
}

/* ID/NAME and nothing more: a document id of the portal's characters, one name after it. */
static bool is_document_rest(const char *rest, char *id, size_t id_size) {
	size_t id_length =
		strspn(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");
	if (id_length == 0 || id_length >= id_size || rest[id_length] != '/' ||
		rest[id_length + 1] == '\0' || strchr(rest + id_length + 1, '/')) {
		return false;
	}
	memcpy(id, rest, id_length);
	id[id_length] = '\0';
	return true;
}

static void check_crossed_uri(const char *uri, enum fuzz_sandbox reader, bool user_acted,
	const struct fuzz_oracle_portal *portal, char *document, size_t size) {
	char prefix[PATH_MAX + 16], id[64];
	if (reader == FUZZ_HOST) {
		snprintf(prefix, sizeof(prefix), "file://%s/", portal->mount_point);
	} else {
		snprintf(prefix, sizeof(prefix), "file:///run/user/%u/doc/", (unsigned)getuid());
	}
	size_t prefix_length = strlen(prefix);
	if (strncmp(uri, prefix, prefix_length) != 0 ||
		!is_document_rest(uri + prefix_length, id, sizeof(id))) {
		violation("%s read a uri-list from across its boundary that names %.200s, not a "
			  "document",
			sandbox_names[reader], uri);
	}
	if (reader == FUZZ_HOST) {
		bool held_by_writer = false;
		for (enum fuzz_sandbox app = FUZZ_SANDBOX_A; app < FUZZ_SANDBOX_COUNT; app++) {
			held_by_writer = held_by_writer ||
				(portal->wrote(portal->data, app, id) &&
					portal->holds(portal->data, app, id));
		}
		if (!held_by_writer) {
			violation(
				"the host read document %s, which no app that named it holds", id);
		}
	} else {
		if (!user_acted) {
			violation(
				"%s read a document path without a user action in its own surfaces",
				sandbox_names[reader]);
		}
		if (!portal->holds(portal->data, reader, id)) {
			violation(
				"%s read document %s, which the portal has not granted to its app",
				sandbox_names[reader], id);
		}
	}
	snprintf(document, size, "%s", uri);
}

static void check_line(struct fuzz_oracle_stream *stream, enum fuzz_sandbox reader, bool user_acted,
	const struct fuzz_oracle_portal *portal, char *document, size_t size) {
	size_t kept =
		stream->length < sizeof(stream->line) ? stream->length : sizeof(stream->line) - 1;
	if (kept > 0 && stream->line[kept - 1] == '\r') {
		kept--;
	}
	stream->line[kept] = '\0';
	const char *line = stream->line;
	bool after_own_marker = stream->after_own_marker;
	stream->after_own_marker = false;
	stream->length = 0;
	size_t marker_length = strlen("#" MARKER);
	if (strncmp(line, "#" MARKER, marker_length) == 0) {
		stream->after_own_marker = line[marker_length] - '0' == (int)reader;
		return;
	}
	if (strncmp(line, "file:", 5) == 0 && !after_own_marker) {
		check_crossed_uri(line, reader, user_acted, portal, document, size);
	}
}

void fuzz_oracle_check_uris(struct fuzz_oracle_stream *stream, const char *bytes, size_t length,
	enum fuzz_sandbox reader, bool user_acted, const struct fuzz_oracle_portal *portal,
	char *document, size_t size) {
	for (size_t i = 0; i < length; i++) {
		if (bytes[i] == '\n') {
			check_line(stream, reader, user_acted, portal, document, size);
			continue;
		}
		/* A NUL would end the line early for the checks: it stands for itself as '?'. */
		if (stream->length < sizeof(stream->line) - 1) {
			stream->line[stream->length] = bytes[i] ? bytes[i] : '?';
		}
		stream->length++;
	}
}

void fuzz_oracle_check_document(
	const char *path, enum fuzz_sandbox app, bool user_acted, const char *hidden) {
	size_t hidden_length = strlen(hidden);
	struct stat st;
	bool exists = lstat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		/*
		 * A folder the file chooser granted (portals/folder_grant.c), after a choice in
		 * cordon's own dialog, a surface of no client: not a paste's or a drop's.
		 */
		return;
	}
	if (!user_acted) {
		violation("the app of %s holds document %.200s without a user action in its "
			  "surfaces",
			sandbox_names[app], path);
	}
	if (strncmp(path, hidden, hidden_length) == 0 && path[hidden_length] == '/') {
		violation("the app of %s was granted %.200s, which only a symlink leads to",
			sandbox_names[app], path);
	}
	if (!exists || !S_ISREG(st.st_mode)) {
		violation("the app of %s was granted %.200s, not a regular file",
			sandbox_names[app], path);
	}
	char real[PATH_MAX];
	if (!realpath(path, real) || strcmp(real, path) != 0) {
		violation("the app of %s was granted %.200s, reached through a symlink",
			sandbox_names[app], path);
	}
}

void fuzz_oracle_check_roundtrip(bool answered, bool disconnected) {
	if (disconnected) {
		violation("a well-behaved host client was disconnected");
	}
	if (!answered) {
		violation("a host client's wl_display.sync was not answered in time");
	}
}

/* What the fds are, for the report of a count that is off. */
static void print_fds(void) {
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;
	while (dir && (entry = readdir(dir))) {
		char path[300], target[256] = "";
		snprintf(path, sizeof(path), "/proc/self/fd/%s", entry->d_name);
		ssize_t length = readlink(path, target, sizeof(target) - 1);
		if (entry->d_name[0] != '.' && length > 0) {
			fprintf(stderr, "  fd %s: %.*s\n", entry->d_name, (int)length, target);
		}
	}
	if (dir) {
		closedir(dir);
	}
}

void fuzz_oracle_check_fd_count(int now, int baseline, int swapchain, int swapchain_baseline) {
	/* wlroots' swapchain holds at most 4 buffers an output. */
	if (now != baseline || swapchain > swapchain_baseline + 4) {
		print_fds();
		violation("with every client gone the process has %d fds open (and %d of the "
			  "swapchain), %d before (and %d)",
			now, swapchain, baseline, swapchain_baseline);
	}
}
