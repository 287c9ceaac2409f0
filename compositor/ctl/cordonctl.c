/* cordonctl: sends one command to cordon's control socket and prints the reply (docs/ipc.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/escape.h"

#ifndef CORDON_VERSION
#define CORDON_VERSION "unknown"
#endif

#define EXIT_USAGE 2
/* Far more than any listing needs; stops a confused peer from eating memory. */
#define MAX_REPLY_SIZE (64 * 1024 * 1024)

typedef void (*result_printer)(struct json_object *result);

struct command {
	const char *name;
	const char *args; /* for --help */
	const char *help;
	int min_args, max_args; /* max -1: no limit */
	result_printer print;
};

static void print_outputs(struct json_object *result);
static void print_windows(struct json_object *result);
static void print_clients(struct json_object *result);
static void print_screenshot(struct json_object *result);
static void print_permissions(struct json_object *result);
static void print_portal_requests(struct json_object *result);
static void print_camera_streams(struct json_object *result);
static void print_transfers(struct json_object *result);
static void print_selection(struct json_object *result);
static void print_apps(struct json_object *result);
static void print_attention(struct json_object *result);
static void print_x11_servers(struct json_object *result);

static const struct command commands[] = {
	{"outputs", "", "list the outputs", 0, 0, print_outputs},
	{"windows", "", "list the windows, top first", 0, 0, print_windows},
	{"clients", "", "list the connected clients", 0, 0, print_clients},
	{"transfers", "", "list cross-boundary clipboard and drag transfers, oldest first", 0, 0,
		print_transfers},
	{"selection", "",
		"what the clipboard and the primary selection hold, and the focused client's offer",
		0, 0, print_selection},
	{"focus", "WINDOW", "focus a window (an id from 'windows', or an app_id)", 1, 1, NULL},
	{"close", "WINDOW", "ask a window to close", 1, 1, NULL},
	{"minimize", "WINDOW", "minimize a window", 1, 1, NULL},
	{"restore", "WINDOW", "bring a minimized window back", 1, 1, NULL},
	{"pointer",
		"move X Y | motion DX DY | button NAME|CODE [press|release|click] | axis vertical|horizontal VALUE",
		"drive the virtual pointer", 2, 3, NULL},
	{"key", "[press|release|click] KEY...",
		"type keys: keysym names with modifiers (ctrl+shift+a, super+Return) or code:N", 1,
		-1, NULL},
	{"screenshot", "OUTPUT FILE [cursor]", "write the output's contents to a PNG file", 2, 3,
		print_screenshot},
	{"permissions", "list | grant|revoke|deny APP_ID PORTAL",
		"portal permissions: allow without asking, back to asking, or refuse", 1, 3,
		print_permissions},
	{"portal-requests", "", "list the portal requests waiting for the user", 0, 0,
		print_portal_requests},
	{"camera-streams", "", "list the open camera streams and where their indicator is", 0, 0,
		print_camera_streams},
	{"quit", "", "make cordon exit", 0, 0, NULL},
	{"apps", "", "list the apps: tag, cgroup, frozen, boosted, since when", 0, 0, print_apps},
	{"freeze", "APP", "freeze an app (its app id, or ENGINE/APP_ID/INSTANCE)", 1, 1,
		print_apps},
	{"thaw", "APP", "thaw a frozen app", 1, 1, print_apps},
	{"output-add", "WIDTHxHEIGHT", "hot-plug a headless output (cordon --headless only)", 1, 1,
		NULL},
	{"output-remove", "OUTPUT", "unplug a headless output (cordon --headless only)", 1, 1,
		NULL},
	{"attention", "", "what the secure attention overlay shows, if it is open", 0, 0,
		print_attention},
	{"x11-servers", "", "list cordon's X servers: display, socket, process, whose", 0, 0,
		print_x11_servers},
};

static void usage(FILE *out) {
	fprintf(out,
		"Usage: cordonctl [--json] [--socket PATH] COMMAND [ARGS...]\n"
		"\n"
		"Options:\n"
		"  -j, --json         print the result as JSON, on one line\n"
		"  -s, --socket PATH  the control socket (default: $CORDON_SOCKET, else\n"
		"                     $XDG_RUNTIME_DIR/cordon.$WAYLAND_DISPLAY.sock)\n"
		"  -h, --help         show this help\n"
		"  -v, --version      show the version\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *command = &commands[i];
		fprintf(out, "  %s%s%s\n      %s\n", command->name, command->args[0] ? " " : "",
			command->args, command->help);
	}
}

static int usage_error(void) {
	fprintf(stderr,
		"Usage: cordonctl [--json] [--socket PATH] COMMAND [ARGS...]\n"
		"See cordonctl --help for the commands.\n");
	return EXIT_USAGE;
}

static const struct command *find_command(const char *name) {
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name) == 0) {
			return &commands[i];
		}
	}
	return NULL;
}

/* Only the shape of pointer's words: the compositor checks the values. */
static bool pointer_args_ok(int argc, char **argv) {
	const char *sub = argv[0];
	if (strcmp(sub, "move") == 0 || strcmp(sub, "motion") == 0 || strcmp(sub, "axis") == 0) {
		return argc == 3;
	}
	if (strcmp(sub, "button") == 0) {
		return argc == 2 || argc == 3;
	}
	return false;
}

static bool args_ok(const struct command *command, int argc, char **argv) {
	if (argc < command->min_args || (command->max_args >= 0 && argc > command->max_args)) {
		return false;
	}
	if (strcmp(command->name, "pointer") == 0) {
		return pointer_args_ok(argc, argv);
	}
	return true;
}

static char *socket_path_from_env(void) {
	const char *env = getenv("CORDON_SOCKET");
	if (env != NULL && env[0] != '\0') {
		return strdup(env);
	}
	const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
	if (runtime_dir == NULL || runtime_dir[0] == '\0') {
		fprintf(stderr,
			"cordonctl: XDG_RUNTIME_DIR is not set; "
			"use --socket PATH or set CORDON_SOCKET\n");
		return NULL;
	}
	const char *display = getenv("WAYLAND_DISPLAY");
	if (display == NULL || display[0] == '\0') {
		display = "wayland-0";
	}
	char *path;
	if (asprintf(&path, "%s/cordon.%s.sock", runtime_dir, display) < 0) {
		return NULL;
	}
	return path;
}

/* A connect() cut short by a signal goes on in the background: wait for its outcome. */
static int finish_interrupted_connect(int fd) {
	struct pollfd pfd = {.fd = fd, .events = POLLOUT};
	while (poll(&pfd, 1, -1) < 0) {
		if (errno != EINTR) {
			return -1;
		}
	}
	int err = 0;
	socklen_t len = sizeof(err);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
		return -1;
	}
	errno = err;
	return err == 0 ? 0 : -1;
}

static int connect_to(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "cordonctl: socket path %s is too long\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);

	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fprintf(stderr, "cordonctl: socket: %s\n", strerror(errno));
		return -1;
	}
	int ret = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
	if (ret < 0 && errno == EINTR) {
		ret = finish_interrupted_connect(fd);
	}
	if (ret < 0) {
		fprintf(stderr, "cordonctl: cannot connect to %s: %s (is cordon running?)\n", path,
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static bool write_all(int fd, const char *buf, size_t len) {
	while (len > 0) {
		/* MSG_NOSIGNAL: a compositor that went away is an error message, not SIGPIPE */
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return false;
		}
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/*
 * Reads up to the first '\n' (which is dropped). Returns a malloc'ed string, or
 * NULL with errno set; errno 0 means the peer closed without sending anything.
 */
static char *read_line(int fd) {
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	if (buf == NULL) {
		return NULL;
	}
	while (true) {
		if (cap - len < 2) {
			if (cap >= MAX_REPLY_SIZE) {
				free(buf);
				errno = EMSGSIZE;
				return NULL;
			}
			char *bigger = realloc(buf, cap * 2);
			if (bigger == NULL) {
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0) {
			/* a last line without its '\n' still counts */
			if (len == 0) {
				free(buf);
				errno = 0;
				return NULL;
			}
			buf[len] = '\0';
			return buf;
		}
		char *newline = memchr(buf + len, '\n', (size_t)n);
		len += (size_t)n;
		if (newline != NULL) {
			*newline = '\0';
			return buf;
		}
	}
}

static const char *get_string(struct json_object *obj, const char *key, const char *fallback) {
	struct json_object *value;
	if (!json_object_object_get_ex(obj, key, &value) ||
		!json_object_is_type(value, json_type_string)) {
		return fallback;
	}
	return json_object_get_string(value);
}

static int64_t get_int(struct json_object *obj, const char *key) {
	struct json_object *value;
	if (!json_object_object_get_ex(obj, key, &value)) {
		return 0;
	}
	return json_object_get_int64(value);
}

static double get_double(struct json_object *obj, const char *key) {
	struct json_object *value;
	if (!json_object_object_get_ex(obj, key, &value)) {
		return 0;
	}
	return json_object_get_double(value);
}

static bool get_bool(struct json_object *obj, const char *key) {
	struct json_object *value;
	return json_object_object_get_ex(obj, key, &value) && json_object_get_boolean(value);
}

static void print_json(struct json_object *result) {
	printf("%s\n",
		json_object_to_json_string_ext(
			result, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/*
 * Every string in a reply may come from a client or a file name (app ids, titles, mime
 * types, paths): in text output each is escaped (common/escape.c), so that what an app
 * chooses can neither drive the terminal (OSC 52 sets the clipboard) nor start a line of its
 * own. The JSON output is json-c's, which escapes control characters and stays exact.
 */
static void print_text(const char *s, unsigned flags) {
	char *escaped = cordon_escape_dup(s, flags);
	fputs(escaped ? escaped : "?", stdout);
	free(escaped);
}

/* A field of a space-separated listing: spaces escaped too, so that it stays one field. */
static void print_word(const char *s) {
	print_text(s, CORDON_ESCAPE_SPACE);
}

/* Text shown between quotes, such as a title. */
static void print_quoted(const char *s) {
	putchar('"');
	print_text(s, CORDON_ESCAPE_QUOTE);
	putchar('"');
}

/* Prints each element of an array of objects, or falls back to JSON for anything else. */
static void print_each(struct json_object *result, void (*print_one)(struct json_object *obj)) {
	if (!json_object_is_type(result, json_type_array)) {
		print_json(result);
		return;
	}
	size_t n = json_object_array_length(result);
	for (size_t i = 0; i < n; i++) {
		struct json_object *obj = json_object_array_get_idx(result, i);
		if (json_object_is_type(obj, json_type_object)) {
			print_one(obj);
		} else {
			print_json(obj);
		}
	}
}

static void print_flag(struct json_object *obj, const char *key) {
	if (get_bool(obj, key)) {
		printf(" %s", key);
	}
}

static void print_geometry(struct json_object *obj) {
	printf("%" PRId64 "x%" PRId64 "%+" PRId64 "%+" PRId64, get_int(obj, "width"),
		get_int(obj, "height"), get_int(obj, "x"), get_int(obj, "y"));
}

/* A string field as one word of the listing; "-" for an empty one when dash is set. */
static void print_field(struct json_object *obj, const char *key, const char *fallback) {
	print_word(get_string(obj, key, fallback));
}

static void print_field_or_dash(struct json_object *obj, const char *key) {
	const char *value = get_string(obj, key, "");
	print_word(value[0] != '\0' ? value : "-");
}

static void print_output(struct json_object *obj) {
	print_field(obj, "name", "?");
	putchar(' ');
	print_geometry(obj);
	printf(" scale=%g %.3fHz ", get_double(obj, "scale"),
		(double)get_int(obj, "refresh_mhz") / 1000.0);
	print_quoted(get_string(obj, "description", ""));
	if (!get_bool(obj, "enabled")) {
		fputs(" disabled", stdout);
	}
	print_flag(obj, "focused");
	putchar('\n');
}

static void print_outputs(struct json_object *result) {
	print_each(result, print_output);
}

static void print_window(struct json_object *obj) {
	printf("%" PRId64 " ", get_int(obj, "id"));
	print_field_or_dash(obj, "app_id");
	putchar(' ');
	print_quoted(get_string(obj, "title", ""));
	printf(" pid=%" PRId64 " ", get_int(obj, "pid"));
	if (get_bool(obj, "x11")) {
		fputs("x11=", stdout);
		print_field(obj, "x11_display", "?");
		putchar(' ');
	}
	print_geometry(obj);
	print_flag(obj, "focused");
	print_flag(obj, "minimized");
	print_flag(obj, "maximized");
	print_flag(obj, "fullscreen");
	/* The owner's tag, which the app_id at the start of this line is not. */
	const char *sandbox_app_id = get_string(obj, "sandbox_app_id", "");
	printf(" [%s", get_bool(obj, "sandboxed") ? "sandboxed " : "");
	print_field(obj, "sandbox_engine", "?");
	if (sandbox_app_id[0]) {
		putchar(' ');
		print_word(sandbox_app_id);
	}
	putchar(']');
	/* The label cordon draws around it, in the colour the user sees. */
	struct json_object *label = NULL;
	if (json_object_object_get_ex(obj, "label", &label) && label) {
		fputs(" label=", stdout);
		print_field(label, "color", "?");
		putchar(' ');
		print_quoted(get_string(label, "text", ""));
	}
	putchar('\n');
}

static void print_windows(struct json_object *result) {
	print_each(result, print_window);
}

static void print_client(struct json_object *obj) {
	const char *app_id = get_string(obj, "app_id", "");
	const char *instance = get_string(obj, "instance", "");
	printf("pid=%" PRId64 " uid=%" PRId64 " gid=%" PRId64 " windows=%" PRId64
	       " globals=%" PRId64 " ",
		get_int(obj, "pid"), get_int(obj, "uid"), get_int(obj, "gid"),
		get_int(obj, "windows"), get_int(obj, "globals"));
	print_field(obj, "engine", "?");
	if (app_id[0]) {
		putchar(' ');
		print_word(app_id);
	}
	if (instance[0]) {
		fputs(" instance=", stdout);
		print_word(instance);
	}
	printf("%s from ", get_bool(obj, "sandboxed") ? " [sandboxed]" : "");
	print_field(obj, "tag_source", "?");
	putchar('\n');
}

static void print_clients(struct json_object *result) {
	print_each(result, print_client);
}

static void print_transfer(struct json_object *obj) {
	time_t when = (time_t)get_double(obj, "time");
	struct tm tm;
	char stamp[32] = "?";
	if (localtime_r(&when, &tm)) {
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	}
	printf("%" PRId64 " %s ", get_int(obj, "id"), stamp);
	print_field(obj, "kind", "?");
	putchar(' ');
	print_field(obj, "source", "?");
	fputs(" -> ", stdout);
	print_field(obj, "destination", "?");
	putchar(' ');
	print_field_or_dash(obj, "mime_type");
	printf(" %" PRId64 " bytes ", get_int(obj, "bytes"));
	print_field(obj, "decision", "?");
	putchar('\n');
}

static void print_transfers(struct json_object *result) {
	print_each(result, print_transfer);
}

/* "clipboard host text/plain,UTF8_STRING -> flatpak:org.x/1: proxied (mediated)" */
static void print_one_selection(struct json_object *obj) {
	print_field(obj, "kind", "?");
	struct json_object *source;
	if (!json_object_object_get_ex(obj, "source", &source) || !source) {
		printf(" empty\n");
		return;
	}
	putchar(' ');
	print_field(obj, "source", "?");
	putchar(' ');
	struct json_object *types;
	if (json_object_object_get_ex(obj, "mime_types", &types) &&
		json_object_is_type(types, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(types); i++) {
			if (i > 0) {
				putchar(',');
			}
			print_word(json_object_get_string(json_object_array_get_idx(types, i)));
		}
	}
	printf(" -> ");
	print_field(obj, "offered_to", "?");
	printf(": ");
	print_field(obj, "offer", "?");
	printf(" (");
	print_field(obj, "reason", "?");
	printf(")\n");
}

static void print_selection(struct json_object *result) {
	print_each(result, print_one_selection);
}

static void print_screenshot(struct json_object *result) {
	if (!json_object_is_type(result, json_type_object)) {
		print_json(result);
		return;
	}
	print_field(result, "file", "?");
	printf(" %" PRId64 "x%" PRId64 "\n", get_int(result, "width"), get_int(result, "height"));
}

static void print_permission(struct json_object *obj) {
	print_field(obj, "app_id", "?");
	putchar(' ');
	print_field(obj, "portal", "?");
	putchar(' ');
	print_field(obj, "permission", "?");
	struct json_object *folders;
	if (json_object_object_get_ex(obj, "folders", &folders) &&
		json_object_is_type(folders, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(folders); i++) {
			putchar(' ');
			print_quoted(json_object_get_string(json_object_array_get_idx(folders, i)));
		}
	}
	putchar('\n');
}

static void print_permissions(struct json_object *result) {
	if (json_object_is_type(result, json_type_object)) {
		print_permission(result);
		return;
	}
	print_each(result, print_permission);
}

static void print_portal_request(struct json_object *obj) {
	print_field(obj, "token", "?");
	putchar(' ');
	print_field(obj, "portal", "?");
	putchar(' ');
	print_field_or_dash(obj, "app_id");
	printf(" pid=%" PRId64 "%s\n", get_int(obj, "pid"),
		get_bool(obj, "sandboxed") ? " [sandboxed]" : "");
}

static void print_portal_requests(struct json_object *result) {
	print_each(result, print_portal_request);
}

static void print_camera_stream(struct json_object *obj) {
	print_field_or_dash(obj, "app_id");
	fputs(" provider=", stdout);
	print_field(obj, "provider", "?");
	printf(" pid=%" PRId64 " %" PRId64 "x%" PRId64 " frames=%" PRId64 " dropped=%" PRId64
	       " bytes=%" PRId64 "\n",
		get_int(obj, "pid"), get_int(obj, "width"), get_int(obj, "height"),
		get_int(obj, "frames"), get_int(obj, "dropped"), get_int(obj, "bytes"));
}

static void print_camera_streams(struct json_object *result) {
	struct json_object *streams = NULL, *close_box = NULL;
	json_object_object_get_ex(result, "streams", &streams);
	print_each(streams, print_camera_stream);
	if (json_object_object_get_ex(result, "indicator_close", &close_box) && close_box) {
		printf("indicator close button at %" PRId64 ",%" PRId64 " %" PRId64 "x%" PRId64
		       "\n",
			get_int(close_box, "x"), get_int(close_box, "y"),
			get_int(close_box, "width"), get_int(close_box, "height"));
	}
}

static void print_x11_server(struct json_object *obj) {
	print_field(obj, "display", "?");
	putchar(' ');
	print_quoted(get_string(obj, "socket", ""));
	fputs(get_bool(obj, "running") ? " running " : " idle ", stdout);
	print_field(obj, "engine", "?");
	const char *app_id = get_string(obj, "app_id", "");
	const char *instance = get_string(obj, "instance", "");
	if (app_id[0]) {
		putchar(' ');
		print_word(app_id);
	}
	if (instance[0]) {
		fputs(" instance=", stdout);
		print_word(instance);
	}
	puts(get_bool(obj, "sandboxed") ? " [sandboxed]" : "");
}

static void print_x11_servers(struct json_object *result) {
	print_each(result, print_x11_server);
}

static void print_attention(struct json_object *result) {
	if (!get_bool(result, "open")) {
		puts("the attention overlay is closed");
		return;
	}
	struct json_object *lines = NULL;
	json_object_object_get_ex(result, "lines", &lines);
	size_t count = lines ? json_object_array_length(lines) : 0;
	for (size_t i = 0; i < count; i++) {
		/* Escaped again: the terminal trusts cordonctl, not the socket's peer. */
		print_text(json_object_get_string(json_object_array_get_idx(lines, i)), 0);
		putchar('\n');
	}
}

/* "frozen 12s" style: how long ago an epoch-milliseconds time was. */
static void print_since(const char *what, int64_t since_ms) {
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	int64_t ago = ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 - since_ms) / 1000;
	putchar(' ');
	print_word(what);
	printf(" %" PRId64 "s", ago < 0 ? 0 : ago);
}

static void print_app(struct json_object *obj) {
	print_field(obj, "app", "?");
	printf(" clients=%" PRId64 " cgroup=", get_int(obj, "clients"));
	print_quoted(get_string(obj, "cgroup", ""));
	print_since(get_string(obj, "state", "?"), get_int(obj, "since"));
	if (get_bool(obj, "manual")) {
		printf(" (manual)");
	}
	if (get_bool(obj, "boosted")) {
		print_since("boosted", get_int(obj, "boosted_since"));
	}
	printf(" policy=%s\n", get_bool(obj, "policy") ? "on" : "off");
}

static void print_apps(struct json_object *result) {
	/* freeze and thaw answer with the one app. */
	if (json_object_is_type(result, json_type_object)) {
		print_app(result);
		return;
	}
	print_each(result, print_app);
}

static void print_result(const struct command *command, struct json_object *result) {
	if (result == NULL) {
		return;
	}
	if (command->print != NULL) {
		command->print(result);
	} else if (json_object_is_type(result, json_type_string)) {
		print_text(json_object_get_string(result), 0);
		putchar('\n');
	} else {
		print_json(result);
	}
}

/* The compositor resolves paths in its own working directory, not ours. */
static char *absolute_path(const char *path) {
	if (path[0] == '/') {
		return strdup(path);
	}
	char *cwd = getcwd(NULL, 0);
	if (cwd == NULL) {
		fprintf(stderr, "cordonctl: getcwd: %s\n", strerror(errno));
		return NULL;
	}
	char *abs;
	if (asprintf(&abs, "%s/%s", cwd, path) < 0) {
		abs = NULL;
	}
	free(cwd);
	return abs;
}

/* The request line, '\n' included; NULL when out of memory. */
static char *build_request(const struct command *command, int argc, char **argv) {
	struct json_object *request = json_object_new_object();
	struct json_object *args = json_object_new_array();
	if (request == NULL || args == NULL) {
		json_object_put(request);
		json_object_put(args);
		return NULL;
	}
	json_object_object_add(request, "command", json_object_new_string(command->name));
	json_object_object_add(request, "args", args);

	bool is_screenshot = strcmp(command->name, "screenshot") == 0;
	for (int i = 0; i < argc; i++) {
		char *abs = NULL;
		if (is_screenshot && i == 1) {
			abs = absolute_path(argv[i]);
			if (abs == NULL) {
				json_object_put(request);
				return NULL;
			}
		}
		json_object_array_add(args, json_object_new_string(abs != NULL ? abs : argv[i]));
		free(abs);
	}

	char *line;
	const char *json = json_object_to_json_string_ext(request, JSON_C_TO_STRING_PLAIN);
	if (asprintf(&line, "%s\n", json) < 0) {
		line = NULL;
	}
	json_object_put(request);
	return line;
}

/* Sends one request and returns its parsed reply, or NULL after saying why. */
static struct json_object *transact(const char *socket_path, const char *request) {
	int fd = connect_to(socket_path);
	if (fd < 0) {
		return NULL;
	}
	if (!write_all(fd, request, strlen(request))) {
		fprintf(stderr, "cordonctl: sending to %s: %s\n", socket_path, strerror(errno));
		close(fd);
		return NULL;
	}
	char *line = read_line(fd);
	int read_errno = errno;
	close(fd);
	if (line == NULL) {
		if (read_errno == 0) {
			fprintf(stderr, "cordonctl: %s closed the connection without replying\n",
				socket_path);
		} else {
			fprintf(stderr, "cordonctl: reading from %s: %s\n", socket_path,
				strerror(read_errno));
		}
		return NULL;
	}

	enum json_tokener_error err;
	struct json_object *reply = json_tokener_parse_verbose(line, &err);
	free(line);
	if (reply == NULL || !json_object_is_type(reply, json_type_object)) {
		fprintf(stderr, "cordonctl: malformed reply from %s: %s\n", socket_path,
			reply == NULL ? json_tokener_error_desc(err) : "not a JSON object");
		json_object_put(reply);
		return NULL;
	}
	return reply;
}

/* Prints the reply as asked; returns the exit status. */
static int handle_reply(const struct command *command, struct json_object *reply, bool json) {
	struct json_object *success;
	if (!json_object_object_get_ex(reply, "success", &success) ||
		!json_object_is_type(success, json_type_boolean)) {
		fprintf(stderr, "cordonctl: malformed reply: no boolean \"success\"\n");
		return EXIT_FAILURE;
	}
	if (!json_object_get_boolean(success)) {
		/* An error may quote a window's app id or a file name: escaped as well. */
		char *message =
			cordon_escape_dup(get_string(reply, "error", "the command failed"), 0);
		fprintf(stderr, "cordonctl: %s\n", message ? message : "the command failed");
		free(message);
		return EXIT_FAILURE;
	}

	struct json_object *result = NULL;
	json_object_object_get_ex(reply, "result", &result);
	if (json) {
		print_json(result);
	} else {
		print_result(command, result);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "cordonctl: writing the result: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

int main(int argc, char **argv) {
	static const struct option long_options[] = {
		{"json", no_argument, NULL, 'j'},
		{"socket", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'v'},
		{0},
	};
	bool json = false;
	const char *socket_arg = NULL;
	int opt;
	/* '+': options end at the command, so "pointer motion -5 0" keeps its "-5" */
	while ((opt = getopt_long(argc, argv, "+js:hv", long_options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 's':
			socket_arg = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case 'v':
			printf("cordonctl %s\n", CORDON_VERSION);
			return EXIT_SUCCESS;
		default:
			return usage_error();
		}
	}

	if (optind >= argc) {
		return usage_error();
	}
	const struct command *command = find_command(argv[optind]);
	if (command == NULL) {
		fprintf(stderr, "cordonctl: unknown command '%s'; see cordonctl --help\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	int cmd_argc = argc - optind - 1;
	char **cmd_argv = argv + optind + 1;
	if (!args_ok(command, cmd_argc, cmd_argv)) {
		if (command->args[0] == '\0') {
			fprintf(stderr, "cordonctl: %s takes no arguments\n", command->name);
		} else {
			fprintf(stderr, "Usage: cordonctl %s %s\n", command->name, command->args);
		}
		return EXIT_USAGE;
	}

	char *socket_path = socket_arg != NULL ? strdup(socket_arg) : socket_path_from_env();
	if (socket_path == NULL) {
		return EXIT_FAILURE;
	}
	char *request = build_request(command, cmd_argc, cmd_argv);
	if (request == NULL) {
		fprintf(stderr, "cordonctl: cannot build the request\n");
		free(socket_path);
		return EXIT_FAILURE;
	}

	struct json_object *reply = transact(socket_path, request);
	free(request);
	free(socket_path);
	if (reply == NULL) {
		return EXIT_FAILURE;
	}
	int status = handle_reply(command, reply, json);
	json_object_put(reply);
	return status;
}
