/*
 * The options vardicts of the D-Bus door. The frontend passes on what the app sent;
 * a known key with the wrong type is the caller's mistake and gets InvalidArgs, never
 * a guess. Strings are capped as in the Wayland door.
 */
#include "portals/dbus_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cordon_dbus_option *find(
	const struct cordon_dbus_option *table, size_t count, const char *key) {
	for (size_t i = 0; i < count; i++) {
		if (strcmp(table[i].key, key) == 0) {
			return &table[i];
		}
	}
	return NULL;
}

static bool bad(sd_bus_error *error, int r, const char *key) {
	if (!sd_bus_error_is_set(error)) {
		sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "option '%s': %s", key,
			r == -ENXIO ? "wrong type" : strerror(-r));
	}
	return false;
}

bool cordon_dbus_read_options(sd_bus_message *m, const struct cordon_dbus_option *table,
	size_t count, void *target, sd_bus_error *error) {
	int r = sd_bus_message_enter_container(m, 'a', "{sv}");
	if (r < 0) {
		return bad(error, r, "(options)");
	}
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key;
		r = sd_bus_message_read(m, "s", &key);
		if (r < 0) {
			return bad(error, r, "(key)");
		}
		const struct cordon_dbus_option *option = find(table, count, key);
		if (!option) {
			r = sd_bus_message_skip(m, "v");
		} else {
			/* -ENXIO when the variant holds another type. */
			r = sd_bus_message_enter_container(m, 'v', option->signature);
			if (r >= 0) {
				r = option->read ? option->read(m, target, error)
						 : sd_bus_message_skip(m, option->signature);
			}
			if (r >= 0) {
				r = sd_bus_message_exit_container(m);
			}
		}
		if (r < 0) {
			return bad(error, r, key);
		}
		r = sd_bus_message_exit_container(m);
		if (r < 0) {
			return bad(error, r, key);
		}
	}
	if (r < 0) {
		return bad(error, r, "(entry)");
	}
	r = sd_bus_message_exit_container(m);
	return r >= 0 || bad(error, r, "(options)");
}

static int copy_capped(const char *value, size_t len, char **out, sd_bus_error *error) {
	if (len >= CORDON_DBUS_MAX_STRING || memchr(value, '\0', len)) {
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
			"a string option is longer than %d bytes or holds a NUL",
			CORDON_DBUS_MAX_STRING - 1);
	}
	char *copy = strndup(value, len);
	if (!copy) {
		return -ENOMEM;
	}
	free(*out);
	*out = copy;
	return 0;
}

int cordon_dbus_read_string(sd_bus_message *m, char **out, sd_bus_error *error) {
	const char *value;
	int r = sd_bus_message_read(m, "s", &value);
	return r < 0 ? r : copy_capped(value, strlen(value), out, error);
}

int cordon_dbus_read_string_value(const char *value, char **out, sd_bus_error *error) {
	return copy_capped(value, strlen(value), out, error);
}

int cordon_dbus_read_bytestring(sd_bus_message *m, char **out, sd_bus_error *error) {
	const void *bytes;
	size_t len;
	int r = sd_bus_message_read_array(m, 'y', &bytes, &len);
	if (r < 0) {
		return r;
	}
	/* GLib's bytestrings end in a NUL the string does not include. */
	if (len > 0 && ((const char *)bytes)[len - 1] == '\0') {
		len--;
	}
	return copy_capped(bytes, len, out, error);
}

char *cordon_dbus_file_uri(const char *path) {
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(path);
	char *uri = malloc(strlen("file://") + 3 * len + 1);
	if (!uri) {
		return NULL;
	}
	char *out = uri + sprintf(uri, "file://");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		/* RFC 3986 unreserved characters and the path's slashes stay as they are. */
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("-._~/", *c)) {
			*out++ = (char)*c;
		} else {
			*out++ = '%';
			*out++ = hex[*c >> 4];
			*out++ = hex[*c & 15];
		}
	}
	*out = '\0';
	return uri;
}
