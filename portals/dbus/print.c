/*
 * org.freedesktop.impl.portal.Print: PreparePrint and Print through the print portal's
 * own request (portals/print.c): the same dialog with CUPS's printers, the same checks,
 * cordon sending the job. The frontend speaks GtkPrintSettings: keys and values are
 * translated to the IPP names the print portal takes, and back for the answer. Its
 * token is a uint32: cordon keeps which of its own 128-bit tokens each one stands for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "portals/dbus.h"
#include "portals/dbus_options.h"
#include "portals/dbus_request.h"
#include "portals/portals.h"
#include "portals/print.h"
#include "portals/print_settings.h"
#include "portals/request.h"

/* Tokens of recent prepares, as the print portal bounds its own. */
#define MAX_TOKENS 64
#define MAX_VALUE 256

struct dbus_token {
	struct wl_list link; /* cordon_dbus_portal.print_tokens, oldest first */
	uint32_t id;
	char token[CORDON_PORTAL_TOKEN_LEN + 1];
};

struct dbus_print {
	struct cordon_dbus_portal *service;
	struct cordon_dbus_request *dbus; /* NULL once answered */
	struct cordon_print *print;
	bool prepare;
	uint32_t token_id; /* options' token */
	bool modal;
	char *keys[16], *values[16]; /* the answer's settings, GTK's names */
	size_t count;
	uint32_t new_token;
};

static void free_print(void *data) {
	struct dbus_print *print = data;
	cordon_print_destroy(print->print);
	for (size_t i = 0; i < print->count; i++) {
		free(print->keys[i]);
		free(print->values[i]);
	}
	free(print);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Reads an a{sv} of GTK settings (string values) as suggestions for PRINT. */
static bool read_settings(sd_bus_message *m, struct cordon_print *print, sd_bus_error *error) {
	int r = sd_bus_message_enter_container(m, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *value;
		r = sd_bus_message_read(m, "s", &key);
		if (r >= 0 && sd_bus_message_peek_type(m, NULL, (const char **)&value) >= 0 &&
			strcmp(value, "s") != 0) {
			/* GTK's settings are all strings; a non-string is a setting cordon ignores.
			 */
			r = sd_bus_message_skip(m, "v");
		} else if (r >= 0 && (r = sd_bus_message_read(m, "v", "s", &value)) >= 0) {
			const char *ipp_key, *why = "malformed value";
			char ipp_value[MAX_VALUE];
			if (!cordon_print_setting_from_gtk(key, value, &ipp_key, ipp_value, &why) ||
				(ipp_key &&
					!cordon_print_suggest(print, ipp_key, ipp_value, &why))) {
				sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					"setting '%.64s': %s", key, why);
				return false;
			}
		}
		if (r >= 0) {
			r = sd_bus_message_exit_container(m);
		}
	}
	if (r >= 0) {
		r = sd_bus_message_exit_container(m);
	}
	if (r < 0 && !sd_bus_error_is_set(error)) {
		sd_bus_error_set_errnof(error, -r, "malformed settings");
	}
	return r >= 0;
}

static int read_modal(sd_bus_message *m, void *target, sd_bus_error *error) {
	int modal;
	int r = sd_bus_message_read(m, "b", &modal);
	((struct dbus_print *)target)->modal = modal;
	return r;
}

static int read_token(sd_bus_message *m, void *target, sd_bus_error *error) {
	return sd_bus_message_read(m, "u", &((struct dbus_print *)target)->token_id);
}

static const struct cordon_dbus_option print_options[] = {
	{"modal", "b", read_modal},
	{"token", "u", read_token},
	{"supported_output_file_formats", "as", NULL},
};

static const struct cordon_dbus_option prepare_options[] = {
	{"modal", "b", NULL},
	{"accept_label", "s", NULL},
	{"supported_output_file_formats", "as", NULL},
};

/* A prepare's cordon token behind the frontend's uint32; it is used up here. */
static bool take_token(
	struct cordon_dbus_portal *service, uint32_t id, char token[CORDON_PORTAL_TOKEN_LEN + 1]) {
	struct dbus_token *entry;
	wl_list_for_each(entry, &service->print_tokens, link) {
		if (entry->id == id) {
			memcpy(token, entry->token, CORDON_PORTAL_TOKEN_LEN + 1);
			wl_list_remove(&entry->link);
			free(entry);
			return true;
		}
	}
	return false;
}

static bool keep_token(struct cordon_dbus_portal *service, const char *token, uint32_t *id) {
	struct dbus_token *entry = calloc(1, sizeof(*entry));
	if (!entry || getrandom(&entry->id, sizeof(entry->id), 0) != sizeof(entry->id)) {
		free(entry);
		return false;
	}
	entry->id |= 1; /* 0 is "no token" to the frontend */
	snprintf(entry->token, sizeof(entry->token), "%s", token);
	wl_list_insert(service->print_tokens.prev, &entry->link);
	if (wl_list_length(&service->print_tokens) > MAX_TOKENS) {
		struct dbus_token *oldest =
			wl_container_of(service->print_tokens.next, oldest, link);
		wl_list_remove(&oldest->link);
		free(oldest);
	}
	*id = entry->id;
	return true;
}

void cordon_dbus_print_finish(struct cordon_dbus_portal *service) {
	struct dbus_token *entry, *tmp;
	wl_list_for_each_safe(entry, tmp, &service->print_tokens, link) {
		wl_list_remove(&entry->link);
		free(entry);
	}
}

static int append_strings(
	sd_bus_message *reply, const char *key, struct dbus_print *print, bool page_setup) {
	int r = sd_bus_message_open_container(reply, 'e', "sv");
	r = r < 0 ? r : sd_bus_message_append(reply, "s", key);
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'v', "a{sv}");
	r = r < 0 ? r : sd_bus_message_open_container(reply, 'a', "{sv}");
	for (size_t i = 0; r >= 0 && i < print->count; i++) {
		bool is_page = strcmp(print->keys[i], "paper-format") == 0 ||
			strcmp(print->keys[i], "orientation") == 0;
		if (page_setup && !is_page) {
			continue;
		}
		const char *name = !page_setup                       ? print->keys[i]
			: strcmp(print->keys[i], "orientation") == 0 ? "Orientation"
								     : "Name";
		r = sd_bus_message_append(reply, "{sv}", name, "s", print->values[i]);
	}
	for (int i = 0; r >= 0 && i < 3; i++) {
		r = sd_bus_message_close_container(reply);
	}
	return r;
}

static int append_results(sd_bus_message *reply, void *data) {
	struct dbus_print *print = data;
	if (!print->prepare) {
		return 0;
	}
	int r = append_strings(reply, "settings", print, false);
	r = r < 0 ? r : append_strings(reply, "page-setup", print, true);
	return r < 0 ? r : sd_bus_message_append(reply, "{sv}", "token", "u", print->new_token);
}

static void handle_answer(void *data, const struct cordon_print_answer *answer) {
	struct dbus_print *print = data;
	uint32_t code = answer->response->result == CORDON_PORTAL_CHOSEN
		? CORDON_DBUS_RESPONSE_SUCCESS
		: answer->response->result == CORDON_PORTAL_CANCELLED
		? CORDON_DBUS_RESPONSE_CANCELLED
		: CORDON_DBUS_RESPONSE_OTHER;
	for (size_t i = 0; code == 0 && i < answer->count && print->count < COUNT(print->keys);
		i++) {
		const char *key;
		char value[MAX_VALUE];
		if (cordon_print_setting_to_gtk(answer->keys[i], answer->values[i], &key, value) &&
			key) {
			print->keys[print->count] = strdup(key);
			print->values[print->count] = strdup(value);
			if (print->keys[print->count] && print->values[print->count]) {
				print->count++;
			} else {
				free(print->keys[print->count]);
				free(print->values[print->count]);
			}
		}
	}
	if (code == 0 && print->prepare &&
		!keep_token(print->service, answer->token, &print->new_token)) {
		code = CORDON_DBUS_RESPONSE_OTHER;
	}
	struct cordon_dbus_request *dbus = print->dbus;
	print->dbus = NULL;
	cordon_dbus_request_finish(dbus, code, append_results, print);
	if (!cordon_dbus_portal_defer_free(print->service, free_print, print)) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot free a print request");
	}
}

static int handle_method(
	sd_bus_message *m, struct cordon_dbus_portal *service, bool prepare, sd_bus_error *error) {
	if (!cordon_dbus_portal_check_sender(service, m, error)) {
		return -EACCES;
	}
	const char *handle, *app_id, *parent_window, *title;
	int fd = -1;
	int r = sd_bus_message_read(m, "osss", &handle, &app_id, &parent_window, &title);
	if (r >= 0 && !prepare) {
		r = sd_bus_message_read(m, "h", &fd);
	}
	if (r < 0) {
		return r;
	}
	struct dbus_print *print = calloc(1, sizeof(*print));
	if (!print) {
		return -ENOMEM;
	}
	print->service = service;
	print->prepare = prepare;
	struct cordon_portal_caller caller;
	struct wl_resource *parent;
	bool mismatch, over_cap;
	if (!cordon_dbus_portal_caller(
		    service, app_id, parent_window, &caller, &parent, &mismatch)) {
		free(print);
		if (mismatch) {
			return sd_bus_reply_method_return(
				m, "ua{sv}", CORDON_DBUS_RESPONSE_OTHER, 0);
		}
		return sd_bus_error_set(
			error, SD_BUS_ERROR_INVALID_ARGS, "the app id is not valid");
	}
	print->print = cordon_print_create_for(
		service->portals, &caller, prepare, handle_answer, print, &over_cap);
	if (!print->print) {
		free(print);
		return over_cap ? sd_bus_error_set(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					  "too many unanswered portal requests of this app")
				: -ENOMEM;
	}
	if (parent) {
		cordon_portal_request_set_parent(cordon_print_request(print->print), parent);
	}
	bool ok = prepare
		? read_settings(m, print->print, error) && read_settings(m, print->print, error) &&
			cordon_dbus_read_options(
				m, prepare_options, COUNT(prepare_options), print, error)
		: cordon_dbus_read_options(m, print_options, COUNT(print_options), print, error);
	char token[CORDON_PORTAL_TOKEN_LEN + 1];
	bool has_token = !prepare && print->token_id && take_token(service, print->token_id, token);
	if (ok &&
		!cordon_print_set_options(
			print->print, title, print->modal, has_token ? token : NULL)) {
		ok = sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "the title is too long") >=
			0;
	}
	if (ok && !prepare) {
		/* The message keeps its fd: the print portal gets its own. */
		int own = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		/* What the frontend passes on is the app's PDF (GTK prints to PDF for it). */
		if (own < 0 || !cordon_print_set_document(print->print, own, "application/pdf")) {
			ok = sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
				     "the fd cannot be used") >= 0;
		}
	}
	if (ok) {
		print->dbus = cordon_dbus_request_create(service, m, handle, error);
		ok = print->dbus != NULL;
	}
	if (!ok) {
		wlr_log(WLR_INFO, "D-Bus portal: %s from '%s' refused: %s",
			sd_bus_message_get_member(m), cordon_log_text(app_id),
			error->message ? error->message : "?");
		free_print(print);
		return -EINVAL;
	}
	print->dbus->dismiss = free_print;
	print->dbus->data = print;
	cordon_print_submit(print->print);
	return 1;
}

static int handle_print(sd_bus_message *m, void *data, sd_bus_error *error) {
	return handle_method(m, data, false, error);
}

static int handle_prepare_print(sd_bus_message *m, void *data, sd_bus_error *error) {
	return handle_method(m, data, true, error);
}

static const sd_bus_vtable print_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Print", "osssha{sv}", "ua{sv}", handle_print, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("PreparePrint", "osssa{sv}a{sv}a{sv}", "ua{sv}", handle_prepare_print,
		SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

int cordon_dbus_print_add(struct cordon_dbus_portal *service) {
	return sd_bus_add_object_vtable(service->bus, &service->print, CORDON_DBUS_PORTAL_PATH,
		"org.freedesktop.impl.portal.Print", print_vtable, service);
}
