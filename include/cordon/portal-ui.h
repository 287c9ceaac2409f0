/* The stable C ABI between cordon and portal dialog plugins (docs/plugin-abi.md). */
#ifndef CORDON_PORTAL_UI_H
#define CORDON_PORTAL_UI_H

/*
 * A plugin is a shared object that exports cordon_portal_ui_plugin_entry(). cordon
 * calls it once after dlopen and refuses the plugin unless the abi_version it
 * returns equals the CORDON_PORTAL_UI_ABI_VERSION cordon was built with. Every
 * call happens on cordon's event loop thread; a plugin must never block.
 *
 * Rules of the ABI: structs are only ever extended at their end and then the
 * version goes up; strings are UTF-8, owned by cordon and valid until close();
 * a dialog handle is valid from open() until close() returns.
 */

#include <pixman.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * 2 added the camera and print portals (their enum values; providers, width and
 * height, then printers and print settings at the end of the request;
 * choose_provider, then set_print_setting at the end of the host table). cordon
 * still loads plugins of version 1; they get no camera or print dialogs.
 * 3 added camera previews: provider_previews at the end of the request,
 * start_preview and stop_preview at the end of the host table, preview_frame at
 * the end of the plugin. cordon loads plugins of versions 1 to 3 and reads only
 * what a plugin's version has.
 * 4 added the input grace and SaveFiles: CORDON_PORTAL_UI_FILE_SAVE_FILES, save_files
 * at the end of the request; input_ready, restart_grace and replace_file at the end of
 * the host table; input_ready at the end of the plugin. cordon loads versions 1 to 4;
 * older plugins get SaveFiles as a folder choice (FILE_OPEN with directory).
 */
#define CORDON_PORTAL_UI_ABI_VERSION 4
#define CORDON_PORTAL_UI_ENTRY_SYMBOL "cordon_portal_ui_plugin_entry"

enum cordon_portal_ui_portal {
	CORDON_PORTAL_UI_FILE_OPEN = 1,
	CORDON_PORTAL_UI_FILE_SAVE = 2,
	/* ABI 2: choose a camera provider (choose_provider) and confirm, or cancel. */
	CORDON_PORTAL_UI_CAMERA_PHOTO = 3,
	/* ABI 2: consent to live video from a camera device: done or cancel. */
	CORDON_PORTAL_UI_CAMERA_STREAM = 4,
	/* ABI 2: choose a printer and settings (set_print_setting), then done or cancel. */
	CORDON_PORTAL_UI_PRINT = 5,
	/*
	 * ABI 4: save the app's files (save_files) in a folder the user chooses:
	 * choose_at(folder_fd, ".") or choose_path(folder), then done. cordon opens each
	 * name in it; one that exists, is hidden or is a start-up file is saved under
	 * another name unless replace_file(index) was called for it first.
	 */
	CORDON_PORTAL_UI_FILE_SAVE_FILES = 6,
};

/* Who asks: the sandbox tag cordon gave the client when it connected, never its own claims. */
struct cordon_portal_ui_app {
	bool known; /* false: a sandbox cordon could not identify */
	bool sandboxed;
	const char *engine; /* "cordon", "flatpak", "snap", "systemd-app", "host", "unknown" */
	const char *app_id; /* "" when the tag has none */
	const char *instance;
};

struct cordon_portal_ui_filter {
	const char *name;
	const char *const *patterns; /* shell globs such as "*.png" */
	size_t pattern_count;
	const char *const *mime_types;
	size_t mime_type_count;
};

/* ABI 2: a registered program that can take a photo. */
struct cordon_portal_ui_camera_provider {
	const char *id; /* its file name without ".provider": unique */
	const char *name; /* what the user sees */
	const char *icon; /* an icon name or absolute path, "" if none */
	const char *mime_type; /* what it will make for this request */
};

/* One printer option as CUPS reports it, by its IPP name ("sides", "media"...). ABI 2. */
struct cordon_portal_ui_print_option {
	const char *name;
	const char *default_value; /* NULL when the printer has none */
	const char *const *values; /* the supported values */
	size_t value_count;
};

/* A printer (a CUPS destination). ABI 2. */
struct cordon_portal_ui_printer {
	const char *name; /* the queue name, what set_print_setting("printer", ...) takes */
	const char *info; /* its description, "" when none */
	bool is_default;
	int max_copies;
	const struct cordon_portal_ui_print_option *options;
	size_t option_count;
};

/* A print setting by IPP name: printer, copies, page-ranges, sides, print-color-mode,
 * media, orientation-requested. ABI 2. */
struct cordon_portal_ui_print_setting {
	const char *key;
	const char *value;
};

struct cordon_portal_ui_request {
	const char *token; /* 32 hex digits, unique for the compositor's life */
	struct cordon_portal_ui_app app;
	enum cordon_portal_ui_portal portal;
	const char *title; /* the app's words: show them as such, never as cordon's */
	bool multiple;
	bool directory;
	const char *current_folder; /* a hint from the app, NULL if none */
	const char *current_name; /* save only, NULL if none */
	const struct cordon_portal_ui_filter *filters;
	size_t filter_count;
	/* Host folders the user chose for this app before, most recent first. */
	const char *const *remembered_folders;
	size_t remembered_folder_count;
	/* ABI 2, CORDON_PORTAL_UI_CAMERA_PHOTO: the providers that fit, and the app's size. */
	const struct cordon_portal_ui_camera_provider *providers;
	size_t provider_count;
	uint32_t width, height;
	/* ABI 2, CORDON_PORTAL_UI_PRINT: the printers from CUPS, and the app's suggested settings.
	 */
	const struct cordon_portal_ui_printer *printers;
	size_t printer_count;
	const struct cordon_portal_ui_print_setting *print_settings;
	size_t print_setting_count;
	bool print_prepare_only; /* prepare_print: settings only, nothing is printed yet */
	/*
	 * ABI 3, camera photos: per provider (provider_count entries), whether it can
	 * show a live preview in the dialog (host start_preview).
	 */
	const bool *provider_previews;
	/* ABI 4, CORDON_PORTAL_UI_FILE_SAVE_FILES: the names the app saves, each one name. */
	const char *const *save_files;
	size_t save_file_count;
};

/* ABI 3: one preview frame, RGB24 (3 bytes a pixel, red first), rows top to bottom. */
struct cordon_portal_ui_frame {
	uint32_t width, height, stride;
	const uint8_t *rgb; /* valid during the preview_frame call only */
};

/* One open dialog; owned by cordon. */
struct cordon_portal_ui_dialog;

enum cordon_portal_ui_log_level {
	CORDON_PORTAL_UI_LOG_ERROR = 1,
	CORDON_PORTAL_UI_LOG_INFO = 2,
	CORDON_PORTAL_UI_LOG_DEBUG = 3,
};

/* Modifier bits in key events. */
#define CORDON_PORTAL_UI_MOD_SHIFT (1u << 0)
#define CORDON_PORTAL_UI_MOD_CTRL (1u << 2)
#define CORDON_PORTAL_UI_MOD_ALT (1u << 3)

/* What cordon offers a plugin. Every function may be called only between open() and close(). */
struct cordon_portal_ui_host {
	uint32_t abi_version;
	/*
	 * Adds one chosen file: a name (no slash) inside a directory the plugin opened.
	 * cordon opens it relative to dir_fd with O_NOFOLLOW, in the request's mode, at
	 * once; dir_fd stays the plugin's. Returns false (and logs why) when it cannot:
	 * the dialog may tell the user and let them choose again.
	 */
	bool (*choose_at)(struct cordon_portal_ui_dialog *dialog, int dir_fd, const char *name);
	/* The same for an absolute host path: its folder is opened, then the name in it. */
	bool (*choose_path)(struct cordon_portal_ui_dialog *dialog, const char *path);
	/* The user confirmed: the chosen files go to the app. Asynchronous; close() follows. */
	void (*done)(struct cordon_portal_ui_dialog *dialog);
	/* The user cancelled. Asynchronous; close() follows. */
	void (*cancel)(struct cordon_portal_ui_dialog *dialog);
	/*
	 * The dialog's buffer (PIXMAN_a8r8g8b8, premultiplied), of this size in
	 * logical pixels, centred on the output in a layer above every app; NULL
	 * when it cannot be made. The image stays cordon's; its contents are kept
	 * across calls of the same size.
	 */
	pixman_image_t *(*get_image)(struct cordon_portal_ui_dialog *dialog, int width, int height);
	/* Shows what was painted into the image since the last commit. */
	void (*commit)(struct cordon_portal_ui_dialog *dialog);
	void (*log)(enum cordon_portal_ui_log_level level, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void (*set_user_data)(struct cordon_portal_ui_dialog *dialog, void *data);
	void *(*get_user_data)(struct cordon_portal_ui_dialog *dialog);
	/*
	 * ABI 2: the user picked providers[index] of a camera photo dialog; done()
	 * then lets it take the photo. False for an index out of range.
	 */
	bool (*choose_provider)(struct cordon_portal_ui_dialog *dialog, size_t index);
	/*
	 * ABI 2: the user's choice for one print setting (the keys of
	 * cordon_portal_ui_print_setting; "printer" must be one of the request's
	 * printers). Returns false (and logs why) when refused. done() then prints
	 * with them; a setting left unset keeps the printer's default.
	 */
	bool (*set_print_setting)(
		struct cordon_portal_ui_dialog *dialog, const char *key, const char *value);
	/*
	 * ABI 3: shows what providers[index] sees, where provider_previews[index]:
	 * the provider runs (in its sandbox, never told of the app's frames) and the
	 * plugin's preview_frame gets its frames, about WIDTH x HEIGHT (1 to 1024), until
	 * stop_preview, another start_preview, done or cancel. The app gets nothing from
	 * it: done() takes the photo. False when it cannot start.
	 */
	bool (*start_preview)(struct cordon_portal_ui_dialog *dialog, size_t index, uint32_t width,
		uint32_t height);
	void (*stop_preview)(struct cordon_portal_ui_dialog *dialog);
	/*
	 * ABI 4: whether input reaches the dialog now. cordon drops key and button
	 * presses for a grace period ([portal] dialog-grace-ms) after the dialog appears,
	 * moves, changes size or gets the keyboard back, so that keys typed for another
	 * window cannot answer it. Draw the action buttons disabled while false; the
	 * plugin's input_ready() says when it changes.
	 */
	bool (*input_ready)(struct cordon_portal_ui_dialog *dialog);
	/*
	 * ABI 4: the dialog now asks something new (a confirmation): input waits for the
	 * grace period again.
	 */
	void (*restart_grace)(struct cordon_portal_ui_dialog *dialog);
	/*
	 * ABI 4, SaveFiles: the user confirmed, for this file alone, writing
	 * save_files[index] under its own name although it exists (replacing it) or is
	 * hidden or a start-up file. Call before choose_at. False for an index out of range.
	 */
	bool (*replace_file)(struct cordon_portal_ui_dialog *dialog, size_t index);
};

struct cordon_portal_ui_plugin {
	uint32_t abi_version; /* CORDON_PORTAL_UI_ABI_VERSION */
	const char *name;
	/* Called once; options is the config's [portal] ui-options string ("" if none). */
	void *(*create)(const struct cordon_portal_ui_host *host, const char *options);
	void (*destroy)(void *plugin);
	/* A new dialog. Return false to refuse it: the request then fails as unavailable. */
	bool (*open)(void *plugin, struct cordon_portal_ui_dialog *dialog,
		const struct cordon_portal_ui_request *request);
	/* The dialog ends (answered, or the app or its window went away): free its state. */
	void (*close)(void *plugin, struct cordon_portal_ui_dialog *dialog);
	/* Input while the dialog has focus; any of these may be NULL. */
	void (*key)(void *plugin, struct cordon_portal_ui_dialog *dialog, uint32_t keysym,
		uint32_t codepoint, bool pressed, uint32_t modifiers);
	/* Position in the dialog's own pixels. */
	void (*pointer_motion)(
		void *plugin, struct cordon_portal_ui_dialog *dialog, double x, double y);
	/* Linux input button codes (BTN_LEFT = 0x110). */
	void (*pointer_button)(void *plugin, struct cordon_portal_ui_dialog *dialog,
		uint32_t button, bool pressed);
	/*
	 * ABI 3: a frame of the preview start_preview asked for, or NULL once the
	 * preview has stopped on its own (the provider failed or stalled). May be NULL.
	 */
	void (*preview_frame)(void *plugin, struct cordon_portal_ui_dialog *dialog,
		const struct cordon_portal_ui_frame *frame);
	/* ABI 4: host input_ready() changed for the dialog: redraw it. May be NULL. */
	void (*input_ready)(void *plugin, struct cordon_portal_ui_dialog *dialog);
};

/* What a plugin exports. */
typedef const struct cordon_portal_ui_plugin *(*cordon_portal_ui_entry_func)(void);
const struct cordon_portal_ui_plugin *cordon_portal_ui_plugin_entry(void);

#endif
