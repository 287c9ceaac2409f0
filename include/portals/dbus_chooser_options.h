/* The options a{sv} of the D-Bus door's FileChooser methods, read into one struct. */
#ifndef CORDON_PORTALS_DBUS_CHOOSER_OPTIONS_H
#define CORDON_PORTALS_DBUS_CHOOSER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-bus.h>

#define CORDON_DBUS_CHOOSER_MAX_FILTERS 32
#define CORDON_DBUS_CHOOSER_MAX_PATTERNS 32
#define CORDON_DBUS_CHOOSER_MAX_CHOICES 32
#define CORDON_DBUS_CHOOSER_MAX_CHOICE_OPTIONS 32
/* As in the Wayland door: bounds what one request holds. */
#define CORDON_DBUS_CHOOSER_MAX_FILES 64

enum cordon_dbus_chooser_kind {
	CORDON_DBUS_OPEN_FILE,
	CORDON_DBUS_SAVE_FILE,
	CORDON_DBUS_SAVE_FILES,
};

struct cordon_dbus_filter {
	char *name;
	char *patterns[CORDON_DBUS_CHOOSER_MAX_PATTERNS];
	size_t pattern_count;
	char *mime_types[CORDON_DBUS_CHOOSER_MAX_PATTERNS];
	size_t mime_type_count;
};

struct cordon_dbus_choice {
	char *id, *value; /* the app's default: no cordon dialog shows choices */
};

struct cordon_dbus_chooser_options {
	bool multiple, directory;
	char *current_name, *current_folder, *current_file;
	struct cordon_dbus_filter filters[CORDON_DBUS_CHOOSER_MAX_FILTERS];
	size_t filter_count;
	struct cordon_dbus_choice choices[CORDON_DBUS_CHOOSER_MAX_CHOICES];
	size_t choice_count;
	/* SaveFiles: the files to save in the chosen folder, each a single file name. */
	char *names[CORDON_DBUS_CHOOSER_MAX_FILES];
	size_t name_count;
};

/*
 * Reads M's a{sv} with the keys of KIND's method (the 1.16 interface XML) into OPTIONS, which
 * must start zeroed; unknown keys are skipped. False with ERROR set (InvalidArgs for a known
 * key of the wrong type, a value over a bound, a name that is not a single file name); what
 * was read is kept for cordon_dbus_chooser_options_finish either way.
 */
bool cordon_dbus_chooser_options_read(sd_bus_message *m, enum cordon_dbus_chooser_kind kind,
	struct cordon_dbus_chooser_options *options, sd_bus_error *error);
void cordon_dbus_chooser_options_finish(struct cordon_dbus_chooser_options *options);

#endif
