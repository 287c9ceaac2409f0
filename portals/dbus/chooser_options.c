/*
 * The FileChooser options vardict of the D-Bus door (org.freedesktop.impl.portal.FileChooser
 * 1.16). It comes from the app through the frontend, so every list is bounded, every string
 * capped (portals/dbus/options.c) and every file name a single name; the chooser
 * (portals/dbus/file_chooser.c) only uses what was read here.
 */
#include "portals/dbus_chooser_options.h"

#include <stdlib.h>
#include <string.h>

#include "portals/dbus_options.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int read_bool(sd_bus_message *m, bool *out) {
	int value;
	int r = sd_bus_message_read(m, "b", &value);
	*out = value;
	return r;
}

static int read_multiple(sd_bus_message *m, void *target, sd_bus_error *error) {
	return read_bool(m, &((struct cordon_dbus_chooser_options *)target)->multiple);
}

static int read_directory(sd_bus_message *m, void *target, sd_bus_error *error) {
	return read_bool(m, &((struct cordon_dbus_chooser_options *)target)->directory);
}

static int read_current_name(sd_bus_message *m, void *target, sd_bus_error *error) {
	struct cordon_dbus_chooser_options *options = target;
	int r = cordon_dbus_read_string(m, &options->current_name, error);
	/* As the Wayland door (portals/file_chooser.c): "." is no file name either. */
	if (r >= 0 &&
		(strchr(options->current_name, '/') || strcmp(options->current_name, ".") == 0 ||
			strcmp(options->current_name, "..") == 0)) {
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
			"current_name must be a single file name");
	}
	return r;
}

static int read_current_folder(sd_bus_message *m, void *target, sd_bus_error *error) {
	return cordon_dbus_read_bytestring(
		m, &((struct cordon_dbus_chooser_options *)target)->current_folder, error);
}

static int read_current_file(sd_bus_message *m, void *target, sd_bus_error *error) {
	return cordon_dbus_read_bytestring(
		m, &((struct cordon_dbus_chooser_options *)target)->current_file, error);
}

static int too_many(sd_bus_error *error, const char *what, int limit) {
	return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "more than %d %s", limit, what);
}

/* a(sa(us)): (name, [(0 glob | 1 mime type, pattern)]). */
static int read_filters(sd_bus_message *m, void *target, sd_bus_error *error) {
	struct cordon_dbus_chooser_options *options = target;
	int r = sd_bus_message_enter_container(m, 'a', "(sa(us))");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r', "sa(us)")) > 0) {
		if (options->filter_count == CORDON_DBUS_CHOOSER_MAX_FILTERS) {
			return too_many(error, "filters", CORDON_DBUS_CHOOSER_MAX_FILTERS);
		}
		struct cordon_dbus_filter *filter = &options->filters[options->filter_count++];
		r = cordon_dbus_read_string(m, &filter->name, error);
		if (r >= 0) {
			r = sd_bus_message_enter_container(m, 'a', "(us)");
		}
		uint32_t type;
		const char *pattern;
		while (r >= 0 && (r = sd_bus_message_read(m, "(us)", &type, &pattern)) > 0) {
			if (type > 1) {
				return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					"a filter entry's type is 0 (glob) or 1 (mime type), not %u",
					type);
			}
			char **list = type ? filter->mime_types : filter->patterns;
			size_t *count = type ? &filter->mime_type_count : &filter->pattern_count;
			if (*count == CORDON_DBUS_CHOOSER_MAX_PATTERNS) {
				return too_many(error, "entries in one filter",
					CORDON_DBUS_CHOOSER_MAX_PATTERNS);
			}
			list[*count] = NULL;
			r = cordon_dbus_read_string_value(pattern, &list[*count], error);
			if (r >= 0) {
				(*count)++;
			}
		}
		if (r >= 0) {
			r = sd_bus_message_exit_container(m);
		}
		if (r >= 0) {
			r = sd_bus_message_exit_container(m);
		}
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

/* a(ssa(ss)s): (id, label, [(option id, label)], default). */
static int read_choices(sd_bus_message *m, void *target, sd_bus_error *error) {
	struct cordon_dbus_chooser_options *options = target;
	int r = sd_bus_message_enter_container(m, 'a', "(ssa(ss)s)");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r', "ssa(ss)s")) > 0) {
		if (options->choice_count == CORDON_DBUS_CHOOSER_MAX_CHOICES) {
			return too_many(error, "choices", CORDON_DBUS_CHOOSER_MAX_CHOICES);
		}
		struct cordon_dbus_choice *choice = &options->choices[options->choice_count++];
		const char *label, *value;
		r = cordon_dbus_read_string(m, &choice->id, error);
		if (r >= 0) {
			r = sd_bus_message_read(m, "s", &label);
		}
		if (r >= 0) {
			r = sd_bus_message_enter_container(m, 'a', "(ss)");
		}
		size_t option_count = 0;
		const char *option_id, *option_label;
		while (r >= 0 &&
			(r = sd_bus_message_read(m, "(ss)", &option_id, &option_label)) > 0) {
			if (++option_count > CORDON_DBUS_CHOOSER_MAX_CHOICE_OPTIONS) {
				return too_many(error, "options in one choice",
					CORDON_DBUS_CHOOSER_MAX_CHOICE_OPTIONS);
			}
		}
		if (r >= 0) {
			r = sd_bus_message_exit_container(m);
		}
		if (r >= 0) {
			r = sd_bus_message_read(m, "s", &value);
		}
		if (r >= 0) {
			r = cordon_dbus_read_string_value(value, &choice->value, error);
		}
		if (r >= 0) {
			r = sd_bus_message_exit_container(m);
		}
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

/* aay: the names SaveFiles saves in the chosen folder, each a single name. */
static int read_files(sd_bus_message *m, void *target, sd_bus_error *error) {
	struct cordon_dbus_chooser_options *options = target;
	int r = sd_bus_message_enter_container(m, 'a', "ay");
	while (r >= 0 && !sd_bus_message_at_end(m, false)) {
		if (options->name_count == CORDON_DBUS_CHOOSER_MAX_FILES) {
			return too_many(error, "files", CORDON_DBUS_CHOOSER_MAX_FILES);
		}
		char **name = &options->names[options->name_count];
		*name = NULL;
		r = cordon_dbus_read_bytestring(m, name, error);
		if (r < 0) {
			break;
		}
		options->name_count++;
		if (!(*name)[0] || strchr(*name, '/') || strcmp(*name, ".") == 0 ||
			strcmp(*name, "..") == 0) {
			return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
				"each of files must be a single file name");
		}
	}
	return r < 0 ? r : sd_bus_message_exit_container(m);
}

/* The keys of the 1.16 interface XML, per method; the rest are skipped. */
static const struct cordon_dbus_option open_options[] = {
	{"accept_label", "s", NULL},
	{"modal", "b", NULL},
	{"multiple", "b", read_multiple},
	{"directory", "b", read_directory},
	{"filters", "a(sa(us))", read_filters},
	{"current_filter", "(sa(us))", NULL},
	{"choices", "a(ssa(ss)s)", read_choices},
};

static const struct cordon_dbus_option save_options[] = {
	{"accept_label", "s", NULL},
	{"modal", "b", NULL},
	{"filters", "a(sa(us))", read_filters},
	{"current_filter", "(sa(us))", NULL},
	{"choices", "a(ssa(ss)s)", read_choices},
	{"current_name", "s", read_current_name},
	{"current_folder", "ay", read_current_folder},
	{"current_file", "ay", read_current_file},
};

static const struct cordon_dbus_option save_files_options[] = {
	{"accept_label", "s", NULL},
	{"modal", "b", NULL},
	{"choices", "a(ssa(ss)s)", read_choices},
	{"current_folder", "ay", read_current_folder},
	{"files", "aay", read_files},
};

bool cordon_dbus_chooser_options_read(sd_bus_message *m, enum cordon_dbus_chooser_kind kind,
	struct cordon_dbus_chooser_options *options, sd_bus_error *error) {
	switch (kind) {
	case CORDON_DBUS_OPEN_FILE:
		return cordon_dbus_read_options(
			m, open_options, COUNT(open_options), options, error);
	case CORDON_DBUS_SAVE_FILE:
		return cordon_dbus_read_options(
			m, save_options, COUNT(save_options), options, error);
	case CORDON_DBUS_SAVE_FILES:
		return cordon_dbus_read_options(
			m, save_files_options, COUNT(save_files_options), options, error);
	}
	return false;
}

void cordon_dbus_chooser_options_finish(struct cordon_dbus_chooser_options *options) {
	for (size_t i = 0; i < options->filter_count; i++) {
		struct cordon_dbus_filter *filter = &options->filters[i];
		free(filter->name);
		for (size_t j = 0; j < filter->pattern_count; j++) {
			free(filter->patterns[j]);
		}
		for (size_t j = 0; j < filter->mime_type_count; j++) {
			free(filter->mime_types[j]);
		}
	}
	for (size_t i = 0; i < options->choice_count; i++) {
		free(options->choices[i].id);
		free(options->choices[i].value);
	}
	for (size_t i = 0; i < options->name_count; i++) {
		free(options->names[i]);
	}
	free(options->current_name);
	free(options->current_folder);
	free(options->current_file);
	*options = (struct cordon_dbus_chooser_options){0};
}
