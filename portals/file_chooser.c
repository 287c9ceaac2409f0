/*
 * The file chooser portal. The app describes what it wants (title, filters, a
 * suggested name); the user picks in cordon's dialog; cordon opens each chosen
 * file itself, relative to the folder's fd and with O_NOFOLLOW so that a path
 * swapped for a symlink after the choice is refused, and hands over only the fd
 * and the file's name. The app never learns where the file lives on the host.
 *
 * A folder is different: a directory fd handed into a sandbox walks the host's tree with
 * "..". A sandboxed app gets a chosen folder as a path in its own document view
 * (folder_grant.c); only a host client, which can open any path anyway, gets the fd.
 */
#include "portals/file_chooser.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "cordon-portal-v1-protocol.h"
#include "cordon/portal-ui.h"
#include "portals/folder_grant.h"
#include "portals/portals.h"
#include "portals/request.h"

#define MAX_FILTERS 32
#define MAX_PATTERNS 32
#define MAX_STRING 4096
/* More than anyone picks by hand; bounds the fds one request can hold. */
#define MAX_FILES 64

struct filter {
	char *name;
	char *patterns[MAX_PATTERNS];
	size_t pattern_count;
	char *mime_types[MAX_PATTERNS];
	size_t mime_type_count;
};

struct file_chooser {
	struct wl_resource *resource;
	struct cordon_portal_request *request;
	enum cordon_portal_manager_v1_file_chooser_kind kind;
	char *title, *current_folder, *current_name;
	bool multiple, directory;
	struct filter filters[MAX_FILTERS];
	size_t filter_count;
	struct cordon_portal_file files[MAX_FILES];
	size_t file_count;
	/* The document portal's answer for the chosen folders, while it is awaited. */
	struct cordon_folder_grant *folder_grant;
};

static const struct cordon_portal_file_chooser_v1_interface file_chooser_impl;

static struct file_chooser *chooser_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static void close_files(struct file_chooser *chooser) {
	for (size_t i = 0; i < chooser->file_count; i++) {
		close(chooser->files[i].fd);
		free(chooser->files[i].display_name);
	}
	chooser->file_count = 0;
}

static void free_filters(struct file_chooser *chooser) {
	for (size_t i = 0; i < chooser->filter_count; i++) {
		struct filter *filter = &chooser->filters[i];
		free(filter->name);
		for (size_t j = 0; j < filter->pattern_count; j++) {
			free(filter->patterns[j]);
		}
		for (size_t j = 0; j < filter->mime_type_count; j++) {
			free(filter->mime_types[j]);
		}
	}
}

static void handle_resource_destroy(struct wl_resource *resource) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	/* The client let go (or disconnected): any open dialog is dismissed. */
	cordon_portal_request_destroy(chooser->request);
	cordon_folder_grant_cancel(chooser->folder_grant);
	close_files(chooser);
	free_filters(chooser);
	free(chooser->title);
	free(chooser->current_folder);
	free(chooser->current_name);
	free(chooser);
}

/* Every option is only accepted while the request is being configured. */
static bool check_configuring(struct file_chooser *chooser) {
	if (chooser->request->state == CORDON_PORTAL_REQUEST_CONFIGURING) {
		return true;
	}
	wl_resource_post_error(chooser->resource,
		CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_ALREADY_SUBMITTED,
		"options and submit are only accepted before submit");
	return false;
}

static bool check_string(struct file_chooser *chooser, const char *value, const char *what) {
	if (strlen(value) < MAX_STRING) {
		return true;
	}
	wl_resource_post_error(chooser->resource,
		CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_INVALID_OPTION, "%s is longer than %d bytes",
		what, MAX_STRING - 1);
	return false;
}

static void set_string(
	struct file_chooser *chooser, char **field, const char *value, const char *what) {
	if (!check_configuring(chooser) || !check_string(chooser, value, what)) {
		return;
	}
	char *copy = strdup(value);
	if (!copy) {
		wl_client_post_no_memory(wl_resource_get_client(chooser->resource));
		return;
	}
	free(*field);
	*field = copy;
}

static void handle_destroy(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_set_title(
	struct wl_client *client, struct wl_resource *resource, const char *title) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	set_string(chooser, &chooser->title, title, "the title");
}

static void handle_set_parent(
	struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (!check_configuring(chooser)) {
		return;
	}
	if (!cordon_portal_request_set_parent(chooser->request, parent)) {
		wl_resource_post_error(resource, CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_BAD_PARENT,
			"the parent toplevel is not the client's own");
	}
}

static bool check_kind(struct file_chooser *chooser,
	enum cordon_portal_manager_v1_file_chooser_kind kind, const char *option) {
	if (chooser->kind == kind) {
		return true;
	}
	wl_resource_post_error(chooser->resource,
		CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_INVALID_OPTION,
		"%s only applies to %s requests", option,
		kind == CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN ? "open" : "save");
	return false;
}

static bool check_flag(struct file_chooser *chooser, uint32_t value) {
	if (value <= 1) {
		return true;
	}
	wl_resource_post_error(chooser->resource,
		CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_INVALID_OPTION, "a flag must be 0 or 1, not %u",
		value);
	return false;
}

static void handle_set_multiple(
	struct wl_client *client, struct wl_resource *resource, uint32_t multiple) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (check_configuring(chooser) &&
		check_kind(chooser, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN, "multiple") &&
		check_flag(chooser, multiple)) {
		chooser->multiple = multiple;
	}
}

static void handle_set_directory(
	struct wl_client *client, struct wl_resource *resource, uint32_t directory) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (check_configuring(chooser) &&
		check_kind(chooser, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN, "directory") &&
		check_flag(chooser, directory)) {
		chooser->directory = directory;
	}
}

static void handle_set_current_folder(
	struct wl_client *client, struct wl_resource *resource, const char *folder) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	set_string(chooser, &chooser->current_folder, folder, "the current folder");
}

static void handle_set_current_name(
	struct wl_client *client, struct wl_resource *resource, const char *name) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (!check_configuring(chooser) ||
		!check_kind(
			chooser, CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE, "current_name")) {
		return;
	}
	if (strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		wl_resource_post_error(resource, CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_INVALID_OPTION,
			"the current name must be a single file name");
		return;
	}
	set_string(chooser, &chooser->current_name, name, "the current name");
}

static void handle_add_filter(
	struct wl_client *client, struct wl_resource *resource, const char *name) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (!check_configuring(chooser) || !check_string(chooser, name, "a filter name")) {
		return;
	}
	if (chooser->filter_count == MAX_FILTERS) {
		wl_resource_post_error(resource,
			CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_TOO_MANY_FILTERS,
			"more than %d filters", MAX_FILTERS);
		return;
	}
	struct filter *filter = &chooser->filters[chooser->filter_count];
	filter->name = strdup(name);
	if (!filter->name) {
		wl_client_post_no_memory(client);
		return;
	}
	chooser->filter_count++;
}

static void add_to_filter(struct file_chooser *chooser, bool mime, const char *value) {
	if (!check_configuring(chooser) || !check_string(chooser, value, "a filter entry")) {
		return;
	}
	if (chooser->filter_count == 0) {
		wl_resource_post_error(chooser->resource,
			CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_INVALID_OPTION,
			"a pattern or mime type needs an add_filter before it");
		return;
	}
	struct filter *filter = &chooser->filters[chooser->filter_count - 1];
	char **list = mime ? filter->mime_types : filter->patterns;
	size_t *count = mime ? &filter->mime_type_count : &filter->pattern_count;
	if (*count == MAX_PATTERNS) {
		wl_resource_post_error(chooser->resource,
			CORDON_PORTAL_FILE_CHOOSER_V1_ERROR_TOO_MANY_FILTERS,
			"more than %d entries in one filter", MAX_PATTERNS);
		return;
	}
	list[*count] = strdup(value);
	if (!list[*count]) {
		wl_client_post_no_memory(wl_resource_get_client(chooser->resource));
		return;
	}
	(*count)++;
}

static void handle_add_pattern(
	struct wl_client *client, struct wl_resource *resource, const char *pattern) {
	add_to_filter(chooser_from_resource(resource), false, pattern);
}

static void handle_add_mime_type(
	struct wl_client *client, struct wl_resource *resource, const char *mime_type) {
	add_to_filter(chooser_from_resource(resource), true, mime_type);
}

static void handle_submit(struct wl_client *client, struct wl_resource *resource) {
	struct file_chooser *chooser = chooser_from_resource(resource);
	if (!check_configuring(chooser)) {
		return;
	}
	struct cordon_portal_ui_filter filters[MAX_FILTERS];
	for (size_t i = 0; i < chooser->filter_count; i++) {
		struct filter *filter = &chooser->filters[i];
		filters[i] = (struct cordon_portal_ui_filter){
			.name = filter->name,
			.patterns = (const char *const *)filter->patterns,
			.pattern_count = filter->pattern_count,
			.mime_types = (const char *const *)filter->mime_types,
			.mime_type_count = filter->mime_type_count,
		};
	}
	bool save = chooser->kind == CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE;
	struct cordon_portal_ui_request options = {
		.portal = save ? CORDON_PORTAL_UI_FILE_SAVE : CORDON_PORTAL_UI_FILE_OPEN,
		.title = chooser->title ? chooser->title : (save ? "Save a file" : "Open a file"),
		.multiple = chooser->multiple,
		.directory = chooser->directory,
		.current_folder = chooser->current_folder,
		.current_name = chooser->current_name,
		.filters = filters,
		.filter_count = chooser->filter_count,
	};
	cordon_portal_request_submit(chooser->request, &options);
}

static const struct cordon_portal_file_chooser_v1_interface file_chooser_impl = {
	.destroy = handle_destroy,
	.set_title = handle_set_title,
	.set_parent = handle_set_parent,
	.set_multiple = handle_set_multiple,
	.set_directory = handle_set_directory,
	.set_current_folder = handle_set_current_folder,
	.set_current_name = handle_set_current_name,
	.add_filter = handle_add_filter,
	.add_pattern = handle_add_pattern,
	.add_mime_type = handle_add_mime_type,
	.submit = handle_submit,
};

/*
 * Opens NAME in DIR_FD the way the request needs it. O_NONBLOCK so that a FIFO
 * cannot stall the compositor in open(); only regular files (or directories,
 * when asked for) are handed over.
 */
int cordon_file_chooser_open_at(int dir_fd, const char *name, bool save, bool directory,
	const char *token, const char **reason) {
	int flags = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK;
	if (directory) {
		flags |= O_RDONLY | O_DIRECTORY;
	} else if (save) {
		flags |= O_RDWR | O_CREAT;
	} else {
		flags |= O_RDONLY;
	}
	int fd = openat(dir_fd, name, flags, 0666);
	if (fd < 0) {
		*reason = errno == ELOOP ? "the chosen file is a symbolic link"
					 : "the chosen file cannot be opened";
		wlr_log_errno(WLR_INFO, "Portal request %s: cannot open '%s'", token,
			cordon_log_text(name));
		return -1;
	}
	struct stat st;
	bool right_type =
		fstat(fd, &st) == 0 && (directory ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	if (!right_type) {
		*reason = "the chosen file is not a regular file";
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		*reason = "the chosen file cannot be opened";
		close(fd);
		return -1;
	}
	return fd;
}

int cordon_file_chooser_create_at(int dir_fd, const char *name, const char *token, bool *exists) {
	*exists = false;
	int fd = openat(
		dir_fd, name, O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_RDWR | O_CREAT | O_EXCL, 0666);
	if (fd < 0) {
		*exists = errno == EEXIST;
		if (!*exists) {
			wlr_log_errno(
				WLR_INFO, "Portal request %s: cannot create '%s'", token, name);
		}
	}
	return fd;
}

static bool chooser_choose_at(
	struct cordon_portal_request *request, int dir_fd, const char *name, const char **reason) {
	struct file_chooser *chooser = request->data;
	if (name[0] == '\0' || strchr(name, '/') || strcmp(name, ".") == 0 ||
		strcmp(name, "..") == 0) {
		*reason = "a chosen name must be a single file name";
		return false;
	}
	bool single = !chooser->multiple ||
		chooser->kind == CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE;
	if ((single && chooser->file_count == 1) || chooser->file_count == MAX_FILES) {
		*reason = "too many files chosen";
		return false;
	}
	char *display_name = strdup(name);
	if (!display_name) {
		*reason = "out of memory";
		return false;
	}
	int fd = cordon_file_chooser_open_at(dir_fd, name,
		chooser->kind == CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE,
		chooser->directory, request->token, reason);
	if (fd < 0) {
		free(display_name);
		return false;
	}
	chooser->files[chooser->file_count++] = (struct cordon_portal_file){fd, display_name};
	return true;
}

static void chooser_get_files(struct cordon_portal_request *request,
	const struct cordon_portal_file **files, size_t *count) {
	struct file_chooser *chooser = request->data;
	*files = chooser->files;
	*count = chooser->file_count;
}

/*
 * Whether the chosen folders go as documents rather than fds: for every client that is
 * not known to be the host's, a sandbox of an unknown kind included (fail closed).
 */
static bool folders_as_documents(const struct file_chooser *chooser) {
	const struct cordon_portal_request *request = chooser->request;
	return chooser->directory &&
		(cordon_tag_is_unknown(&request->tag) || request->tag.sandboxed);
}

/* Checked before the dialog: a folder the app could not be given is not asked for. */
static const char *chooser_unavailable(struct cordon_portal_request *request) {
	struct file_chooser *chooser = request->data;
	if (!folders_as_documents(chooser)) {
		return NULL;
	}
	if (wl_resource_get_version(chooser->resource) <
		CORDON_PORTAL_FILE_CHOOSER_V1_FOLDER_SINCE_VERSION) {
		return "a sandboxed app is given folders as paths of its documents, which needs "
		       "cordon_portal_manager_v1 version 5";
	}
	if (!cordon_portal_request_app_id(request)[0]) {
		return "an app without an app id cannot be granted a folder";
	}
	if (!request->portals->host.session_bus) {
		return "no session bus, so no document portal to grant a folder through";
	}
	return NULL;
}

static void handle_folder_grant_done(
	void *data, const char *const *paths, size_t count, const char *reason) {
	struct file_chooser *chooser = data;
	chooser->folder_grant = NULL;
	struct wl_resource *resource = chooser->resource;
	if (!paths) {
		wlr_log(WLR_INFO, "Portal request %s of %s: no folder granted: %s",
			chooser->request->token,
			cordon_log_text(cordon_portal_request_app_id(chooser->request)), reason);
		cordon_portal_file_chooser_v1_send_failed(
			resource, CORDON_PORTAL_FAILURE_UNAVAILABLE, reason);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		const char *name = strrchr(paths[i], '/') + 1;
		cordon_portal_file_chooser_v1_send_folder(resource, paths[i], name);
	}
	cordon_portal_file_chooser_v1_send_done(resource);
}

/*
 * The chosen folders of a sandboxed app become directory documents: the answer is sent
 * when the document portal has made them. The fds are duplicated into the calls.
 */
static void send_folders(
	struct file_chooser *chooser, const struct cordon_portal_response *response) {
	int fds[MAX_FILES];
	const char *names[MAX_FILES];
	for (size_t i = 0; i < response->file_count; i++) {
		fds[i] = response->files[i].fd;
		names[i] = response->files[i].display_name;
	}
	struct cordon_portal_request *request = chooser->request;
	chooser->folder_grant = cordon_folder_grant_start(&request->portals->host,
		cordon_portal_request_app_id(request), fds, names, response->file_count,
		handle_folder_grant_done, chooser);
	if (!chooser->folder_grant) {
		cordon_portal_file_chooser_v1_send_failed(chooser->resource,
			CORDON_PORTAL_FAILURE_UNAVAILABLE,
			"the folder cannot be granted: no document portal");
	}
}

static void chooser_send_response(
	struct cordon_portal_request *request, const struct cordon_portal_response *response) {
	struct file_chooser *chooser = request->data;
	struct wl_resource *resource = chooser->resource;
	switch (response->result) {
	case CORDON_PORTAL_CHOSEN:
		if (folders_as_documents(chooser)) {
			send_folders(chooser, response);
			break;
		}
		/* libwayland duplicates each fd into the message; ours close below. */
		for (size_t i = 0; i < response->file_count; i++) {
			cordon_portal_file_chooser_v1_send_file(
				resource, response->files[i].fd, response->files[i].display_name);
		}
		cordon_portal_file_chooser_v1_send_done(resource);
		break;
	case CORDON_PORTAL_CANCELLED:
		cordon_portal_file_chooser_v1_send_cancelled(resource);
		break;
	case CORDON_PORTAL_FAILED:
		cordon_portal_file_chooser_v1_send_failed(
			resource, response->failure, response->reason);
		break;
	}
	close_files(chooser);
}

static const struct cordon_portal_request_impl request_impl = {
	.portal = "file-chooser",
	.send_response = chooser_send_response,
	.choose_at = chooser_choose_at,
	.get_files = chooser_get_files,
	.unavailable = chooser_unavailable,
};

void cordon_file_chooser_create(struct cordon_portals *portals, struct wl_client *client,
	struct wl_resource *manager, uint32_t id, uint32_t kind) {
	if (kind != CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_OPEN &&
		kind != CORDON_PORTAL_MANAGER_V1_FILE_CHOOSER_KIND_SAVE) {
		wl_resource_post_error(manager, CORDON_PORTAL_MANAGER_V1_ERROR_INVALID_KIND,
			"unknown file chooser kind %u", kind);
		return;
	}
	struct file_chooser *chooser = calloc(1, sizeof(*chooser));
	if (!chooser) {
		wl_client_post_no_memory(client);
		return;
	}
	chooser->kind = kind;
	chooser->request =
		cordon_portal_request_create(portals, client, manager, &request_impl, chooser);
	if (!chooser->request) {
		free(chooser);
		return;
	}
	chooser->resource = wl_resource_create(client, &cordon_portal_file_chooser_v1_interface,
		wl_resource_get_version(manager), id);
	if (!chooser->resource) {
		cordon_portal_request_destroy(chooser->request);
		free(chooser);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(
		chooser->resource, &file_chooser_impl, chooser, handle_resource_destroy);
}
