/*
 * dbus-portal-client: an app calling the xdg-desktop-portal frontend as GTK or Qt would,
 * staying on the bus for the Request's Response signal (the frontend sends it to the
 * caller alone). Prints "response N", then "uri URI" and "choice ID VALUE" lines.
 *
 *   dbus-portal-client [OPTIONS] OpenFile|SaveFile|SaveFiles|PreparePrint|Print
 *     --settings K=V,.. PreparePrint's GtkPrintSettings (string values)
 *     --document FILE   Print's document (its fd)      --token N: a prepare's token
 *   PreparePrint prints "setting KEY VALUE", "page-setup KEY VALUE" and "token N".
 *     --parent HANDLE   the parent_window argument ("wayland:..." from xdg-foreign)
 *     --title TITLE     --multiple      --directory      --current-name NAME
 *     --files A,B       SaveFiles' names          --choice ID:DEFAULT
 *     --filter NAME:GLOB
 *     --bad-option      sends "multiple" as a string (a malformed call)
 *     --close           closes the request once made, prints "closed" and exits
 *     --handle-out FILE writes the request's handle there once made
 *     --repeat N        N requests one after the other (bench/portal-dbus); prints
 *                       "bench N chosen C mean_us US", the mean round trip
 *   As the frontend itself (owns org.freedesktop.portal.Desktop and calls the backend, as
 *   xdg-desktop-portal would, for what the frontend would never let through):
 *     --backend APP_ID  calls org.freedesktop.impl.portal.desktop.cordon directly
 *                       (METHOD may also be AccessDialog)
 *     --icon ICON       AccessDialog's icon (the frontend's camera portal sends
 *                       camera-web-symbolic)
 *     --bad-filters     filters of the wrong type     --long-name: a 5000-byte current_name
 * Exit status: 0 with a response, 1 on a D-Bus error (printed), 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

struct state {
	bool done;
	uint32_t response;
};

/* --repeat: nothing printed per request. */
static bool quiet;

static int read_results(sd_bus_message *m, struct state *state) {
	if (sd_bus_message_read(m, "u", &state->response) < 0 ||
		sd_bus_message_enter_container(m, 'a', "{sv}") < 0) {
		return 0;
	}
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		const char *key;
		sd_bus_message_read(m, "s", &key);
		if (strcmp(key, "uris") == 0 && sd_bus_message_enter_container(m, 'v', "as") > 0) {
			char **uris = NULL;
			sd_bus_message_read_strv(m, &uris);
			for (char **u = uris; u && *u; u++) {
				if (!quiet) {
					printf("uri %s\n", *u);
				}
				free(*u);
			}
			free(uris);
			sd_bus_message_exit_container(m);
		} else if ((strcmp(key, "settings") == 0 || strcmp(key, "page-setup") == 0) &&
			sd_bus_message_enter_container(m, 'v', "a{sv}") > 0) {
			const char *k, *v;
			sd_bus_message_enter_container(m, 'a', "{sv}");
			while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
				sd_bus_message_read(m, "s", &k);
				if (sd_bus_message_read(m, "v", "s", &v) > 0) {
					printf("%s %s %s\n",
						strcmp(key, "settings") == 0 ? "setting"
									     : "page-setup",
						k, v);
				} else {
					sd_bus_message_skip(m, "v");
				}
				sd_bus_message_exit_container(m);
			}
			sd_bus_message_exit_container(m);
			sd_bus_message_exit_container(m);
		} else if (strcmp(key, "token") == 0 &&
			sd_bus_message_enter_container(m, 'v', "u") > 0) {
			uint32_t token;
			sd_bus_message_read(m, "u", &token);
			printf("token %u\n", token);
			sd_bus_message_exit_container(m);
		} else if (strcmp(key, "choices") == 0 &&
			sd_bus_message_enter_container(m, 'v', "a(ss)") > 0) {
			const char *id, *value;
			sd_bus_message_enter_container(m, 'a', "(ss)");
			while (sd_bus_message_read(m, "(ss)", &id, &value) > 0 && !quiet) {
				printf("choice %s %s\n", id, value);
			}
			sd_bus_message_exit_container(m);
			sd_bus_message_exit_container(m);
		} else {
			sd_bus_message_skip(m, "v");
		}
		sd_bus_message_exit_container(m);
	}
	state->done = true;
	return 0;
}

static int handle_response(sd_bus_message *m, void *data, sd_bus_error *error) {
	return read_results(m, data);
}

static int usage(void) {
	fprintf(stderr, "usage: dbus-portal-client [OPTIONS] OpenFile|SaveFile|SaveFiles\n");
	return 2;
}

struct args {
	const char *method, *parent, *title, *current_name, *files, *choice, *filter, *handle_out;
	const char *backend, *repeat, *settings, *document, *token, *icon;
	bool multiple, directory, bad_option, close, bad_filters, long_name;
};

static int append_bool(sd_bus_message *m, const char *key, bool value) {
	return sd_bus_message_append(m, "{sv}", key, "b", value);
}

static int append_options(sd_bus_message *m, const struct args *args, const char *token) {
	int r = sd_bus_message_open_container(m, 'a', "{sv}");
	r = r < 0 ? r : sd_bus_message_append(m, "{sv}", "handle_token", "s", token);
	if (args->multiple) {
		r = r < 0 ? r : append_bool(m, "multiple", true);
	}
	if (args->directory) {
		r = r < 0 ? r : append_bool(m, "directory", true);
	}
	if (args->bad_option) {
		r = r < 0 ? r : sd_bus_message_append(m, "{sv}", "multiple", "s", "yes");
	}
	if (args->bad_filters) {
		r = r < 0 ? r : sd_bus_message_append(m, "{sv}", "filters", "a(ss)", 1, "x", "*.x");
	}
	if (args->long_name) {
		char name[5001];
		memset(name, 'n', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		r = r < 0 ? r : sd_bus_message_append(m, "{sv}", "current_name", "s", name);
	}
	if (args->icon) {
		r = r < 0 ? r : sd_bus_message_append(m, "{sv}", "icon", "s", args->icon);
	}
	if (args->current_name) {
		r = r < 0
			? r
			: sd_bus_message_append(m, "{sv}", "current_name", "s", args->current_name);
	}
	if (args->choice) {
		char id[256];
		const char *colon = strchr(args->choice, ':');
		snprintf(id, sizeof(id), "%.*s", colon ? (int)(colon - args->choice) : 0,
			args->choice);
		r = r < 0 ? r
			  : sd_bus_message_append(m, "{sv}", "choices", "a(ssa(ss)s)", 1, id,
				    "A choice", 2, "a", "A", "b", "B", colon ? colon + 1 : "");
	}
	if (args->filter) {
		char name[256];
		const char *colon = strchr(args->filter, ':');
		snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - args->filter) : 0,
			args->filter);
		r = r < 0 ? r
			  : sd_bus_message_append(m, "{sv}", "filters", "a(sa(us))", 1, name, 1, 0,
				    colon ? colon + 1 : "*");
	}
	if (args->token) {
		r = r < 0 ? r
			  : sd_bus_message_append(m, "{sv}", "token", "u",
				    (uint32_t)strtoul(args->token, NULL, 10));
	}
	if (args->files) {
		r = r < 0 ? r : sd_bus_message_open_container(m, 'e', "sv");
		r = r < 0 ? r : sd_bus_message_append(m, "s", "files");
		r = r < 0 ? r : sd_bus_message_open_container(m, 'v', "aay");
		r = r < 0 ? r : sd_bus_message_open_container(m, 'a', "ay");
		char *copy = strdup(args->files);
		for (char *save = NULL, *name = strtok_r(copy, ",", &save); r >= 0 && name;
			name = strtok_r(NULL, ",", &save)) {
			/* GLib bytestrings carry their NUL. */
			r = sd_bus_message_append_array(m, 'y', name, strlen(name) + 1);
		}
		free(copy);
		for (int i = 0; r >= 0 && i < 3; i++) {
			r = sd_bus_message_close_container(m);
		}
	}
	return r < 0 ? r : sd_bus_message_close_container(m);
}

/* PreparePrint's settings, then an empty page setup. */
static int append_print_settings(sd_bus_message *m, const struct args *args) {
	int r = sd_bus_message_open_container(m, 'a', "{sv}");
	char *copy = strdup(args->settings ? args->settings : "");
	for (char *save = NULL, *kv = strtok_r(copy, ",", &save); r >= 0 && kv;
		kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (eq) {
			*eq = '\0';
			r = sd_bus_message_append(m, "{sv}", kv, "s", eq + 1);
		}
	}
	free(copy);
	r = r < 0 ? r : sd_bus_message_close_container(m);
	return r < 0 ? r : sd_bus_message_append(m, "a{sv}", 0);
}

/* The method's arguments after parent_window and title, before the options. */
static int append_middle(sd_bus_message *m, const struct args *args) {
	if (strcmp(args->method, "PreparePrint") == 0) {
		return append_print_settings(m, args);
	}
	if (strcmp(args->method, "Print") == 0) {
		int fd = open(args->document ? args->document : "/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			return -errno;
		}
		int r = sd_bus_message_append(m, "h", fd);
		close(fd);
		return r;
	}
	return 0;
}

static const char *interface_of(const char *method) {
	return strstr(method, "Print") ? "org.freedesktop.portal.Print"
				       : "org.freedesktop.portal.FileChooser";
}

static int print_error(const sd_bus_error *error) {
	printf("error %s %s\n", error->name ? error->name : "?",
		error->message ? error->message : "");
	return 1;
}

/* As the frontend: the backend's reply is the response itself. */
static int call_backend(
	sd_bus *bus, const struct args *args, const char *handle, const char *token) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	int r = sd_bus_request_name(bus, "org.freedesktop.portal.Desktop", 0);
	if (r < 0) {
		fprintf(stderr, "dbus-portal-client: cannot own the frontend's name: %s\n",
			strerror(-r));
		return 1;
	}
	sd_bus_message *call = NULL, *reply = NULL;
	bool access = strcmp(args->method, "AccessDialog") == 0;
	r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.impl.portal.desktop.cordon",
		"/org/freedesktop/portal/desktop",
		access ? "org.freedesktop.impl.portal.Access"
		       : "org.freedesktop.impl.portal.FileChooser",
		args->method);
	r = r < 0 ? r
		  : sd_bus_message_append(
			    call, "osss", handle, args->backend, args->parent, args->title);
	if (access) {
		r = r < 0 ? r : sd_bus_message_append(call, "ss", "Use the camera?", "");
	}
	r = r < 0 ? r : append_options(call, args, token);
	if (r < 0) {
		fprintf(stderr, "dbus-portal-client: cannot build the call: %s\n", strerror(-r));
		return 1;
	}
	r = sd_bus_call(bus, call, 30 * 1000000ull, &error, &reply);
	struct state state = {0};
	if (r < 0) {
		print_error(&error);
	} else {
		read_results(reply, &state);
		printf("response %u\n", state.response);
	}
	sd_bus_error_free(&error);
	sd_bus_message_unref(call);
	sd_bus_message_unref(reply);
	return r < 0;
}

/* N OpenFile requests one after the other, each waited for, as bench/portal-dbus measures. */
static int bench(sd_bus *bus, const struct args *args, const char *sender, int count) {
	quiet = true;
	int chosen = 0;
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < count; i++) {
		char token[64], handle[512];
		snprintf(token, sizeof(token), "bench%d_%d", (int)getpid(), i);
		snprintf(handle, sizeof(handle), "/org/freedesktop/portal/desktop/request/%s/%s",
			sender, token);
		struct state state = {0};
		sd_bus_slot *slot = NULL;
		sd_bus_message *call = NULL;
		int r = sd_bus_match_signal(bus, &slot, NULL, handle,
			"org.freedesktop.portal.Request", "Response", handle_response, &state);
		r = r < 0 ? r
			  : sd_bus_message_new_method_call(bus, &call,
				    "org.freedesktop.portal.Desktop",
				    "/org/freedesktop/portal/desktop",
				    "org.freedesktop.portal.FileChooser", args->method);
		r = r < 0 ? r : sd_bus_message_append(call, "ss", args->parent, args->title);
		r = r < 0 ? r : append_options(call, args, token);
		r = r < 0 ? r : sd_bus_call(bus, call, 30 * 1000000ull, NULL, NULL);
		sd_bus_message_unref(call);
		while (r >= 0 && !state.done) {
			r = sd_bus_process(bus, NULL);
			if (r == 0) {
				/* 30 s without a message: unanswered, said so instead of waiting
				 * on. */
				r = sd_bus_wait(bus, 30 * 1000000ull);
				r = r == 0 ? -ETIMEDOUT : r;
			}
		}
		sd_bus_slot_unref(slot);
		if (r < 0) {
			fprintf(stderr, "dbus-portal-client: request %d failed: %s\n", i,
				strerror(-r));
			return 1;
		}
		chosen += state.response == 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	double us = ((double)(end.tv_sec - start.tv_sec) * 1e9 +
			    (double)(end.tv_nsec - start.tv_nsec)) /
		1e3 / count;
	printf("bench %d chosen %d mean_us %.1f\n", count, chosen, us);
	return 0;
}

/* The field an option that takes a value fills; NULL for any other word. */
static const char **string_option(struct args *args, const char *flag) {
	static const struct {
		const char *flag;
		size_t offset;
	} options[] = {
		{"--parent", offsetof(struct args, parent)},
		{"--title", offsetof(struct args, title)},
		{"--current-name", offsetof(struct args, current_name)},
		{"--files", offsetof(struct args, files)},
		{"--choice", offsetof(struct args, choice)},
		{"--filter", offsetof(struct args, filter)},
		{"--handle-out", offsetof(struct args, handle_out)},
		{"--backend", offsetof(struct args, backend)},
		{"--repeat", offsetof(struct args, repeat)},
		{"--settings", offsetof(struct args, settings)},
		{"--document", offsetof(struct args, document)},
		{"--icon", offsetof(struct args, icon)},
		{"--token", offsetof(struct args, token)},
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (strcmp(flag, options[i].flag) == 0) {
			return (const char **)((char *)args + options[i].offset);
		}
	}
	return NULL;
}

int main(int argc, char **argv) {
	struct args args = {.parent = "", .title = "A title"};
	/* Each line out at once: a sanitizer's exit must not lose what was printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **value = string_option(&args, a);
		if (value) {
			if (++i == argc) {
				return usage();
			}
			*value = argv[i];
		} else if (strcmp(a, "--multiple") == 0) {
			args.multiple = true;
		} else if (strcmp(a, "--directory") == 0) {
			args.directory = true;
		} else if (strcmp(a, "--bad-option") == 0) {
			args.bad_option = true;
		} else if (strcmp(a, "--bad-filters") == 0) {
			args.bad_filters = true;
		} else if (strcmp(a, "--long-name") == 0) {
			args.long_name = true;
		} else if (strcmp(a, "--close") == 0) {
			args.close = true;
		} else if (a[0] != '-' && !args.method) {
			args.method = a;
		} else {
			return usage();
		}
	}
	if (!args.method) {
		return usage();
	}
	sd_bus *bus = NULL;
	int r = sd_bus_open_user(&bus);
	const char *unique = NULL;
	if (r < 0 || sd_bus_get_unique_name(bus, &unique) < 0) {
		fprintf(stderr, "dbus-portal-client: no session bus: %s\n", strerror(-r));
		return 1;
	}
	/* The frontend's handle: /org/freedesktop/portal/desktop/request/SENDER/TOKEN. */
	char sender[256], token[64], handle[512];
	snprintf(sender, sizeof(sender), "%s", unique + 1);
	for (char *c = sender; *c; c++) {
		*c = *c == '.' ? '_' : *c;
	}
	snprintf(token, sizeof(token), "cordon%d", (int)getpid());
	snprintf(handle, sizeof(handle), "/org/freedesktop/portal/desktop/request/%s/%s", sender,
		token);
	struct state state = {0};
	sd_bus_error error = SD_BUS_ERROR_NULL;
	if (args.repeat) {
		r = bench(bus, &args, sender, atoi(args.repeat) > 0 ? atoi(args.repeat) : 1);
		sd_bus_flush_close_unref(bus);
		return r;
	}
	if (args.backend) {
		r = call_backend(bus, &args, handle, token);
		sd_bus_flush_close_unref(bus);
		return r;
	}
	/* Subscribed before the call, so the Response cannot come first. */
	r = sd_bus_match_signal(bus, NULL, NULL, handle, "org.freedesktop.portal.Request",
		"Response", handle_response, &state);
	sd_bus_message *call = NULL, *reply = NULL;
	r = r < 0 ? r
		  : sd_bus_message_new_method_call(bus, &call, "org.freedesktop.portal.Desktop",
			    "/org/freedesktop/portal/desktop", interface_of(args.method),
			    args.method);
	r = r < 0 ? r : sd_bus_message_append(call, "ss", args.parent, args.title);
	r = r < 0 ? r : append_middle(call, &args);
	r = r < 0 ? r : append_options(call, &args, token);
	if (r < 0) {
		fprintf(stderr, "dbus-portal-client: cannot build the call: %s\n", strerror(-r));
		return 1;
	}
	r = sd_bus_call(bus, call, 30 * 1000000ull, &error, &reply);
	sd_bus_message_unref(call);
	if (r < 0) {
		print_error(&error);
		sd_bus_error_free(&error);
		sd_bus_flush_close_unref(bus);
		return 1;
	}
	const char *got;
	if (sd_bus_message_read(reply, "o", &got) < 0 || strcmp(got, handle) != 0) {
		fprintf(stderr, "dbus-portal-client: unexpected handle\n");
		return 1;
	}
	if (args.handle_out) {
		FILE *f = fopen(args.handle_out, "w");
		if (f) {
			fprintf(f, "%s\n", handle);
			fclose(f);
		}
	}
	if (args.close) {
		r = sd_bus_call_method(bus, "org.freedesktop.portal.Desktop", handle,
			"org.freedesktop.portal.Request", "Close", &error, NULL, "");
		printf(r < 0 ? "error %s\n" : "closed\n", error.name);
		sd_bus_error_free(&error);
		sd_bus_message_unref(reply);
		sd_bus_flush_close_unref(bus);
		return r < 0;
	}
	time_t deadline = time(NULL) + 60;
	while (!state.done && time(NULL) < deadline) {
		r = sd_bus_process(bus, NULL);
		if (r < 0) {
			fprintf(stderr, "dbus-portal-client: the bus went away\n");
			return 1;
		}
		if (r == 0) {
			sd_bus_wait(bus, 1000000);
		}
	}
	if (!state.done) {
		fprintf(stderr, "dbus-portal-client: no response\n");
		return 1;
	}
	printf("response %u\n", state.response);
	sd_bus_message_unref(reply);
	sd_bus_flush_close_unref(bus);
	return 0;
}
