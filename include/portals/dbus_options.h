/*
 * Reading the a{sv} options of the D-Bus door: every known key must have its type in
 * the 1.16 interface XML, else the call gets org.freedesktop.DBus.Error.InvalidArgs.
 */
#ifndef CORDON_PORTALS_DBUS_OPTIONS_H
#define CORDON_PORTALS_DBUS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-bus.h>

/* Reads the value (already inside its variant) into TARGET; <0 is an sd-bus error. */
typedef int (*cordon_dbus_option_read)(sd_bus_message *m, void *target, sd_bus_error *error);

struct cordon_dbus_option {
	const char *key;
	const char *signature;
	cordon_dbus_option_read read; /* NULL: checked, not used */
};

/* Reads M's a{sv} with TABLE; unknown keys are skipped. False with ERROR set. */
bool cordon_dbus_read_options(sd_bus_message *m, const struct cordon_dbus_option *table,
	size_t count, void *target, sd_bus_error *error);

/* A file:// URI for an absolute PATH, percent-encoded; NULL when out of memory. */
char *cordon_dbus_file_uri(const char *path);

/* Strings and byte strings up to 4 KiB, as the Wayland door caps them. */
#define CORDON_DBUS_MAX_STRING 4096

/* Reads "s" or a NUL-terminated "ay" into a new string; false with ERROR when too long. */
int cordon_dbus_read_string(sd_bus_message *m, char **out, sd_bus_error *error);
int cordon_dbus_read_string_value(const char *value, char **out, sd_bus_error *error);
int cordon_dbus_read_bytestring(sd_bus_message *m, char **out, sd_bus_error *error);

#endif
