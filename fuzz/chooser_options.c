/*
 * The D-Bus door's FileChooser options (portals/dbus/chooser_options.c over
 * portals/dbus/options.c): the a{sv} an app sends through xdg-desktop-portal. sd-bus has no
 * public way to make a message from raw bytes, so the input drives sd-bus's own append calls
 * (keys the door knows or any string, values of the right or a wrong type, nested arrays and
 * structs, counts past every cap), the message is sealed as a received one is, and cordon
 * reads it. Oracle: every list within its cap, every string within CORDON_DBUS_MAX_STRING,
 * every file name a single name, only the keys of the method's table taken; a refusal is an
 * error, and nothing leaks either way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "portals/dbus_chooser_options.h"
#include "portals/dbus_options.h"

struct input {
	const uint8_t *data;
	size_t size;
};

static uint8_t take(struct input *in) {
	if (in->size == 0) {
		return 0;
	}
	in->size--;
	return *in->data++;
}

static const char *const keys[] = {
	"accept_label",
	"modal",
	"multiple",
	"directory",
	"filters",
	"current_filter",
	"choices",
	"current_name",
	"current_folder",
	"current_file",
	"files",
};

/* The types the door's tables name, and a few it does not. */
static const char *const signatures[] = {
	"s",
	"b",
	"u",
	"ay",
	"aay",
	"a(sa(us))",
	"(sa(us))",
	"a(ssa(ss)s)",
	"as",
	"i",
	"a{sv}",
	"v",
	"(us)",
	"a(us)",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A string of the input's bytes; sd-bus refuses one that is not UTF-8, which ends the run. */
static char *take_string(struct input *in) {
	size_t len = take(in);
	if (len > in->size) {
		len = in->size;
	}
	/* A long one now and then, to cross CORDON_DBUS_MAX_STRING. */
	size_t repeat = len > 0 && in->data[0] == 0xff ? 5000 / len + 1 : 1;
	char *s = malloc(len * repeat + 1);
	fuzz_require(s != NULL, "memory");
	for (size_t r = 0; r < repeat; r++) {
		for (size_t i = 0; i < len; i++) {
			s[r * len + i] = in->data[i] ? (char)in->data[i] : '.';
		}
	}
	s[len * repeat] = '\0';
	in->data += len;
	in->size -= len;
	return s;
}

/* The end of the single complete type starting at sig. */
static const char *type_end(const char *sig) {
	if (*sig == 'a') {
		return type_end(sig + 1);
	}
	if (*sig == '(' || *sig == '{') {
		char close = *sig == '(' ? ')' : '}';
		sig++;
		while (*sig != close) {
			sig = type_end(sig);
		}
	}
	return sig + 1;
}

static int append_value(sd_bus_message *m, const char *sig, struct input *in, int depth);

static int append_array(sd_bus_message *m, const char *element, struct input *in, int depth) {
	if (strcmp(element, "y") == 0) {
		size_t len = take(in);
		if (len > in->size) {
			len = in->size;
		}
		int r = sd_bus_message_append_array(m, 'y', in->data, len);
		in->data += len;
		in->size -= len;
		return r;
	}
	int r = sd_bus_message_open_container(m, 'a', element);
	/* Up to 80 elements: past the caps of 32 filters and 64 files. */
	size_t count = take(in) % 81;
	for (size_t i = 0; r >= 0 && i < count && in->size > 0; i++) {
		r = append_value(m, element, in, depth + 1);
	}
	return r < 0 ? r : sd_bus_message_close_container(m);
}

static int append_value(sd_bus_message *m, const char *sig, struct input *in, int depth) {
	if (depth > 8) {
		return -E2BIG;
	}
	size_t len = (size_t)(type_end(sig) - sig);
	char *type = strndup(sig, len);
	fuzz_require(type != NULL, "memory");
	int r;
	switch (type[0]) {
	case 'b':
		r = sd_bus_message_append_basic(m, 'b', &(int){take(in) & 1});
		break;
	case 'u':
	case 'i':
		r = sd_bus_message_append_basic(m, type[0], &(uint32_t){take(in) % 4});
		break;
	case 's': {
		char *s = take_string(in);
		r = sd_bus_message_append_basic(m, 's', s);
		free(s);
		break;
	}
	case 'v': {
		const char *inner = signatures[take(in) % COUNT(signatures)];
		r = sd_bus_message_open_container(m, 'v', inner);
		if (r >= 0) {
			r = append_value(m, inner, in, depth + 1);
		}
		if (r >= 0) {
			r = sd_bus_message_close_container(m);
		}
		break;
	}
	case 'a':
		r = append_array(m, type + 1, in, depth);
		break;
	case '(':
	case '{': {
		char *contents = strndup(type + 1, len - 2);
		fuzz_require(contents != NULL, "memory");
		r = sd_bus_message_open_container(m, type[0] == '(' ? 'r' : 'e', contents);
		for (const char *member = contents; r >= 0 && *member; member = type_end(member)) {
			r = append_value(m, member, in, depth + 1);
		}
		if (r >= 0) {
			r = sd_bus_message_close_container(m);
		}
		free(contents);
		break;
	}
	default:
		r = -EINVAL;
	}
	free(type);
	return r;
}

/* The options a{sv}: each entry a known key or any string, with a value of some type. */
static int append_options(sd_bus_message *m, struct input *in) {
	int r = sd_bus_message_open_container(m, 'a', "{sv}");
	while (r >= 0 && in->size > 0) {
		uint8_t pick = take(in);
		char *key = pick < 0xf0 ? strdup(keys[pick % COUNT(keys)]) : take_string(in);
		fuzz_require(key != NULL, "memory");
		const char *sig = signatures[take(in) % COUNT(signatures)];
		r = sd_bus_message_open_container(m, 'e', "sv");
		if (r >= 0) {
			r = sd_bus_message_append_basic(m, 's', key);
		}
		if (r >= 0) {
			r = sd_bus_message_open_container(m, 'v', sig);
		}
		if (r >= 0) {
			r = append_value(m, sig, in, 0);
		}
		if (r >= 0) {
			r = sd_bus_message_close_container(m);
		}
		if (r >= 0) {
			r = sd_bus_message_close_container(m);
		}
		free(key);
	}
	return r < 0 ? r : sd_bus_message_close_container(m);
}

static bool single_name(const char *name) {
	return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

static bool short_string(const char *s) {
	return s == NULL || strlen(s) < CORDON_DBUS_MAX_STRING;
}

static void check_options(
	const struct cordon_dbus_chooser_options *o, enum cordon_dbus_chooser_kind kind) {
	fuzz_require(o->filter_count <= CORDON_DBUS_CHOOSER_MAX_FILTERS &&
			o->choice_count <= CORDON_DBUS_CHOOSER_MAX_CHOICES &&
			o->name_count <= CORDON_DBUS_CHOOSER_MAX_FILES,
		"every list within its cap");
	for (size_t i = 0; i < o->filter_count; i++) {
		const struct cordon_dbus_filter *f = &o->filters[i];
		fuzz_require(f->pattern_count <= CORDON_DBUS_CHOOSER_MAX_PATTERNS &&
				f->mime_type_count <= CORDON_DBUS_CHOOSER_MAX_PATTERNS,
			"a filter's lists within their cap");
		fuzz_require(short_string(f->name), "strings within CORDON_DBUS_MAX_STRING");
		for (size_t j = 0; j < f->pattern_count; j++) {
			fuzz_require(short_string(f->patterns[j]), "patterns within the cap");
		}
		for (size_t j = 0; j < f->mime_type_count; j++) {
			fuzz_require(short_string(f->mime_types[j]), "mime types within the cap");
		}
	}
	for (size_t i = 0; i < o->choice_count; i++) {
		fuzz_require(short_string(o->choices[i].id) && short_string(o->choices[i].value),
			"choices within the cap");
	}
	fuzz_require(short_string(o->current_name) && short_string(o->current_folder) &&
			short_string(o->current_file),
		"current_* within the cap");
	/* An empty name suggests nothing; any other is one file name, as in the Wayland door. */
	fuzz_require(!o->current_name || !o->current_name[0] || single_name(o->current_name),
		"current_name is a single file name");
	for (size_t i = 0; i < o->name_count; i++) {
		fuzz_require(single_name(o->names[i]), "each of files is a single file name");
	}
	/* Only the keys of the method's own table are taken. */
	if (kind != CORDON_DBUS_OPEN_FILE) {
		fuzz_require(!o->multiple && !o->directory, "multiple and directory only to open");
	}
	if (kind != CORDON_DBUS_SAVE_FILE) {
		fuzz_require(!o->current_name && !o->current_file, "current_name only to save one");
	}
	if (kind != CORDON_DBUS_SAVE_FILES) {
		fuzz_require(o->name_count == 0, "files only to save several");
	} else {
		fuzz_require(o->filter_count == 0, "no filters to save several");
	}
}

static sd_bus *fake_bus(void) {
	/* Messages are made on a bus that has started; this one never reaches a peer. */
	static sd_bus *bus;
	if (bus) {
		return bus;
	}
	int fds[2];
	fuzz_require(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0, "socketpair");
	fuzz_require(sd_bus_new(&bus) >= 0 && sd_bus_set_fd(bus, fds[0], fds[0]) >= 0 &&
			sd_bus_start(bus) >= 0,
		"an sd-bus object to make messages on");
	return bus;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct input in = {data, size};
	enum cordon_dbus_chooser_kind kind = (enum cordon_dbus_chooser_kind)(take(&in) % 3);
	sd_bus_message *m = NULL;
	fuzz_require(sd_bus_message_new_method_call(fake_bus(), &m, "org.freedesktop.impl.portal",
			     "/org/freedesktop/portal/desktop",
			     "org.freedesktop.impl.portal.FileChooser", "OpenFile") >= 0,
		"a method call to fill");
	if (append_options(m, &in) < 0 || sd_bus_message_seal(m, 1, 0) < 0) {
		/* sd-bus refused what was appended (not UTF-8, too deep): nothing to read. */
		sd_bus_message_unref(m);
		return 0;
	}
	struct cordon_dbus_chooser_options options = {0};
	sd_bus_error error = SD_BUS_ERROR_NULL;
	if (cordon_dbus_chooser_options_read(m, kind, &options, &error)) {
		fuzz_require(!sd_bus_error_is_set(&error), "no error with options");
		check_options(&options, kind);
	} else {
		fuzz_require(sd_bus_error_is_set(&error), "a refusal is an error");
	}
	cordon_dbus_chooser_options_finish(&options);
	sd_bus_error_free(&error);
	sd_bus_message_unref(m);
	return 0;
}
