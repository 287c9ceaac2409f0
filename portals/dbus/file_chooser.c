/*
 * org.freedesktop.impl.portal.FileChooser: OpenFile, SaveFile and SaveFiles through the
 * same request lifecycle, dialogs and permission store as the Wayland door. The backend
 * answers with host file:// URIs; xdg-desktop-portal exports each through the document
 * portal for a sandboxed app and hands the app the document URI (its register_document).
 * The chosen name is opened here as in the Wayland door (O_NOFOLLOW in the folder's fd,
 * a regular file or a folder) before its URI is given, so a symbolic link is refused.
 *
 * SaveFiles names files the user did not type: each is opened in the chosen folder's fd
 * as SaveFile opens it, and one that exists, or is hidden or a start-up file, is
 * written under its own name only when the dialog says the user confirmed that file
 * (replace_file); otherwise it is created under a free name ("report (2).odt"), so no
 * dialog, plugin or auto answer overwrites a file the user was not shown.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "cordon/portal-ui.h"
#include "portals/dbus.h"
#include "portals/dbus_chooser_options.h"
#include "portals/dbus_options.h"
#include "portals/dbus_request.h"
#include "portals/file_chooser.h"
#include "portals/portals.h"
#include "portals/request.h"
#include "portals/save_name.h"

#define MAX_FILES CORDON_DBUS_CHOOSER_MAX_FILES

struct chooser {
	struct cordon_dbus_portal *service;
	struct cordon_dbus_request *dbus; /* NULL once answered */
	struct cordon_portal_request *request;
	enum cordon_dbus_chooser_kind kind;
	char *title;
	struct cordon_dbus_chooser_options options;
	bool replace[MAX_FILES]; /* SaveFiles: the user confirmed writing names[i] as it is */
	char *uris[MAX_FILES + 1]; /* NULL after the last, for sd_bus_message_append_strv */
	size_t uri_count;
};

static void free_chooser(void *data) {
	struct chooser *chooser = data;
	cordon_portal_request_destroy(chooser->request);
	cordon_dbus_chooser_options_finish(&chooser->options);
	for (size_t i = 0; i < chooser->uri_count; i++) {
		free(chooser->uris[i]);
	}
	free(chooser->title);
	free(chooser);
}

/* Close, or the frontend left: the dialog goes, nothing is answered. */
static void dismiss(void *data) {
	free_chooser(data);
}

/* Appends DIR/NAME (NAME may be NULL) as a URI. */
static bool add_uri(struct chooser *chooser, const char *dir, const char *name) {
	char *path = NULL;
	if (name && asprintf(&path, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name) < 0) {
		return false;
	}
	char *uri = cordon_dbus_file_uri(path ? path : dir);
	free(path);
	if (!uri) {
		return false;
	}
	chooser->uris[chooser->uri_count++] = uri;
	return true;
}

static bool chooser_replace_file(struct cordon_portal_request *request, size_t index) {
	struct chooser *chooser = request->data;
	if (chooser->kind != CORDON_DBUS_SAVE_FILES || index >= chooser->options.name_count) {
		return false;
	}
	chooser->replace[index] = true;
	return true;
}

/* The path of FD as the kernel names it, into PATH; false when it has none. */
static bool fd_path(int fd, char *path, size_t size) {
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t len = readlink(link, path, size - 1);
	if (len <= 0 || path[0] != '/') {
		return false;
	}
	path[len] = '\0';
	return true;
}

/*
 * Opens file INDEX of a SaveFiles in FOLDER_FD: under its own name if the user
 * confirmed it (opened as SaveFile opens, replacing what is there), else created new
 * under a free name. Adds its URI. *created gets the name it created (to undo), or NULL.
 */
static bool save_one(struct chooser *chooser, int folder_fd, const char *folder_risk, size_t index,
	char **created, const char **reason) {
	const char *token = chooser->request->token;
	const char *name = chooser->options.names[index];
	*created = NULL;
	int fd = -1;
	char final[256];
	if (chooser->replace[index]) {
		fd = cordon_file_chooser_open_at(folder_fd, name, true, false, token, reason);
	} else if (folder_risk) {
		wlr_log(WLR_INFO, "Portal request %s: '%s' not confirmed in a folder where %s",
			token, cordon_log_text(name), folder_risk);
		*reason = "the folder needs the user's confirmation of each file";
		return false;
	} else {
		bool exists = true;
		for (int tries = 0; fd < 0 && exists && tries < 8; tries++) {
			if (!cordon_save_name_alternative(folder_fd, name, final, sizeof(final))) {
				break;
			}
			fd = cordon_file_chooser_create_at(folder_fd, final, token, &exists);
		}
		if (fd < 0) {
			*reason = "no free name to save the file under";
			return false;
		}
		*created = strdup(final);
		if (strcmp(final, name) != 0) {
			wlr_log(WLR_INFO, "Portal request %s: '%s' saved as '%s' (not confirmed)",
				token, cordon_log_text(name), cordon_log_text(final));
		}
	}
	if (fd < 0) {
		return false;
	}
	char path[4096];
	bool ok = fd_path(fd, path, sizeof(path));
	close(fd);
	if (!ok) {
		*reason = "the saved file has no path";
		return false;
	}
	if (!add_uri(chooser, path, NULL)) {
		*reason = "out of memory";
		return false;
	}
	return true;
}

static bool save_files(struct chooser *chooser, int dir_fd, const char *name, const char **reason) {
	int folder_fd = cordon_file_chooser_open_at(
		dir_fd, name, false, true, chooser->request->token, reason);
	if (folder_fd < 0) {
		return false;
	}
	char folder[4096];
	const char *folder_risk =
		fd_path(folder_fd, folder, sizeof(folder)) ? cordon_save_folder_risk(folder) : NULL;
	char *created[MAX_FILES] = {0};
	bool ok = true;
	for (size_t i = 0; ok && i < chooser->options.name_count; i++) {
		ok = save_one(chooser, folder_fd, folder_risk, i, &created[i], reason);
	}
	for (size_t i = 0; i < chooser->options.name_count; i++) {
		/* A save that failed half way leaves none of the new files behind. */
		if (!ok && created[i]) {
			unlinkat(folder_fd, created[i], 0);
		}
		free(created[i]);
	}
	if (!ok) {
		for (size_t i = 0; i < chooser->uri_count; i++) {
			free(chooser->uris[i]);
			chooser->uris[i] = NULL;
		}
		chooser->uri_count = 0;
	}
	close(folder_fd);
	return ok;
}

static bool chooser_choose_at(
	struct cordon_portal_request *request, int dir_fd, const char *name, const char **reason) {
	struct chooser *chooser = request->data;
	/* SaveFiles may choose the folder it is in: "." in its own fd. */
	bool here = chooser->kind == CORDON_DBUS_SAVE_FILES && strcmp(name, ".") == 0;
	if (!here &&
		(name[0] == '\0' || strchr(name, '/') || strcmp(name, ".") == 0 ||
			strcmp(name, "..") == 0)) {
		*reason = "a chosen name must be a single file name";
		return false;
	}
	bool single = !chooser->options.multiple || chooser->kind != CORDON_DBUS_OPEN_FILE;
	size_t needed = chooser->kind == CORDON_DBUS_SAVE_FILES ? chooser->options.name_count : 1;
	if ((single && chooser->uri_count > 0) || chooser->uri_count + needed > MAX_FILES) {
		*reason = "too many files chosen";
		return false;
	}
	if (chooser->kind == CORDON_DBUS_SAVE_FILES) {
		return save_files(chooser, dir_fd, name, reason);
	}
	bool directory = chooser->options.directory;
	int fd = cordon_file_chooser_open_at(dir_fd, name, chooser->kind == CORDON_DBUS_SAVE_FILE,
		directory, request->token, reason);
	if (fd < 0) {
		return false;
	}
	/* The path as the kernel resolved it from the fd cordon holds, not as typed. */
	char link[64], path[4096];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t len = readlink(link, path, sizeof(path) - 1);
	close(fd);
	if (len <= 0 || path[0] != '/') {
		*reason = "the chosen file has no path";
		return false;
	}
	path[len] = '\0';
	bool added = add_uri(chooser, path, NULL);
	if (!added) {
		*reason = "out of memory";
	}
	return added;
}

/* What the response's uris count as, for the request's log and "nothing chosen". */
static void chooser_get_files(struct cordon_portal_request *request,
	const struct cordon_portal_file **files, size_t *count) {
	static const struct cordon_portal_file none[MAX_FILES];
	struct chooser *chooser = request->data;
	*files = none;
	*count = chooser->uri_count;
}

static int append_results(sd_bus_message *reply, void *data) {
	struct chooser *chooser = data;
	int r = sd_bus_message_open_container(reply, 'e', "sv");
	if (r >= 0) {
		r = sd_bus_message_append(reply, "s", "uris");
	}
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'v', "as");
	}
	if (r >= 0) {
		r = sd_bus_message_append_strv(reply, chooser->uris);
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(reply);
	}
	if (r >= 0) {
		r = sd_bus_message_close_container(reply);
	}
	/* Opened files are read-only, as the Wayland door's fds: the document too. */
	if (r >= 0 && chooser->kind == CORDON_DBUS_OPEN_FILE) {
		r = sd_bus_message_append(reply, "{sv}", "writable", "b", 0);
	}
	if (r < 0 || chooser->options.choice_count == 0) {
		return r;
	}
	r = sd_bus_message_open_container(reply, 'e', "sv");
	if (r >= 0) {
		r = sd_bus_message_append(reply, "s", "choices");
	}
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'v', "a(ss)");
	}
	if (r >= 0) {
		r = sd_bus_message_open_container(reply, 'a', "(ss)");
	}
	for (size_t i = 0; r >= 0 && i < chooser->options.choice_count; i++) {
		r = sd_bus_message_append(reply, "(ss)", chooser->options.choices[i].id,
			chooser->options.choices[i].value);
	}
	for (int i = 0; r >= 0 && i < 3; i++) {
		r = sd_bus_message_close_container(reply);
	}
	return r;
}

static void chooser_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct chooser *chooser = request->data;
	uint32_t code = response->result == CORDON_PORTAL_CHOSEN ? CORDON_DBUS_RESPONSE_SUCCESS
		: response->result == CORDON_PORTAL_CANCELLED    ? CORDON_DBUS_RESPONSE_CANCELLED
								 : CORDON_DBUS_RESPONSE_OTHER;
	if (code != CORDON_DBUS_RESPONSE_SUCCESS) {
		for (size_t i = 0; i < chooser->uri_count; i++) {
			free(chooser->uris[i]);
			chooser->uris[i] = NULL;
		}
		chooser->uri_count = 0;
	}
	struct cordon_dbus_request *dbus = chooser->dbus;
	chooser->dbus = NULL;
	cordon_dbus_request_finish(dbus, code, append_results, chooser);
	/* Not inside the lifecycle's own call: the request is freed from the loop. */
	if (!cordon_dbus_portal_defer_free(chooser->service, free_chooser, chooser)) {
		wlr_log(WLR_ERROR, "D-Bus portal: cannot free request %s", request->token);
	}
}

static const struct cordon_portal_request_impl request_impl = {
	.portal = "file-chooser",
	.send_response = chooser_send_response,
	.choose_at = chooser_choose_at,
	.get_files = chooser_get_files,
	.replace_file = chooser_replace_file,
};

/* The dialog's options from the chooser's, as the Wayland door gives them. */
static void submit(struct chooser *chooser) {
	struct cordon_portal_ui_filter filters[CORDON_DBUS_CHOOSER_MAX_FILTERS];
	for (size_t i = 0; i < chooser->options.filter_count; i++) {
		const struct cordon_dbus_filter *filter = &chooser->options.filters[i];
		filters[i] = (struct cordon_portal_ui_filter){
			.name = filter->name,
			.patterns = (const char *const *)filter->patterns,
			.pattern_count = filter->pattern_count,
			.mime_types = (const char *const *)filter->mime_types,
			.mime_type_count = filter->mime_type_count,
		};
	}
	/* current_file suggests its name; its folder stays a hint, as current_folder. */
	const char *base =
		chooser->options.current_file ? strrchr(chooser->options.current_file, '/') : NULL;
	const char *current_name = chooser->options.current_name ? chooser->options.current_name
		: base && base[1]                                ? base + 1
								 : NULL;
	bool save = chooser->kind == CORDON_DBUS_SAVE_FILE;
	const char *fallback = chooser->kind == CORDON_DBUS_OPEN_FILE ? "Open a file"
		: save                                                ? "Save a file"
		       : "Choose a folder to save the files in";
	/* SaveFiles shows the app's names; a plugin before ABI 4 gets a folder choice. */
	enum cordon_portal_ui_portal portal = save        ? CORDON_PORTAL_UI_FILE_SAVE
		: chooser->kind == CORDON_DBUS_SAVE_FILES ? CORDON_PORTAL_UI_FILE_SAVE_FILES
							  : CORDON_PORTAL_UI_FILE_OPEN;
	struct cordon_portal_ui_request options = {
		.portal = portal,
		.title = chooser->title && chooser->title[0] ? chooser->title : fallback,
		.multiple = chooser->kind == CORDON_DBUS_OPEN_FILE && chooser->options.multiple,
		.directory = chooser->options.directory,
		.save_files = (const char *const *)chooser->options.names,
		.save_file_count =
			chooser->kind == CORDON_DBUS_SAVE_FILES ? chooser->options.name_count : 0,
		.current_folder = chooser->options.current_folder,
		.current_name = save ? current_name : NULL,
		.filters = filters,
		.filter_count = chooser->options.filter_count,
	};
	cordon_portal_request_submit(chooser->request, &options);
}

static int reply_response(sd_bus_message *m, uint32_t response) {
	return sd_bus_reply_method_return(m, "ua{sv}", response, 0);
}

static int handle_method(sd_bus_message *m, struct cordon_dbus_portal *service,
	enum cordon_dbus_chooser_kind kind, sd_bus_error *error) {
	if (!cordon_dbus_portal_check_sender(service, m, error)) {
		return -EACCES;
	}
	const char *handle, *app_id, *parent_window, *title;
	int r = sd_bus_message_read(m, "osss", &handle, &app_id, &parent_window, &title);
	if (r < 0) {
		return r;
	}
	struct chooser *chooser = calloc(1, sizeof(*chooser));
	if (!chooser) {
		return -ENOMEM;
	}
	chooser->service = service;
	chooser->kind = kind;
	if (cordon_dbus_read_string_value(title, &chooser->title, error) < 0 ||
		!cordon_dbus_chooser_options_read(m, kind, &chooser->options, error)) {
		wlr_log(WLR_INFO, "D-Bus portal: %s from '%s' refused: %s",
			sd_bus_message_get_member(m), cordon_log_text(app_id),
			cordon_log_text(error->message));
		free_chooser(chooser);
		return -EINVAL;
	}
	if (kind == CORDON_DBUS_SAVE_FILES && chooser->options.name_count == 0) {
		free_chooser(chooser);
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "SaveFiles needs files");
	}
	struct cordon_portal_caller caller;
	struct wl_resource *parent;
	bool mismatch;
	if (!cordon_dbus_portal_caller(
		    service, app_id, parent_window, &caller, &parent, &mismatch)) {
		free_chooser(chooser);
		if (mismatch) {
			/* Refused, logged with both identities: one of the two is lying. */
			return reply_response(m, CORDON_DBUS_RESPONSE_OTHER);
		}
		return sd_bus_error_set(
			error, SD_BUS_ERROR_INVALID_ARGS, "the app id is not valid");
	}
	bool over_cap;
	chooser->request = cordon_portal_request_create_for(
		service->portals, &caller, &request_impl, chooser, &over_cap);
	if (!chooser->request) {
		wlr_log(WLR_INFO, "D-Bus portal: %s from '%s' refused: %s %d",
			sd_bus_message_get_member(m), cordon_log_text(app_id),
			over_cap ? "more than" : "out of memory at",
			CORDON_PORTAL_MAX_REQUESTS_PER_CLIENT);
		free_chooser(chooser);
		return over_cap ? sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED,
					  "more than %d unanswered portal requests of this app",
					  CORDON_PORTAL_MAX_REQUESTS_PER_CLIENT)
				: -ENOMEM;
	}
	if (parent) {
		cordon_portal_request_set_parent(chooser->request, parent);
	}
	chooser->dbus = cordon_dbus_request_create(service, m, handle, error);
	if (!chooser->dbus) {
		free_chooser(chooser);
		return -EINVAL;
	}
	chooser->dbus->dismiss = dismiss;
	chooser->dbus->data = chooser;
	submit(chooser);
	/* Answered later, when the dialog is (or at once, when denied). */
	return 1;
}

static int handle_open_file(sd_bus_message *m, void *data, sd_bus_error *error) {
	return handle_method(m, data, CORDON_DBUS_OPEN_FILE, error);
}

static int handle_save_file(sd_bus_message *m, void *data, sd_bus_error *error) {
	return handle_method(m, data, CORDON_DBUS_SAVE_FILE, error);
}

static int handle_save_files(sd_bus_message *m, void *data, sd_bus_error *error) {
	return handle_method(m, data, CORDON_DBUS_SAVE_FILES, error);
}

static const sd_bus_vtable file_chooser_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD(
		"OpenFile", "osssa{sv}", "ua{sv}", handle_open_file, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD(
		"SaveFile", "osssa{sv}", "ua{sv}", handle_save_file, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD(
		"SaveFiles", "osssa{sv}", "ua{sv}", handle_save_files, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

int cordon_dbus_file_chooser_add(struct cordon_dbus_portal *service) {
	return sd_bus_add_object_vtable(service->bus, &service->file_chooser,
		CORDON_DBUS_PORTAL_PATH, "org.freedesktop.impl.portal.FileChooser",
		file_chooser_vtable, service);
}
