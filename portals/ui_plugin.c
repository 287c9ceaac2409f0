/*
 * Dialog plumbing between requests and the UI plugin. A plugin's answers are
 * recorded and delivered from an idle callback, never inside the plugin's own
 * call: a plugin may answer from open() or from a key handler without the
 * request (and the dialog it is answering from) being freed under it.
 *
 * Input reaches the plugin only through here, and here it waits for the grace
 * period ([portal] dialog-grace-ms): a dialog ignores key and button presses for
 * that long after it appears, gets the keyboard back, moves or changes size. A
 * dialog takes the keyboard the moment it shows, so without it a Return typed for
 * another window (or a click aimed at what was under the dialog) answers the
 * dialog before the user has seen it. Enforced for every plugin, whatever it does.
 */
#include "portals/ui_plugin.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "common/format.h"
#include "portals/dialog_input.h"
#include "portals/dialog_surface.h"
#include "portals/permission_store.h"
#include "portals/portals.h"
#include "portals/request.h"

enum outcome {
	OUTCOME_NONE,
	OUTCOME_DONE,
	OUTCOME_CANCEL,
};

struct cordon_portal_ui {
	struct cordon_portals *portals;
	const struct cordon_portal_ui_plugin *plugin; /* NULL: no dialog can be shown */
	void *plugin_data;
	void *dl_handle; /* for a plugin loaded from a file */
	struct wl_list dialogs; /* cordon_portal_dialog.link, newest first */
	/* The dialog a button was pressed on: it gets the release wherever it happens. */
	struct cordon_portal_dialog *pointer_grab;
	/* The dialog that had the keyboard when last looked at: another one starts its grace. */
	struct cordon_portal_dialog *focus;
	uint32_t grace_ms;
	/* Presses dropped in a grace: their releases are dropped too (a plugin may act on one). */
	uint32_t dropped_keys[16];
	size_t dropped_key_count;
	uint32_t dropped_buttons[8];
	size_t dropped_button_count;
};

struct cordon_portal_dialog {
	struct cordon_portal_ui *ui;
	struct cordon_portal_request *request;
	struct wl_list link;
	void *user_data;
	enum outcome outcome;
	struct wl_event_source *deliver;
	/* Why the last choice was refused, for a "done" with nothing chosen. */
	const char *refusal;
	char *folder; /* the host folder of the last choice, remembered for the app */
	struct cordon_portal_dialog_surface *surface;
	/* Where it was last shown: moving or resizing under the pointer restarts the grace. */
	int box_x, box_y, box_width, box_height;
	/* Input is taken from this time on (CLOCK_MONOTONIC, ms); 0: not shown yet. */
	uint64_t ready_at;
	bool told_ready; /* what the plugin's input_ready() last said */
	unsigned logged_drops; /* one log line per grace and kind (1: keys, 2: clicks) */
	struct wl_event_source *grace_timer;
	/*
	 * What the plugin was given, valid until close(): the caller's copy lives on
	 * its stack, and the store's folders change when another request is answered.
	 */
	struct cordon_portal_ui_request options;
	struct cordon_portal_ui_filter *filters;
	char **folders;
};

static uint64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool input_ready(const struct cordon_portal_dialog *dialog) {
	return dialog->outcome == OUTCOME_NONE && dialog->ready_at != 0 &&
		now_ms() >= dialog->ready_at;
}

/* Tells the plugin (ABI 4) that input_ready changed, so that it redraws its buttons. */
static int handle_grace_timer(void *data) {
	struct cordon_portal_dialog *dialog = data;
	struct cordon_portal_ui *ui = dialog->ui;
	bool ready = input_ready(dialog);
	if (!ready && dialog->ready_at != 0) {
		uint64_t now = now_ms();
		wl_event_source_timer_update(dialog->grace_timer,
			(int)(dialog->ready_at > now ? dialog->ready_at - now : 1));
	}
	if (ready == dialog->told_ready || dialog->outcome != OUTCOME_NONE) {
		return 0;
	}
	dialog->told_ready = ready;
	if (ready) {
		wlr_log(WLR_DEBUG, "Portal request %s: the dialog takes input",
			dialog->request->token);
	}
	if (ui->plugin->abi_version >= 4 && ui->plugin->input_ready) {
		ui->plugin->input_ready(ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog);
	}
	return 0;
}

/*
 * Input waits for the grace period from now on. The plugin is told from a timer,
 * never from inside its own call (this runs from its commit).
 */
static void start_grace(struct cordon_portal_dialog *dialog) {
	struct cordon_portal_ui *ui = dialog->ui;
	dialog->ready_at = now_ms() + ui->grace_ms;
	/* 0 would be "never" for the clock: a grace of 0 is ready 1 ms from now at worst. */
	if (dialog->ready_at == 0) {
		dialog->ready_at = 1;
	}
	dialog->logged_drops = 0;
	if (!dialog->grace_timer) {
		dialog->grace_timer = wl_event_loop_add_timer(
			ui->portals->host.event_loop, handle_grace_timer, dialog);
	}
	if (dialog->grace_timer) {
		wl_event_source_timer_update(dialog->grace_timer, 1);
	}
	wlr_log(WLR_DEBUG, "Portal request %s: the dialog ignores input for %u ms",
		dialog->request->token, ui->grace_ms);
}

static struct cordon_portal_dialog *shown_dialog(
	struct cordon_portal_ui *ui, int *x, int *y, int *width, int *height);

/* A dialog that gets the keyboard (it appeared, or the one above it went) starts its grace. */
static void update_focus(struct cordon_portal_ui *ui) {
	int x, y, width, height;
	struct cordon_portal_dialog *dialog = shown_dialog(ui, &x, &y, &width, &height);
	if (dialog == ui->focus) {
		return;
	}
	ui->focus = dialog;
	if (dialog) {
		start_grace(dialog);
	} else {
		/* No dialog takes keys: releases of what was dropped go nowhere anyway. */
		ui->dropped_key_count = 0;
		ui->dropped_button_count = 0;
	}
}

__attribute__((format(printf, 2, 3))) static void host_log(
	enum cordon_portal_ui_log_level level, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	char *text = cordon_vformat(fmt, args);
	va_end(args);
	enum wlr_log_importance importance = level == CORDON_PORTAL_UI_LOG_ERROR ? WLR_ERROR
		: level == CORDON_PORTAL_UI_LOG_INFO                             ? WLR_INFO
										 : WLR_DEBUG;
	wlr_log(importance, "portal UI: %s", text ? text : fmt);
	free(text);
}

static bool host_choose_at(struct cordon_portal_ui_dialog *handle, int dir_fd, const char *name) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	if (dialog->outcome != OUTCOME_NONE) {
		return false;
	}
	const char *reason = "this portal takes no files";
	const struct cordon_portal_request_impl *impl = dialog->request->impl;
	if (!impl->choose_at || !impl->choose_at(dialog->request, dir_fd, name, &reason)) {
		wlr_log(WLR_INFO, "Portal request %s: refused '%s': %s", dialog->request->token,
			cordon_log_text(name), reason);
		dialog->refusal = reason;
		return false;
	}
	/* The folder as the kernel names it, to offer again next time. */
	char link[64], folder[4096];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dir_fd);
	ssize_t len = readlink(link, folder, sizeof(folder) - 1);
	if (len > 0 && folder[0] == '/') {
		folder[len] = '\0';
		free(dialog->folder);
		dialog->folder = strdup(folder);
	}
	return true;
}

/*
 * The folders on the way are those the user navigated through, so they may be
 * symbolic links; the last component, the file itself, may not (open_chosen).
 */
static bool host_choose_path(struct cordon_portal_ui_dialog *handle, const char *path) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	const char *slash = strrchr(path, '/');
	if (path[0] != '/' || !slash || slash[1] == '\0') {
		wlr_log(WLR_INFO, "Portal request %s: '%s' is not an absolute file path",
			dialog->request->token, cordon_log_text(path));
		dialog->refusal = "the chosen path is not an absolute file path";
		return false;
	}
	char *folder = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	if (!folder) {
		return false;
	}
	int dir_fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		wlr_log_errno(WLR_INFO, "Portal request %s: cannot open the folder '%s'",
			dialog->request->token, cordon_log_text(folder));
		dialog->refusal = "the chosen folder cannot be opened";
		free(folder);
		return false;
	}
	bool chosen = host_choose_at(handle, dir_fd, slash + 1);
	close(dir_fd);
	free(folder);
	return chosen;
}

static void remember_folder(struct cordon_portal_dialog *dialog) {
	struct cordon_portal_request *request = dialog->request;
	const char *app_id = cordon_portal_request_app_id(request);
	if (!dialog->folder || !cordon_permission_valid_name(app_id)) {
		return;
	}
	char *error = NULL;
	if (!cordon_permission_store_add_folder(request->portals->store, app_id,
		    request->impl->portal, dialog->folder, &error)) {
		wlr_log(WLR_ERROR, "Cannot remember the folder for %s: %s", cordon_log_text(app_id),
			error ? error : "out of memory");
	}
	free(error);
}

static void handle_deliver(void *data) {
	struct cordon_portal_dialog *dialog = data;
	dialog->deliver = NULL;
	struct cordon_portal_request *request = dialog->request;
	if (dialog->outcome == OUTCOME_CANCEL) {
		cordon_portal_request_cancel(request);
		return;
	}
	if (request->impl->confirm) {
		/* The portal answers itself, later (a camera provider runs, a job is sent). */
		request->impl->confirm(request);
		return;
	}
	struct cordon_portal_response response = {.result = CORDON_PORTAL_CHOSEN};
	if (request->impl->get_files) {
		request->impl->get_files(request, &response.files, &response.file_count);
	}
	if (response.file_count == 0) {
		/* "Done" with nothing chosen: the user gave up, or every choice was refused. */
		if (dialog->refusal) {
			cordon_portal_request_fail(
				request, CORDON_PORTAL_FAILURE_IO, dialog->refusal);
		} else {
			cordon_portal_request_cancel(request);
		}
		return;
	}
	remember_folder(dialog);
	/* Closes and frees the dialog. */
	cordon_portal_request_respond(request, &response);
}

static void answer(struct cordon_portal_dialog *dialog, enum outcome outcome) {
	if (dialog->outcome != OUTCOME_NONE) {
		return;
	}
	dialog->outcome = outcome;
	/* An answered dialog takes no more keys; one below it may get them back. */
	update_focus(dialog->ui);
	cordon_portals_keyboard_may_return(dialog->ui->portals);
	dialog->deliver = wl_event_loop_add_idle(
		dialog->ui->portals->host.event_loop, handle_deliver, dialog);
	if (!dialog->deliver) {
		wlr_log(WLR_ERROR, "Cannot schedule the answer of portal request %s",
			dialog->request->token);
	}
}

static void host_done(struct cordon_portal_ui_dialog *handle) {
	answer((struct cordon_portal_dialog *)handle, OUTCOME_DONE);
}

static void host_cancel(struct cordon_portal_ui_dialog *handle) {
	answer((struct cordon_portal_dialog *)handle, OUTCOME_CANCEL);
}

static bool host_set_print_setting(
	struct cordon_portal_ui_dialog *handle, const char *key, const char *value) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	const char *reason = "this dialog takes no print settings";
	if (dialog->outcome != OUTCOME_NONE) {
		return false;
	}
	if (!dialog->request->impl->set_setting ||
		!dialog->request->impl->set_setting(dialog->request, key, value, &reason)) {
		wlr_log(WLR_INFO, "Portal request %s: refused the setting %s=%s: %s",
			dialog->request->token, key, value, reason);
		return false;
	}
	return true;
}

static pixman_image_t *host_get_image(
	struct cordon_portal_ui_dialog *handle, int width, int height) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	if (!dialog->surface) {
		dialog->surface = cordon_portal_dialog_surface_create(
			&dialog->ui->portals->host, dialog->ui->portals->layer);
		if (dialog->surface) {
			cordon_portal_dialog_surface_set_requester(
				dialog->surface, &dialog->request->tag, &dialog->request->asked_at);
		}
	}
	return dialog->surface
		? cordon_portal_dialog_surface_get_image(dialog->surface, width, height)
		: NULL;
}

static void host_commit(struct cordon_portal_ui_dialog *handle) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	if (!dialog->surface) {
		return;
	}
	cordon_portal_dialog_surface_commit(dialog->surface, dialog->request->parent);
	int x, y, width, height;
	if (!cordon_portal_dialog_surface_get_box(dialog->surface, &x, &y, &width, &height)) {
		return;
	}
	bool moved = x != dialog->box_x || y != dialog->box_y || width != dialog->box_width ||
		height != dialog->box_height;
	dialog->box_x = x;
	dialog->box_y = y;
	dialog->box_width = width;
	dialog->box_height = height;
	struct cordon_portal_ui *ui = dialog->ui;
	struct cordon_portal_dialog *before = ui->focus;
	update_focus(ui);
	/* What is under the pointer changed: a click aimed at the old place must not land. */
	if (moved && before == dialog && ui->focus == dialog) {
		start_grace(dialog);
	}
}

static bool host_input_ready(struct cordon_portal_ui_dialog *handle) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	return dialog->ui->focus == dialog && input_ready(dialog);
}

static void host_restart_grace(struct cordon_portal_ui_dialog *handle) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	if (dialog->outcome == OUTCOME_NONE && dialog->ready_at != 0) {
		start_grace(dialog);
	}
}

static bool host_replace_file(struct cordon_portal_ui_dialog *handle, size_t index) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	struct cordon_portal_request *request = dialog->request;
	if (dialog->outcome != OUTCOME_NONE || !request->impl->replace_file) {
		return false;
	}
	return request->impl->replace_file(request, index);
}

bool cordon_portal_dialog_has_keyboard(const struct cordon_portal_dialog *dialog) {
	return dialog->ui->focus == dialog && dialog->outcome == OUTCOME_NONE;
}

bool cordon_portal_dialog_input_ready(const struct cordon_portal_dialog *dialog) {
	return dialog->ui->focus == dialog && input_ready(dialog);
}

static void host_set_user_data(struct cordon_portal_ui_dialog *handle, void *data) {
	((struct cordon_portal_dialog *)handle)->user_data = data;
}

static void *host_get_user_data(struct cordon_portal_ui_dialog *handle) {
	return ((struct cordon_portal_dialog *)handle)->user_data;
}

static bool host_choose_provider(struct cordon_portal_ui_dialog *handle, size_t index) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	struct cordon_portal_request *request = dialog->request;
	if (dialog->outcome != OUTCOME_NONE || !request->impl->choose_provider ||
		index >= dialog->options.provider_count) {
		return false;
	}
	return request->impl->choose_provider(request, index);
}

/* The largest preview side a plugin may ask for: it is drawn in a dialog. */
#define MAX_PREVIEW_SIDE 1024

static bool host_start_preview(
	struct cordon_portal_ui_dialog *handle, size_t index, uint32_t width, uint32_t height) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	struct cordon_portal_request *request = dialog->request;
	if (dialog->outcome != OUTCOME_NONE || !request->impl->start_preview ||
		index >= dialog->options.provider_count || !dialog->options.provider_previews ||
		!dialog->options.provider_previews[index] || width == 0 || height == 0 ||
		width > MAX_PREVIEW_SIDE || height > MAX_PREVIEW_SIDE) {
		return false;
	}
	return request->impl->start_preview(request, index, width, height);
}

static void host_stop_preview(struct cordon_portal_ui_dialog *handle) {
	struct cordon_portal_dialog *dialog = (struct cordon_portal_dialog *)handle;
	if (dialog->request->impl->stop_preview) {
		dialog->request->impl->stop_preview(dialog->request);
	}
}

void cordon_portal_dialog_send_preview_frame(
	struct cordon_portal_dialog *dialog, const struct cordon_portal_ui_frame *frame) {
	const struct cordon_portal_ui_plugin *plugin = dialog->ui->plugin;
	/* An older plugin's struct ends before preview_frame: never read past its version. */
	if (dialog->outcome == OUTCOME_NONE && plugin->abi_version >= 3 && plugin->preview_frame) {
		plugin->preview_frame(
			dialog->ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog, frame);
	}
}

static const struct cordon_portal_ui_host host = {
	.abi_version = CORDON_PORTAL_UI_ABI_VERSION,
	.choose_at = host_choose_at,
	.choose_path = host_choose_path,
	.done = host_done,
	.cancel = host_cancel,
	.get_image = host_get_image,
	.commit = host_commit,
	.log = host_log,
	.set_user_data = host_set_user_data,
	.get_user_data = host_get_user_data,
	.choose_provider = host_choose_provider,
	.set_print_setting = host_set_print_setting,
	.start_preview = host_start_preview,
	.stop_preview = host_stop_preview,
	.input_ready = host_input_ready,
	.restart_grace = host_restart_grace,
	.replace_file = host_replace_file,
};

/* dlopen()s DIR/NAME.so; NULL after logging why. The handle is returned through *dl. */
static const struct cordon_portal_ui_plugin *load_plugin(
	const char *dir, const char *name, void **dl) {
	if (strchr(name, '/')) {
		wlr_log(WLR_ERROR,
			"Portal UI plugin '%s': a name with a slash; keeping the "
			"built-in UI",
			name);
		return NULL;
	}
	char *path = cordon_format("%s/%s.so", dir, name);
	if (!path) {
		return NULL;
	}
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		wlr_log(WLR_ERROR,
			"Cannot load the portal UI plugin %s: %s; keeping the built-in UI", path,
			dlerror());
		free(path);
		return NULL;
	}
	cordon_portal_ui_entry_func entry =
		(cordon_portal_ui_entry_func)dlsym(handle, CORDON_PORTAL_UI_ENTRY_SYMBOL);
	const struct cordon_portal_ui_plugin *plugin = entry ? entry() : NULL;
	if (!plugin) {
		wlr_log(WLR_ERROR, "Portal UI plugin %s has no %s(); keeping the built-in UI", path,
			CORDON_PORTAL_UI_ENTRY_SYMBOL);
	} else if (plugin->abi_version < 1 || plugin->abi_version > CORDON_PORTAL_UI_ABI_VERSION) {
		wlr_log(WLR_ERROR,
			"Portal UI plugin %s has ABI version %u, cordon needs 1 to %u; "
			"keeping the built-in UI",
			path, plugin->abi_version, CORDON_PORTAL_UI_ABI_VERSION);
		plugin = NULL;
	} else if (!plugin->name || !plugin->create || !plugin->destroy || !plugin->open ||
		!plugin->close) {
		wlr_log(WLR_ERROR,
			"Portal UI plugin %s lacks a name or a required function; "
			"keeping the built-in UI",
			path);
		plugin = NULL;
	}
	if (!plugin) {
		dlclose(handle);
	} else {
		wlr_log(WLR_INFO, "Loaded the portal UI plugin '%s' from %s", plugin->name, path);
		*dl = handle;
	}
	free(path);
	return plugin;
}

static bool start_plugin(struct cordon_portal_ui *ui, const struct cordon_portal_ui_plugin *plugin,
	const char *options) {
	ui->plugin_data = plugin->create(&host, options ? options : "");
	if (!ui->plugin_data) {
		wlr_log(WLR_ERROR, "The portal UI plugin '%s' failed to start", plugin->name);
		return false;
	}
	ui->plugin = plugin;
	return true;
}

struct cordon_portal_ui *cordon_portal_ui_create(
	struct cordon_portals *portals, const struct cordon_portal_ui_choice *choice) {
	struct cordon_portal_ui *ui = calloc(1, sizeof(*ui));
	if (!ui) {
		return NULL;
	}
	ui->portals = portals;
	wl_list_init(&ui->dialogs);
	ui->grace_ms = (uint32_t)portals->host.settings.dialog_grace_ms;
	/*
	 * Only the configuration chooses: an environment switch would let whatever starts
	 * cordon (a session script, a launcher) turn every portal into "answer without asking".
	 */
	if (getenv("CORDON_PORTAL_UI")) {
		wlr_log(WLR_ERROR,
			"CORDON_PORTAL_UI in the environment is ignored: the dialog UI is "
			"[portal] ui in cordon.ini");
	}
	const char *name = choice->name;
	if (name && strcmp(name, "auto") == 0) {
		if (start_plugin(ui, cordon_portal_ui_auto_plugin(), choice->options)) {
			/* Loud at every start: nobody is asked before an app gets what it asks. */
			wlr_log(WLR_ERROR,
				"[portal] ui = auto: every portal request is answered from %s "
				"without a dialog; for tests and kiosks only",
				choice->options);
			return ui;
		}
	} else if (name && strcmp(name, "builtin") != 0 && strcmp(name, "none") != 0) {
		const char *dir =
			choice->plugin_dir ? choice->plugin_dir : CORDON_PORTAL_PLUGIN_DIR;
		const struct cordon_portal_ui_plugin *plugin =
			load_plugin(dir, name, &ui->dl_handle);
		if (plugin && start_plugin(ui, plugin, choice->options)) {
			return ui;
		}
		if (ui->dl_handle) {
			dlclose(ui->dl_handle);
			ui->dl_handle = NULL;
		}
	}
	if (name && strcmp(name, "none") == 0) {
		return ui;
	}
	if (!start_plugin(ui, cordon_portal_ui_builtin_plugin(), NULL)) {
		wlr_log(WLR_ERROR, "No portal dialog UI: portal requests will fail as unavailable");
	}
	return ui;
}

void cordon_portal_ui_destroy(struct cordon_portal_ui *ui) {
	if (!ui) {
		return;
	}
	/* Requests close their dialogs before this, with their clients. */
	struct cordon_portal_dialog *dialog, *tmp;
	wl_list_for_each_safe(dialog, tmp, &ui->dialogs, link) {
		dialog->request->dialog = NULL;
		cordon_portal_dialog_close(dialog);
	}
	if (ui->plugin) {
		ui->plugin->destroy(ui->plugin_data);
	}
	if (ui->dl_handle) {
		dlclose(ui->dl_handle);
	}
	free(ui);
}

const char *cordon_portal_ui_name(const struct cordon_portal_ui *ui) {
	return ui->plugin ? ui->plugin->name : "none";
}

static void free_dialog(struct cordon_portal_dialog *dialog) {
	if (dialog->deliver) {
		wl_event_source_remove(dialog->deliver);
	}
	if (dialog->grace_timer) {
		wl_event_source_remove(dialog->grace_timer);
	}
	cordon_portal_dialog_surface_destroy(dialog->surface);
	wl_list_remove(&dialog->link);
	if (dialog->ui->focus == dialog) {
		dialog->ui->focus = NULL;
	}
	for (size_t i = 0; dialog->folders && i < dialog->options.remembered_folder_count; i++) {
		free(dialog->folders[i]);
	}
	free(dialog->folders);
	free(dialog->filters);
	free(dialog->folder);
	free(dialog);
}

static bool copy_options(
	struct cordon_portal_dialog *dialog, const struct cordon_portal_ui_request *options) {
	struct cordon_portal_request *request = dialog->request;
	dialog->options = *options;
	size_t filter_count = options->filter_count;
	dialog->filters = calloc(filter_count ? filter_count : 1, sizeof(*dialog->filters));
	if (!dialog->filters) {
		return false;
	}
	/* The filters' strings are the request's own, kept until it is destroyed. */
	if (filter_count > 0) {
		/* A portal without filters (print) may pass NULL, which memcpy may not get. */
		memcpy(dialog->filters, options->filters, filter_count * sizeof(*dialog->filters));
	}
	dialog->options.filters = dialog->filters;
	size_t count;
	const char *const *folders = cordon_permission_store_get_folders(dialog->ui->portals->store,
		cordon_portal_request_app_id(request), request->impl->portal, &count);
	dialog->options.remembered_folder_count = 0;
	dialog->folders = calloc(count ? count : 1, sizeof(*dialog->folders));
	if (!dialog->folders) {
		return false;
	}
	for (size_t i = 0; i < count; i++) {
		dialog->folders[i] = strdup(folders[i]);
		if (!dialog->folders[i]) {
			return false;
		}
		dialog->options.remembered_folder_count++;
	}
	dialog->options.remembered_folders = (const char *const *)dialog->folders;
	return true;
}

struct cordon_portal_dialog *cordon_portal_dialog_open(struct cordon_portal_ui *ui,
	struct cordon_portal_request *request, const struct cordon_portal_ui_request *options) {
	if (!ui->plugin) {
		return NULL;
	}
	/* A version 1 plugin knows only the file chooser: camera and print came with 2. */
	if (options->portal != CORDON_PORTAL_UI_FILE_OPEN &&
		options->portal != CORDON_PORTAL_UI_FILE_SAVE && ui->plugin->abi_version < 2) {
		wlr_log(WLR_INFO, "The portal UI '%s' (ABI %u) has no %s dialog", ui->plugin->name,
			ui->plugin->abi_version,
			options->portal == CORDON_PORTAL_UI_PRINT ? "print" : "camera");
		return NULL;
	}
	struct cordon_portal_dialog *dialog = calloc(1, sizeof(*dialog));
	if (!dialog) {
		return NULL;
	}
	dialog->ui = ui;
	dialog->request = request;
	wl_list_insert(&ui->dialogs, &dialog->link);

	if (!copy_options(dialog, options)) {
		free_dialog(dialog);
		return NULL;
	}
	/*
	 * Before ABI 4 SaveFiles was a folder choice. Such a plugin cannot confirm a
	 * replacement, so cordon saves every name that exists under another one.
	 */
	if (options->portal == CORDON_PORTAL_UI_FILE_SAVE_FILES && ui->plugin->abi_version < 4) {
		dialog->options.portal = CORDON_PORTAL_UI_FILE_OPEN;
		dialog->options.directory = true;
	}
	if (!ui->plugin->open(
		    ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog, &dialog->options)) {
		wlr_log(WLR_INFO, "The portal UI '%s' refused request %s", ui->plugin->name,
			request->token);
		/* The plugin said no: it keeps no state, so close() is not called. */
		free_dialog(dialog);
		return NULL;
	}
	return dialog;
}

void cordon_portal_dialog_close(struct cordon_portal_dialog *dialog) {
	struct cordon_portal_ui *ui = dialog->ui;
	if (ui->pointer_grab == dialog) {
		ui->pointer_grab = NULL;
	}
	ui->plugin->close(ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog);
	free_dialog(dialog);
	/* A dialog below may have the keyboard now: its grace starts. */
	update_focus(ui);
	/* Closed unanswered (its app left, the request was withdrawn): the keyboard is back. */
	cordon_portals_keyboard_may_return(ui->portals);
}

/* The newest dialog that shows itself has the keyboard. */
static struct cordon_portal_dialog *shown_dialog(
	struct cordon_portal_ui *ui, int *x, int *y, int *width, int *height) {
	struct cordon_portal_dialog *dialog;
	wl_list_for_each(dialog, &ui->dialogs, link) {
		if (dialog->outcome == OUTCOME_NONE && dialog->surface &&
			cordon_portal_dialog_surface_get_box(
				dialog->surface, x, y, width, height)) {
			return dialog;
		}
	}
	return NULL;
}

bool cordon_portal_ui_has_focus(struct cordon_portal_ui *ui) {
	int x, y, width, height;
	return shown_dialog(ui, &x, &y, &width, &height) != NULL;
}

/* Removes VALUE from the set; true when it was there. */
static bool take_value(uint32_t *values, size_t *count, uint32_t value) {
	for (size_t i = 0; i < *count; i++) {
		if (values[i] == value) {
			values[i] = values[--*count];
			return true;
		}
	}
	return false;
}

static void add_value(uint32_t *values, size_t *count, size_t max, uint32_t value) {
	if (*count < max) {
		values[(*count)++] = value;
	}
}

/*
 * Whether a press reaches DIALOG, or is one typed or clicked within the grace (and
 * its release with it). A release whose press was dropped is dropped too.
 */
static bool drop_input(struct cordon_portal_ui *ui, struct cordon_portal_dialog *dialog,
	uint32_t *values, size_t *count, size_t max, uint32_t value, bool pressed, unsigned kind,
	const char *what) {
	if (!pressed) {
		return take_value(values, count, value);
	}
	update_focus(ui);
	if (ui->focus == dialog && input_ready(dialog)) {
		return false;
	}
	add_value(values, count, max, value);
	if (!(dialog->logged_drops & kind)) {
		dialog->logged_drops |= kind;
		wlr_log(WLR_INFO,
			"Portal request %s: ignored a %s within %u ms of the dialog being shown",
			dialog->request->token, what, ui->grace_ms);
	}
	return true;
}

void cordon_portal_ui_send_key(struct cordon_portal_ui *ui, uint32_t keysym, uint32_t codepoint,
	bool pressed, uint32_t modifiers) {
	int x, y, width, height;
	struct cordon_portal_dialog *dialog = shown_dialog(ui, &x, &y, &width, &height);
	if (dialog &&
		drop_input(ui, dialog, ui->dropped_keys, &ui->dropped_key_count,
			sizeof(ui->dropped_keys) / sizeof(ui->dropped_keys[0]), keysym, pressed, 1,
			"key press")) {
		return;
	}
	if (dialog && ui->plugin->key) {
		ui->plugin->key(ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog, keysym,
			codepoint, pressed, modifiers);
	}
}

/* The dialog under the point, or the one holding the pointer grab; local coordinates. */
static struct cordon_portal_dialog *pointer_dialog(
	struct cordon_portal_ui *ui, double lx, double ly, double *sx, double *sy) {
	int x, y, width, height;
	struct cordon_portal_dialog *dialog = shown_dialog(ui, &x, &y, &width, &height);
	if (ui->pointer_grab && ui->pointer_grab != dialog) {
		dialog = ui->pointer_grab;
		if (!cordon_portal_dialog_surface_get_box(
			    dialog->surface, &x, &y, &width, &height)) {
			return NULL;
		}
	}
	if (!dialog) {
		return NULL;
	}
	*sx = lx - x;
	*sy = ly - y;
	bool inside = *sx >= 0 && *sy >= 0 && *sx < width && *sy < height;
	return inside || ui->pointer_grab == dialog ? dialog : NULL;
}

bool cordon_portal_ui_send_motion(struct cordon_portal_ui *ui, double lx, double ly) {
	double sx, sy;
	struct cordon_portal_dialog *dialog = pointer_dialog(ui, lx, ly, &sx, &sy);
	if (!dialog) {
		return false;
	}
	if (ui->plugin->pointer_motion) {
		ui->plugin->pointer_motion(
			ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog, sx, sy);
	}
	return true;
}

bool cordon_portal_ui_send_button(
	struct cordon_portal_ui *ui, double lx, double ly, uint32_t button, bool pressed) {
	double sx, sy;
	struct cordon_portal_dialog *dialog = pointer_dialog(ui, lx, ly, &sx, &sy);
	if (!dialog) {
		return false;
	}
	ui->pointer_grab = pressed ? dialog : NULL;
	if (drop_input(ui, dialog, ui->dropped_buttons, &ui->dropped_button_count,
		    sizeof(ui->dropped_buttons) / sizeof(ui->dropped_buttons[0]), button, pressed,
		    2, "click")) {
		return true;
	}
	if (ui->plugin->pointer_button) {
		ui->plugin->pointer_button(
			ui->plugin_data, (struct cordon_portal_ui_dialog *)dialog, button, pressed);
	}
	return true;
}
