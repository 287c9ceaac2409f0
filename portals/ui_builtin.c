/*
 * The built-in file chooser, cordon's own dialog: a directory listing with
 * navigation, filters, multiple selection, a name field for saving and an
 * overwrite confirmation, for keyboard and pointer. It is a UI plugin like any
 * other (include/cordon/portal-ui.h), drawn with pixman and fcft. Its header
 * says who asks from the app's tag; the app's own title is shown as a quote.
 *
 * Keys: Up/Down/PageUp/PageDown/Home/End move; Return activates (enter a
 * folder, choose a file, save under the typed name); Right enters a folder;
 * Left or Backspace (when no name is typed) goes up; Space marks a file when
 * several may be chosen; Tab changes the filter; Escape cancels. A click
 * selects a row, a click on the selected row activates it; the buttons at the
 * bottom do what they say. Hidden files are listed after the others, marked.
 *
 * What a stray Return must not do: replacing a file asks, and only Alt+R or a
 * click on Replace replaces (Return and Escape go back); the app's suggested name
 * when it is hidden or a start-up file (portals/save_name.c), or a start-up
 * folder, asks too, and only Alt+S or a click on "Save anyway" saves. Each
 * question restarts cordon's input grace (ui_plugin.c), and the action buttons are
 * drawn disabled while input is ignored.
 *
 * SaveFiles (the app saves several files, FILE_SAVE_FILES): the user walks to a
 * folder (Return or Right enters one) and picks it with Alt+S or "Save here"; a
 * second page lists the app's names, marks those that exist or are hidden, and
 * says under which name each will be saved. Nothing is replaced unless the user
 * turns it on for that file (Alt+R on its row, or a click on it); Return saves.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon-keysyms.h>

#include "portals/save_name.h"
#include "portals/ui_builtin_camera.h"
#include "portals/ui_draw.h"
#include "portals/ui_plugin.h"
#include "portals/ui_print.h"

#define WIDTH 720
#define HEIGHT 520
#define PAD 12
#define MAX_ENTRIES 4096
#define NAME_MAX_LEN 255

#define COLOR_BACKGROUND 0xf4f4f4
#define COLOR_HEADER 0x1f3a5f
#define COLOR_HEADER_TEXT 0xffffff
#define COLOR_TEXT 0x202020
#define COLOR_DIM 0x606060
#define COLOR_SELECTED 0x3d7bd9
#define COLOR_SELECTED_TEXT 0xffffff
#define COLOR_FIELD 0xffffff
#define COLOR_BORDER 0xa0a0a0
#define COLOR_WARNING 0xb00020
#define COLOR_BUTTON 0xdcdcdc
#define COLOR_DISABLED 0xe8e8e8
#define COLOR_DISABLED_TEXT 0xa0a0a0
/* The most SaveFiles rows shown; the rest are summed up in one line. */
#define MAX_SAVE_ROWS 8

struct entry {
	char *name;
	bool is_dir;
	bool marked;
	bool hidden; /* a dot file: listed, marked, after the others */
};

/* What the save waits for the user to confirm; Return alone confirms neither. */
enum confirm {
	CONFIRM_NONE,
	CONFIRM_REPLACE, /* the typed name exists: Alt+R or Replace */
	CONFIRM_RISKY, /* the app's name is hidden or a start-up file: Alt+S or Save anyway */
};

/* One of the app's names on the SaveFiles page. */
struct save_row {
	bool exists; /* a regular file has the name */
	bool blocked; /* a folder, link or special file has it: never replaced */
	const char *risk; /* hidden or start-up name, or NULL */
	bool replace; /* the user turned on "under its own name" */
	char alternative[256]; /* the name it is saved under otherwise */
};

struct chooser {
	struct builtin *plugin;
	struct cordon_portal_ui_dialog *dialog;
	const struct cordon_portal_ui_request *request;
	struct cordon_ui_camera *camera; /* a camera dialog (ui_builtin_camera.c) instead */
	char *header; /* who asks, from the tag */
	int dir_fd;
	char *path;
	struct entry *entries;
	size_t entry_count;
	size_t cursor, scroll;
	size_t filter; /* index into request->filters; filter_count: all files */
	char name[NAME_MAX_LEN + 1]; /* save: the typed name */
	bool name_typed; /* the user typed or picked the name: it is no longer the app's */
	enum confirm confirm;
	const char *confirm_reason; /* CONFIRM_RISKY: why, from portals/save_name.c */
	/* SaveFiles: the page of the app's names, for the folder shown. */
	bool files_page;
	struct save_row *rows;
	size_t row_cursor;
	const char *folder_risk;
	const char *message; /* shown in the footer until the next key */
	double pointer_x, pointer_y;
};

struct builtin {
	const struct cordon_portal_ui_host *host;
	char *font_name; /* fontconfig's name, from ui-options */
	struct cordon_ui_font *font; /* NULL until the first dialog */
	int row_height;
	/* The open print dialogs (ui_print.c); every other dialog is a file chooser. */
	struct cordon_ui_print **prints;
	size_t print_count;
};

static size_t find_print(const struct builtin *plugin, struct cordon_portal_ui_dialog *dialog) {
	for (size_t i = 0; i < plugin->print_count; i++) {
		if (cordon_ui_print_dialog(plugin->prints[i]) == dialog) {
			return i;
		}
	}
	return plugin->print_count;
}

static struct cordon_ui_print *print_of(
	const struct builtin *plugin, struct cordon_portal_ui_dialog *dialog) {
	size_t i = find_print(plugin, dialog);
	return i < plugin->print_count ? plugin->prints[i] : NULL;
}

static bool open_print(struct builtin *plugin, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	struct cordon_ui_print **prints =
		realloc(plugin->prints, (plugin->print_count + 1) * sizeof(*prints));
	if (!prints) {
		return false;
	}
	plugin->prints = prints;
	struct cordon_ui_print *print =
		cordon_ui_print_open(plugin->host, plugin->font, dialog, request);
	if (!print) {
		return false;
	}
	plugin->prints[plugin->print_count++] = print;
	return true;
}

/* Layout, from the font's height. */
struct layout {
	int header_h, path_y, name_y, list_y, list_h, rows, footer_y, button_w, button_h;
};

static struct layout layout_of(const struct builtin *plugin, const struct chooser *chooser) {
	struct layout l;
	int line = cordon_ui_font_height(plugin->font);
	l.header_h = 2 * line + 3 * PAD / 2;
	l.path_y = l.header_h + PAD / 2;
	bool save = chooser->request->portal == CORDON_PORTAL_UI_FILE_SAVE;
	l.name_y = l.path_y + line + PAD / 2;
	l.list_y = save ? l.name_y + line + PAD : l.name_y;
	l.button_h = line + PAD;
	l.footer_y = HEIGHT - l.button_h - PAD;
	l.list_h = l.footer_y - line - PAD - l.list_y;
	l.rows = l.list_h / plugin->row_height;
	l.button_w = 110;
	return l;
}

static bool is_save(const struct chooser *chooser) {
	return chooser->request->portal == CORDON_PORTAL_UI_FILE_SAVE;
}

static bool is_save_files(const struct chooser *chooser) {
	return chooser->request->portal == CORDON_PORTAL_UI_FILE_SAVE_FILES;
}

/* Folders only: choosing one (open a folder), or where the app's files go (SaveFiles). */
static bool folders_only(const struct chooser *chooser) {
	return chooser->request->directory || is_save_files(chooser);
}

static bool matches_filter(const struct chooser *chooser, const char *name) {
	const struct cordon_portal_ui_request *request = chooser->request;
	if (chooser->filter >= request->filter_count) {
		return true;
	}
	const struct cordon_portal_ui_filter *filter = &request->filters[chooser->filter];
	if (filter->pattern_count == 0) {
		/* Mime types alone: cordon has no mime database; show everything. */
		return true;
	}
	for (size_t i = 0; i < filter->pattern_count; i++) {
		if (fnmatch(filter->patterns[i], name, FNM_CASEFOLD) == 0) {
			return true;
		}
	}
	return false;
}

static void free_entries(struct chooser *chooser) {
	for (size_t i = 0; i < chooser->entry_count; i++) {
		free(chooser->entries[i].name);
	}
	free(chooser->entries);
	chooser->entries = NULL;
	chooser->entry_count = 0;
}

static int compare_entries(const void *a, const void *b) {
	const struct entry *x = a, *y = b;
	if (strcmp(x->name, "..") == 0 || strcmp(y->name, "..") == 0) {
		return strcmp(x->name, "..") == 0 ? -1 : 1;
	}
	if (x->is_dir != y->is_dir) {
		return x->is_dir ? -1 : 1;
	}
	if (x->hidden != y->hidden) {
		return x->hidden ? 1 : -1;
	}
	return strcoll(x->name, y->name);
}

static void add_entry(struct chooser *chooser, const char *name, bool is_dir) {
	if (chooser->entry_count == MAX_ENTRIES) {
		return;
	}
	char *copy = strdup(name);
	if (!copy) {
		return;
	}
	chooser->entries[chooser->entry_count++] =
		(struct entry){copy, is_dir, false, name[0] == '.' && strcmp(name, "..") != 0};
}

/*
 * Lists the folder: "..", folders, then the files the filter lets through; hidden ones
 * after the others in each group, so that what a save would replace is always shown.
 */
static void list_folder(struct chooser *chooser) {
	free_entries(chooser);
	chooser->cursor = chooser->scroll = 0;
	chooser->entries = calloc(MAX_ENTRIES, sizeof(*chooser->entries));
	if (!chooser->entries) {
		return;
	}
	if (strcmp(chooser->path, "/") != 0) {
		add_entry(chooser, "..", true);
	}
	int fd = dup(chooser->dir_fd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0) {
			close(fd);
		}
		chooser->message = "This folder cannot be read";
		return;
	}
	rewinddir(dir);
	struct dirent *d;
	while ((d = readdir(dir))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
			continue;
		}
		struct stat st;
		if (fstatat(chooser->dir_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			continue;
		}
		bool is_dir = S_ISDIR(st.st_mode);
		if (S_ISLNK(st.st_mode)) {
			/* A link to a folder can be walked into; a link to a file cannot be chosen.
			 */
			is_dir = fstatat(chooser->dir_fd, d->d_name, &st, 0) == 0 &&
				S_ISDIR(st.st_mode);
			if (!is_dir) {
				continue;
			}
		} else if (!is_dir && !S_ISREG(st.st_mode)) {
			continue;
		}
		if (!is_dir && (folders_only(chooser) || !matches_filter(chooser, d->d_name))) {
			continue;
		}
		add_entry(chooser, d->d_name, is_dir);
	}
	closedir(dir);
	qsort(chooser->entries, chooser->entry_count, sizeof(*chooser->entries), compare_entries);
	/* Start on the first real entry rather than "..". */
	if (chooser->entry_count > 1 && strcmp(chooser->entries[0].name, "..") == 0) {
		chooser->cursor = 1;
	}
}

static bool open_folder(struct chooser *chooser, int dir_fd, const char *path) {
	int fd = dir_fd >= 0 ? dir_fd : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *copy = strdup(path);
	if (fd < 0 || !copy) {
		if (fd >= 0) {
			close(fd);
		}
		free(copy);
		return false;
	}
	if (chooser->dir_fd >= 0) {
		close(chooser->dir_fd);
	}
	free(chooser->path);
	chooser->dir_fd = fd;
	chooser->path = copy;
	list_folder(chooser);
	return true;
}

static void enter(struct chooser *chooser, const char *name) {
	char *path;
	if (strcmp(name, "..") == 0) {
		path = strdup(chooser->path);
		char *slash = path ? strrchr(path, '/') : NULL;
		if (slash) {
			*(slash == path ? slash + 1 : slash) = '\0';
		}
	} else {
		size_t len = strlen(chooser->path) + strlen(name) + 2;
		path = malloc(len);
		if (path) {
			snprintf(path, len, "%s%s%s", chooser->path,
				strcmp(chooser->path, "/") == 0 ? "" : "/", name);
		}
	}
	int fd = openat(chooser->dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!path || fd < 0 || !open_folder(chooser, fd, path)) {
		if (fd >= 0 && !path) {
			close(fd);
		}
		chooser->message = "This folder cannot be opened";
	}
	free(path);
}

static void finish_with(struct chooser *chooser, const char *name) {
	const struct cordon_portal_ui_host *host = chooser->plugin->host;
	if (host->choose_at(chooser->dialog, chooser->dir_fd, name)) {
		host->done(chooser->dialog);
	} else {
		chooser->message = "cordon refused this file (see its log)";
	}
}

static void choose_marked_or(struct chooser *chooser, const struct entry *entry) {
	const struct cordon_portal_ui_host *host = chooser->plugin->host;
	size_t chosen = 0;
	for (size_t i = 0; i < chooser->entry_count && chooser->request->multiple; i++) {
		if (chooser->entries[i].marked &&
			host->choose_at(
				chooser->dialog, chooser->dir_fd, chooser->entries[i].name)) {
			chosen++;
		}
	}
	if (chosen > 0) {
		host->done(chooser->dialog);
	} else {
		finish_with(chooser, entry->name);
	}
}

/* A question Return cannot answer: input waits for cordon's grace period again. */
static void ask(struct chooser *chooser, enum confirm confirm) {
	chooser->confirm = confirm;
	chooser->plugin->host->restart_grace(chooser->dialog);
}

/*
 * Saves under the typed name, unless it needs a confirmation first: the app's own
 * suggestion when hidden or a start-up file, or in a start-up folder (RISK_CONFIRMED:
 * the user said "Save anyway"), and an existing file (REPLACE_CONFIRMED: "Replace").
 */
static void save(struct chooser *chooser, bool risk_confirmed, bool replace_confirmed) {
	chooser->confirm = CONFIRM_NONE;
	if (chooser->name[0] == '\0' || strchr(chooser->name, '/') ||
		strcmp(chooser->name, ".") == 0 || strcmp(chooser->name, "..") == 0) {
		chooser->message = "Type a file name";
		return;
	}
	const char *risk = cordon_save_name_risk(chooser->name);
	if (!risk) {
		risk = cordon_save_folder_risk(chooser->path);
	}
	/* A name the user typed or picked is theirs; the app's needs their word. */
	if (risk && !chooser->name_typed && !risk_confirmed) {
		chooser->confirm_reason = risk;
		ask(chooser, CONFIRM_RISKY);
		return;
	}
	struct stat st;
	if (fstatat(chooser->dir_fd, chooser->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			chooser->message = "A folder or special file has this name";
			return;
		}
		if (!replace_confirmed) {
			ask(chooser, CONFIRM_REPLACE);
			return;
		}
	}
	finish_with(chooser, chooser->name);
}

/* The SaveFiles page for the folder shown: each of the app's names and what happens to it. */
static void open_files_page(struct chooser *chooser) {
	const struct cordon_portal_ui_request *request = chooser->request;
	free(chooser->rows);
	chooser->rows = calloc(
		request->save_file_count ? request->save_file_count : 1, sizeof(*chooser->rows));
	if (!chooser->rows) {
		chooser->message = "Out of memory";
		return;
	}
	for (size_t i = 0; i < request->save_file_count; i++) {
		struct save_row *row = &chooser->rows[i];
		const char *name = request->save_files[i];
		struct stat st;
		if (fstatat(chooser->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			row->exists = S_ISREG(st.st_mode);
			row->blocked = !row->exists;
		}
		row->risk = cordon_save_name_risk(name);
		if (!cordon_save_name_alternative(
			    chooser->dir_fd, name, row->alternative, sizeof(row->alternative))) {
			row->alternative[0] = '\0';
		}
	}
	chooser->folder_risk = cordon_save_folder_risk(chooser->path);
	chooser->row_cursor = 0;
	chooser->files_page = true;
	chooser->plugin->host->restart_grace(chooser->dialog);
}

/* Whether the row's name is written as it is (new and safe, or turned on by the user). */
static bool row_keeps_name(const struct chooser *chooser, size_t i) {
	const struct save_row *row = &chooser->rows[i];
	if (row->blocked) {
		return false;
	}
	return row->replace || (!row->exists && !row->risk && !chooser->folder_risk);
}

/* Alt+R or a click on a row: under its own name or not. Only for a file that can be. */
static void toggle_row(struct chooser *chooser, size_t i) {
	struct save_row *row = &chooser->rows[i];
	if (row->blocked || (!row->exists && !row->risk && !chooser->folder_risk)) {
		return;
	}
	row->replace = !row->replace;
}

static void save_files(struct chooser *chooser) {
	const struct cordon_portal_ui_host *host = chooser->plugin->host;
	const struct cordon_portal_ui_request *request = chooser->request;
	for (size_t i = 0; i < request->save_file_count; i++) {
		if (chooser->folder_risk && !chooser->rows[i].replace) {
			chooser->message = "In this folder, turn on each file (Alt+R) or go back";
			return;
		}
	}
	for (size_t i = 0; i < request->save_file_count; i++) {
		if (chooser->rows[i].replace) {
			host->replace_file(chooser->dialog, i);
		}
	}
	finish_with(chooser, ".");
}

/* Return, or a click on the selected row. */
static void activate(struct chooser *chooser) {
	if (chooser->files_page) {
		save_files(chooser);
		return;
	}
	if (is_save(chooser) && chooser->name[0]) {
		save(chooser, false, false);
		return;
	}
	if (chooser->cursor >= chooser->entry_count) {
		return;
	}
	struct entry *entry = &chooser->entries[chooser->cursor];
	bool is_parent = strcmp(entry->name, "..") == 0;
	if (entry->is_dir && (!chooser->request->directory || is_parent)) {
		/* SaveFiles: Return walks; the folder shown is picked with Alt+S. */
		enter(chooser, entry->name);
	} else if (entry->is_dir) {
		finish_with(chooser, entry->name);
	} else if (is_save(chooser)) {
		snprintf(chooser->name, sizeof(chooser->name), "%s", entry->name);
		chooser->name_typed = true;
		save(chooser, false, false);
	} else {
		choose_marked_or(chooser, entry);
	}
}

/* ENABLED false: drawn greyed, while cordon's grace period ignores input. */
static void draw_button(struct builtin *plugin, pixman_image_t *image, int x, int y, int w, int h,
	const char *label, bool primary, bool enabled) {
	uint32_t fill = !enabled ? COLOR_DISABLED : primary ? COLOR_SELECTED : COLOR_BUTTON;
	uint32_t text = !enabled ? COLOR_DISABLED_TEXT : primary ? COLOR_SELECTED_TEXT : COLOR_TEXT;
	cordon_ui_fill(image, COLOR_BORDER, x, y, w, h);
	cordon_ui_fill(image, fill, x + 1, y + 1, w - 2, h - 2);
	cordon_ui_text(image, plugin->font, text, x + PAD, y + PAD / 2, w - 2 * PAD, label);
}

/* SaveFiles: the second page, one row per name of the app. */
static void draw_files_page(struct chooser *chooser, pixman_image_t *image, struct layout l) {
	struct builtin *plugin = chooser->plugin;
	const struct cordon_portal_ui_request *request = chooser->request;
	int line = cordon_ui_font_height(plugin->font);
	char text[768];
	int y = l.name_y;
	snprintf(text, sizeof(text),
		"The app's %zu files, into this folder:", request->save_file_count);
	cordon_ui_text(image, plugin->font, COLOR_TEXT, PAD, y, WIDTH - 2 * PAD, text);
	y += line + PAD / 2;
	if (chooser->folder_risk) {
		snprintf(text, sizeof(text), "Careful: %s. Each file needs Alt+R.",
			chooser->folder_risk);
		cordon_ui_text(image, plugin->font, COLOR_WARNING, PAD, y, WIDTH - 2 * PAD, text);
		y += line + PAD / 2;
	}
	size_t shown =
		request->save_file_count < MAX_SAVE_ROWS ? request->save_file_count : MAX_SAVE_ROWS;
	size_t first = chooser->row_cursor >= shown ? chooser->row_cursor - shown + 1 : 0;
	for (size_t i = first; i < first + shown; i++) {
		const struct save_row *row = &chooser->rows[i];
		const char *name = request->save_files[i];
		bool selected = i == chooser->row_cursor;
		if (selected) {
			cordon_ui_fill(
				image, COLOR_SELECTED, PAD, y, WIDTH - 2 * PAD, plugin->row_height);
		}
		if (row->blocked) {
			snprintf(text, sizeof(text),
				"\u2022 %s: a folder or link has this name; saved as \u201c%s\u201d",
				name, row->alternative);
		} else if (row_keeps_name(chooser, i)) {
			snprintf(text, sizeof(text), "%s %s%s", row->replace ? "\u2611" : "\u2022",
				name,
				row->exists            ? ": REPLACES the existing file"
					: row->replace ? ": saved under this name"
						       : ": new");
		} else if (chooser->folder_risk) {
			snprintf(text, sizeof(text), "\u2610 %s: not saved here without Alt+R",
				name);
		} else {
			snprintf(text, sizeof(text), "\u2610 %s: %s; saved as \u201c%s\u201d", name,
				row->exists         ? "exists, kept"
					: row->risk ? row->risk
						    : "needs Alt+R",
				row->alternative);
		}
		uint32_t color = selected                          ? COLOR_SELECTED_TEXT
			: row->exists || row->risk || row->blocked ? COLOR_WARNING
								   : COLOR_TEXT;
		cordon_ui_text(
			image, plugin->font, color, PAD + 8, y + 2, WIDTH - 2 * PAD - 16, text);
		y += plugin->row_height;
	}
	if (request->save_file_count > shown) {
		snprintf(text, sizeof(text), "(%zu files; Up and Down show the others)",
			request->save_file_count);
		cordon_ui_text(
			image, plugin->font, COLOR_DIM, PAD + 8, y + 2, WIDTH - 2 * PAD, text);
	}
}

static const char *filter_label(const struct chooser *chooser) {
	if (chooser->filter >= chooser->request->filter_count) {
		return "All files";
	}
	return chooser->request->filters[chooser->filter].name;
}

static const char *primary_label(const struct chooser *chooser) {
	switch (chooser->confirm) {
	case CONFIRM_REPLACE:
		return "Replace";
	case CONFIRM_RISKY:
		return "Save anyway";
	case CONFIRM_NONE:
		break;
	}
	return chooser->files_page            ? "Save"
		: is_save_files(chooser)      ? "Save here"
		: is_save(chooser)            ? "Save"
		: chooser->request->directory ? "Choose"
					      : "Open";
}

/* The hint line and the buttons: what Return does, and the question being asked. */
static void draw_footer(
	struct chooser *chooser, pixman_image_t *image, struct layout l, bool enabled) {
	struct builtin *plugin = chooser->plugin;
	int line = cordon_ui_font_height(plugin->font);
	char text[768];
	const char *hint = chooser->message;
	uint32_t hint_color = COLOR_WARNING;
	if (chooser->confirm == CONFIRM_REPLACE) {
		snprintf(text, sizeof(text),
			"\u201c%s\u201d exists. Replace it? Alt+R replaces; Return or Escape: back",
			chooser->name);
		hint = text;
	} else if (chooser->confirm == CONFIRM_RISKY) {
		snprintf(text, sizeof(text),
			"The app's name \u201c%s\u201d: %s. Alt+S saves anyway; Return: back",
			chooser->name, chooser->confirm_reason);
		hint = text;
	} else if (!hint) {
		hint_color = COLOR_DIM;
		hint = chooser->files_page ? "Return saves; Alt+R or a click: under its own name; "
					     "Escape: back"
			: is_save_files(chooser)     ? "Return enters a folder; Alt+S saves here"
			: chooser->request->multiple ? "Space marks files, Return chooses"
			: is_save(chooser)           ? "Type a name, Return saves"
						     : "Return opens or chooses";
	}
	if (!enabled) {
		hint_color = COLOR_DIM;
	}
	cordon_ui_text(image, plugin->font, hint_color, PAD, l.footer_y - line - PAD / 2,
		WIDTH - 2 * PAD, hint);
	int bx = WIDTH - PAD - l.button_w;
	draw_button(plugin, image, bx, l.footer_y, l.button_w, l.button_h, primary_label(chooser),
		true, enabled);
	draw_button(plugin, image, bx - PAD - l.button_w, l.footer_y, l.button_w, l.button_h,
		chooser->files_page || chooser->confirm != CONFIRM_NONE ? "Back" : "Cancel", false,
		enabled);
}

static void draw(struct chooser *chooser) {
	struct builtin *plugin = chooser->plugin;
	const struct cordon_portal_ui_host *host = plugin->host;
	pixman_image_t *image = host->get_image(chooser->dialog, WIDTH, HEIGHT);
	if (!image) {
		return;
	}
	struct layout l = layout_of(plugin, chooser);
	int line = cordon_ui_font_height(plugin->font);
	char text[512];

	cordon_ui_fill(image, COLOR_BORDER, 0, 0, WIDTH, HEIGHT);
	cordon_ui_fill(image, COLOR_BACKGROUND, 1, 1, WIDTH - 2, HEIGHT - 2);
	cordon_ui_fill(image, COLOR_HEADER, 0, 0, WIDTH, l.header_h);
	cordon_ui_text(image, plugin->font, COLOR_HEADER_TEXT, PAD, PAD / 2, WIDTH - 2 * PAD,
		chooser->header);
	snprintf(text, sizeof(text), "\u201c%s\u201d", chooser->request->title);
	cordon_ui_text(
		image, plugin->font, COLOR_HEADER_TEXT, PAD, PAD + line, WIDTH - 2 * PAD, text);

	snprintf(text, sizeof(text), "Folder: %s", chooser->path);
	int filter_w = 220;
	cordon_ui_text(
		image, plugin->font, COLOR_TEXT, PAD, l.path_y, WIDTH - 3 * PAD - filter_w, text);
	if (!folders_only(chooser)) {
		snprintf(text, sizeof(text), "Filter: %s (Tab)", filter_label(chooser));
		cordon_ui_text(image, plugin->font, COLOR_DIM, WIDTH - PAD - filter_w, l.path_y,
			filter_w, text);
	}
	bool enabled = host->input_ready(chooser->dialog);
	if (chooser->files_page) {
		draw_files_page(chooser, image, l);
		draw_footer(chooser, image, l, enabled);
		host->commit(chooser->dialog);
		return;
	}

	if (is_save(chooser)) {
		cordon_ui_text(
			image, plugin->font, COLOR_TEXT, PAD, l.name_y + PAD / 4, 60, "Name:");
		cordon_ui_fill(image, COLOR_BORDER, PAD + 60, l.name_y - 2, WIDTH - 2 * PAD - 60,
			line + 6);
		cordon_ui_fill(
			image, COLOR_FIELD, PAD + 61, l.name_y - 1, WIDTH - 2 * PAD - 62, line + 4);
		int w = cordon_ui_text(image, plugin->font, COLOR_TEXT, PAD + 66, l.name_y + 1,
			WIDTH - 2 * PAD - 80, chooser->name);
		cordon_ui_fill(image, COLOR_TEXT, PAD + 67 + w, l.name_y + 1, 2, line);
	}

	cordon_ui_fill(image, COLOR_BORDER, PAD, l.list_y, WIDTH - 2 * PAD, l.list_h);
	cordon_ui_fill(
		image, COLOR_FIELD, PAD + 1, l.list_y + 1, WIDTH - 2 * PAD - 2, l.list_h - 2);
	if (chooser->cursor < chooser->scroll) {
		chooser->scroll = chooser->cursor;
	} else if (l.rows > 0 && chooser->cursor >= chooser->scroll + (size_t)l.rows) {
		chooser->scroll = chooser->cursor - (size_t)l.rows + 1;
	}
	for (int row = 0; row < l.rows; row++) {
		size_t i = chooser->scroll + (size_t)row;
		if (i >= chooser->entry_count) {
			break;
		}
		const struct entry *entry = &chooser->entries[i];
		int y = l.list_y + 1 + row * plugin->row_height;
		bool selected = i == chooser->cursor;
		if (selected) {
			cordon_ui_fill(image, COLOR_SELECTED, PAD + 1, y, WIDTH - 2 * PAD - 2,
				plugin->row_height);
		}
		snprintf(text, sizeof(text), "%s %s%s%s",
			entry->marked
				? "\u2611"
				: (chooser->request->multiple && !entry->is_dir ? "\u2610" : " "),
			entry->name, entry->is_dir ? "/" : "", entry->hidden ? "   (hidden)" : "");
		cordon_ui_text(image, plugin->font,
			selected                ? COLOR_SELECTED_TEXT
				: entry->hidden ? COLOR_DIM
						: COLOR_TEXT,
			PAD + 8, y + 2, WIDTH - 2 * PAD - 16, text);
	}
	if (chooser->entry_count == 0 ||
		(chooser->entry_count == 1 && strcmp(chooser->entries[0].name, "..") == 0)) {
		cordon_ui_text(image, plugin->font, COLOR_DIM, PAD + 8,
			l.list_y + 4 + plugin->row_height, 400, "(nothing to show here)");
	}

	draw_footer(chooser, image, l, enabled);
	host->commit(chooser->dialog);
}

static void *builtin_create(const struct cordon_portal_ui_host *host, const char *options) {
	struct builtin *plugin = calloc(1, sizeof(*plugin));
	if (!plugin) {
		return NULL;
	}
	plugin->host = host;
	plugin->font_name = strdup(options && options[0] ? options : "DejaVu Sans:size=11");
	if (!plugin->font_name) {
		free(plugin);
		return NULL;
	}
	return plugin;
}

/*
 * The font is loaded with the first dialog: fontconfig's start costs cordon's
 * start-up about 70 ms otherwise, for a dialog most sessions never show.
 */
static bool load_font(struct builtin *plugin) {
	if (plugin->font) {
		return true;
	}
	plugin->font = cordon_ui_font_load(plugin->font_name);
	if (!plugin->font) {
		plugin->host->log(CORDON_PORTAL_UI_LOG_ERROR, "builtin: cannot load the font '%s'",
			plugin->font_name);
		return false;
	}
	plugin->row_height = cordon_ui_font_height(plugin->font) + 6;
	return true;
}

static void builtin_destroy(void *data) {
	struct builtin *plugin = data;
	cordon_ui_font_destroy(plugin->font);
	/* Dialogs are closed before the plugin goes: only the array is left. */
	free(plugin->prints);
	free(plugin->font_name);
	free(plugin);
}

static char *make_header(const struct cordon_portal_ui_request *request) {
	const struct cordon_portal_ui_app *app = &request->app;
	char files[64];
	snprintf(files, sizeof(files), "save %zu files", request->save_file_count);
	const char *what = request->portal == CORDON_PORTAL_UI_FILE_SAVE ? "save a file"
		: request->portal == CORDON_PORTAL_UI_FILE_SAVE_FILES    ? files
		: request->directory                                     ? "open a folder"
		: request->multiple                                      ? "open files"
									 : "open a file";
	char *header = NULL;
	if (!app->known) {
		if (asprintf(&header, "An unidentified sandboxed app wants to %s", what) < 0) {
			header = NULL;
		}
	} else if (asprintf(&header, "%s (%s%s) wants to %s",
			   app->app_id[0] ? app->app_id : "An app without an id", app->engine,
			   app->sandboxed ? ", sandboxed" : "", what) < 0) {
		header = NULL;
	}
	return header;
}

static bool builtin_open(void *data, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	struct builtin *plugin = data;
	if (!load_font(plugin)) {
		return false;
	}
	if (request->portal == CORDON_PORTAL_UI_PRINT) {
		return open_print(plugin, dialog, request);
	}
	struct chooser *chooser = calloc(1, sizeof(*chooser));
	if (!chooser) {
		return false;
	}
	if (request->portal == CORDON_PORTAL_UI_CAMERA_PHOTO ||
		request->portal == CORDON_PORTAL_UI_CAMERA_STREAM) {
		chooser->camera =
			cordon_ui_camera_open(plugin->host, plugin->font, dialog, request);
		if (!chooser->camera) {
			free(chooser);
			return false;
		}
		plugin->host->set_user_data(dialog, chooser);
		return true;
	}
	chooser->plugin = plugin;
	chooser->dialog = dialog;
	chooser->request = request;
	chooser->dir_fd = -1;
	chooser->header = make_header(request);
	if (request->current_name) {
		snprintf(chooser->name, sizeof(chooser->name), "%s", request->current_name);
	}
	/* Where the user chose for this app last, else home: never where the app says. */
	const char *home = getenv("HOME");
	bool opened = (request->remembered_folder_count > 0 &&
			      open_folder(chooser, -1, request->remembered_folders[0])) ||
		(home && home[0] == '/' && open_folder(chooser, -1, home)) ||
		open_folder(chooser, -1, "/");
	if (!opened || !chooser->header) {
		free_entries(chooser);
		free(chooser->path);
		free(chooser->header);
		if (chooser->dir_fd >= 0) {
			close(chooser->dir_fd);
		}
		free(chooser);
		return false;
	}
	plugin->host->set_user_data(dialog, chooser);
	draw(chooser);
	return true;
}

static void builtin_close(void *data, struct cordon_portal_ui_dialog *dialog) {
	struct builtin *plugin = data;
	size_t index = find_print(plugin, dialog);
	if (index < plugin->print_count) {
		cordon_ui_print_close(plugin->prints[index]);
		plugin->prints[index] = plugin->prints[--plugin->print_count];
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser->camera) {
		cordon_ui_camera_close(chooser->camera);
		free(chooser);
		return;
	}
	free_entries(chooser);
	free(chooser->rows);
	free(chooser->path);
	free(chooser->header);
	close(chooser->dir_fd);
	free(chooser);
}

static void type_character(struct chooser *chooser, uint32_t codepoint) {
	char utf8[5] = {0};
	if (codepoint < 0x80) {
		utf8[0] = (char)codepoint;
	} else if (codepoint < 0x800) {
		utf8[0] = (char)(0xc0 | (codepoint >> 6));
		utf8[1] = (char)(0x80 | (codepoint & 0x3f));
	} else if (codepoint < 0x10000) {
		utf8[0] = (char)(0xe0 | (codepoint >> 12));
		utf8[1] = (char)(0x80 | ((codepoint >> 6) & 0x3f));
		utf8[2] = (char)(0x80 | (codepoint & 0x3f));
	} else {
		utf8[0] = (char)(0xf0 | (codepoint >> 18));
		utf8[1] = (char)(0x80 | ((codepoint >> 12) & 0x3f));
		utf8[2] = (char)(0x80 | ((codepoint >> 6) & 0x3f));
		utf8[3] = (char)(0x80 | (codepoint & 0x3f));
	}
	if (codepoint == '/' || strlen(chooser->name) + strlen(utf8) > NAME_MAX_LEN) {
		return;
	}
	strcat(chooser->name, utf8);
}

static void erase_character(struct chooser *chooser) {
	size_t len = strlen(chooser->name);
	/* Back over UTF-8 continuation bytes to the start of the last character. */
	while (len > 0 && (chooser->name[len - 1] & 0xc0) == 0x80) {
		len--;
	}
	if (len > 0) {
		len--;
	}
	chooser->name[len] = '\0';
}

static void move_cursor(struct chooser *chooser, long delta) {
	if (chooser->entry_count == 0) {
		return;
	}
	long cursor = (long)chooser->cursor + delta;
	long last = (long)chooser->entry_count - 1;
	chooser->cursor = (size_t)(cursor < 0 ? 0 : cursor > last ? last : cursor);
}

static bool is_modifier(uint32_t keysym) {
	return (keysym >= XKB_KEY_Shift_L && keysym <= XKB_KEY_Hyper_R) ||
		(keysym >= XKB_KEY_ISO_Lock && keysym <= XKB_KEY_ISO_Level5_Lock) ||
		keysym == XKB_KEY_Mode_switch || keysym == XKB_KEY_Num_Lock;
}

static void confirm_key(struct chooser *chooser, uint32_t keysym, bool alt);
static void files_page_key(struct chooser *chooser, uint32_t keysym, bool alt);
static bool chooser_key(
	struct chooser *chooser, uint32_t keysym, uint32_t codepoint, uint32_t modifiers);

static void builtin_key(void *data, struct cordon_portal_ui_dialog *dialog, uint32_t keysym,
	uint32_t codepoint, bool pressed, uint32_t modifiers) {
	struct builtin *plugin = data;
	struct cordon_ui_print *print = print_of(plugin, dialog);
	if (print) {
		cordon_ui_print_key(print, keysym, codepoint, pressed, modifiers);
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser->camera) {
		cordon_ui_camera_key(chooser->camera, keysym, pressed);
		return;
	}
	if (!pressed) {
		return;
	}
	/* A modifier alone is not an answer: Alt is held for Alt+R. */
	if (is_modifier(keysym)) {
		return;
	}
	chooser->message = NULL;
	bool alt = modifiers & CORDON_PORTAL_UI_MOD_ALT;
	if (chooser->confirm != CONFIRM_NONE) {
		confirm_key(chooser, keysym, alt);
	} else if (chooser->files_page) {
		files_page_key(chooser, keysym, alt);
	} else if (alt && is_save_files(chooser) && (keysym == XKB_KEY_s || keysym == XKB_KEY_S)) {
		open_files_page(chooser);
	} else if (!chooser_key(chooser, keysym, codepoint, modifiers)) {
		return;
	}
	if (chooser->dir_fd >= 0) {
		draw(chooser);
	}
}

/*
 * A question is up: only its own key answers it (Alt+R replaces, Alt+S saves
 * anyway); Return, Escape and every other key go back, so that typing on cannot
 * answer it.
 */
static void confirm_key(struct chooser *chooser, uint32_t keysym, bool alt) {
	enum confirm confirm = chooser->confirm;
	chooser->confirm = CONFIRM_NONE;
	bool r = keysym == XKB_KEY_r || keysym == XKB_KEY_R;
	bool s = keysym == XKB_KEY_s || keysym == XKB_KEY_S;
	if (alt && confirm == CONFIRM_REPLACE && r) {
		save(chooser, true, true);
	} else if (alt && confirm == CONFIRM_RISKY && s) {
		save(chooser, true, false);
	}
}

static void files_page_key(struct chooser *chooser, uint32_t keysym, bool alt) {
	size_t count = chooser->request->save_file_count;
	switch (keysym) {
	case XKB_KEY_Escape:
		chooser->files_page = false;
		break;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		save_files(chooser);
		break;
	case XKB_KEY_Up:
		chooser->row_cursor = chooser->row_cursor > 0 ? chooser->row_cursor - 1 : 0;
		break;
	case XKB_KEY_Down:
		chooser->row_cursor = chooser->row_cursor + 1 < count ? chooser->row_cursor + 1
								      : chooser->row_cursor;
		break;
	case XKB_KEY_r:
	case XKB_KEY_R:
		if (alt && chooser->row_cursor < count) {
			toggle_row(chooser, chooser->row_cursor);
		}
		break;
	default:
		break;
	}
}

/* The listing and the name field; false when the dialog was answered (do not draw). */
static bool chooser_key(
	struct chooser *chooser, uint32_t keysym, uint32_t codepoint, uint32_t modifiers) {
	struct builtin *plugin = chooser->plugin;
	struct layout l = layout_of(plugin, chooser);
	switch (keysym) {
	case XKB_KEY_Escape:
		plugin->host->cancel(chooser->dialog);
		return false;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		activate(chooser);
		break;
	case XKB_KEY_Up:
		move_cursor(chooser, -1);
		break;
	case XKB_KEY_Down:
		move_cursor(chooser, 1);
		break;
	case XKB_KEY_Page_Up:
		move_cursor(chooser, -l.rows);
		break;
	case XKB_KEY_Page_Down:
		move_cursor(chooser, l.rows);
		break;
	case XKB_KEY_Home:
		move_cursor(chooser, -(long)chooser->entry_count);
		break;
	case XKB_KEY_End:
		move_cursor(chooser, (long)chooser->entry_count);
		break;
	case XKB_KEY_Right:
		if (chooser->cursor < chooser->entry_count &&
			chooser->entries[chooser->cursor].is_dir) {
			enter(chooser, chooser->entries[chooser->cursor].name);
		}
		break;
	case XKB_KEY_Left:
		if (strcmp(chooser->path, "/") != 0) {
			enter(chooser, "..");
		}
		break;
	case XKB_KEY_BackSpace:
		if (is_save(chooser) && chooser->name[0]) {
			erase_character(chooser);
			chooser->name_typed = true;
		} else if (strcmp(chooser->path, "/") != 0) {
			enter(chooser, "..");
		}
		break;
	case XKB_KEY_Tab:
		chooser->filter = (chooser->filter + 1) % (chooser->request->filter_count + 1);
		list_folder(chooser);
		break;
	case XKB_KEY_space:
		if (!is_save(chooser) && chooser->request->multiple &&
			chooser->cursor < chooser->entry_count &&
			!chooser->entries[chooser->cursor].is_dir) {
			chooser->entries[chooser->cursor].marked ^= true;
			move_cursor(chooser, 1);
			break;
		}
		/* A space in a file name. */
		__attribute__((fallthrough));
	default:
		if (is_save(chooser) && codepoint >= 0x20 && codepoint != 0x7f &&
			!(modifiers & (CORDON_PORTAL_UI_MOD_CTRL | CORDON_PORTAL_UI_MOD_ALT))) {
			type_character(chooser, codepoint);
			chooser->name_typed = true;
		}
		break;
	}
	return true;
}

static void builtin_motion(void *data, struct cordon_portal_ui_dialog *dialog, double x, double y) {
	struct builtin *plugin = data;
	struct cordon_ui_print *print = print_of(plugin, dialog);
	if (print) {
		cordon_ui_print_motion(print, x, y);
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser->camera) {
		cordon_ui_camera_motion(chooser->camera, x, y);
		return;
	}
	chooser->pointer_x = x;
	chooser->pointer_y = y;
}

static bool inside(double x, double y, int bx, int by, int w, int h) {
	return x >= bx && y >= by && x < bx + w && y < by + h;
}

/* The SaveFiles page: Save, Back, or a click on a row turns it on or off. */
static void files_page_click(struct chooser *chooser, struct layout l, double x, double y,
	bool primary, bool secondary) {
	struct builtin *plugin = chooser->plugin;
	if (primary) {
		save_files(chooser);
		return;
	}
	if (secondary) {
		chooser->files_page = false;
		return;
	}
	/* Rows start below the page's first line (and the folder's warning). */
	int line = cordon_ui_font_height(plugin->font);
	int top = l.name_y + line + PAD / 2 + (chooser->folder_risk ? line + PAD / 2 : 0);
	size_t count = chooser->request->save_file_count;
	size_t shown = count < MAX_SAVE_ROWS ? count : MAX_SAVE_ROWS;
	size_t first = chooser->row_cursor >= shown ? chooser->row_cursor - shown + 1 : 0;
	if (y < top || x < PAD || x >= WIDTH - PAD) {
		return;
	}
	size_t i = first + (size_t)((y - top) / plugin->row_height);
	if (i < first + shown) {
		chooser->row_cursor = i;
		toggle_row(chooser, i);
	}
}

static void builtin_button(
	void *data, struct cordon_portal_ui_dialog *dialog, uint32_t button, bool pressed) {
	struct builtin *plugin = data;
	struct cordon_ui_print *print = print_of(plugin, dialog);
	if (print) {
		cordon_ui_print_button(print, button, pressed);
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser->camera) {
		cordon_ui_camera_button(chooser->camera, button, pressed);
		return;
	}
	if (button != BTN_LEFT || !pressed) {
		return;
	}
	struct layout l = layout_of(plugin, chooser);
	double x = chooser->pointer_x, y = chooser->pointer_y;
	int bx = WIDTH - PAD - l.button_w;
	chooser->message = NULL;
	enum confirm confirm = chooser->confirm;
	chooser->confirm = CONFIRM_NONE;
	bool primary = inside(x, y, bx, l.footer_y, l.button_w, l.button_h);
	bool secondary = inside(x, y, bx - PAD - l.button_w, l.footer_y, l.button_w, l.button_h);
	if (confirm != CONFIRM_NONE) {
		/* The question's own button answers it; a click anywhere else goes back. */
		if (primary) {
			save(chooser, true, confirm == CONFIRM_REPLACE);
		}
	} else if (chooser->files_page) {
		files_page_click(chooser, l, x, y, primary, secondary);
	} else if (primary && is_save_files(chooser)) {
		open_files_page(chooser);
	} else if (primary) {
		activate(chooser);
	} else if (secondary) {
		plugin->host->cancel(dialog);
		return;
	} else if (inside(x, y, PAD, l.list_y, WIDTH - 2 * PAD, l.rows * plugin->row_height)) {
		size_t i = chooser->scroll + (size_t)((y - l.list_y - 1) / plugin->row_height);
		if (i < chooser->entry_count && i == chooser->cursor) {
			activate(chooser);
		} else if (i < chooser->entry_count) {
			chooser->cursor = i;
			if (is_save(chooser) && !chooser->entries[i].is_dir) {
				snprintf(chooser->name, sizeof(chooser->name), "%s",
					chooser->entries[i].name);
				chooser->name_typed = true;
			}
		}
	}
	draw(chooser);
}

static void builtin_preview_frame(void *data, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_frame *frame) {
	struct builtin *plugin = data;
	if (print_of(plugin, dialog)) {
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser && chooser->camera) {
		cordon_ui_camera_preview_frame(chooser->camera, frame);
	}
}

/* cordon's grace period began or ended: the buttons are drawn enabled or not. */
static void builtin_input_ready(void *data, struct cordon_portal_ui_dialog *dialog) {
	struct builtin *plugin = data;
	struct cordon_ui_print *print = print_of(plugin, dialog);
	if (print) {
		cordon_ui_print_redraw(print);
		return;
	}
	struct chooser *chooser = plugin->host->get_user_data(dialog);
	if (chooser && chooser->camera) {
		cordon_ui_camera_redraw(chooser->camera);
	} else if (chooser && chooser->dir_fd >= 0) {
		draw(chooser);
	}
}

static const struct cordon_portal_ui_plugin builtin_plugin = {
	.abi_version = CORDON_PORTAL_UI_ABI_VERSION,
	.name = "builtin",
	.create = builtin_create,
	.destroy = builtin_destroy,
	.open = builtin_open,
	.close = builtin_close,
	.key = builtin_key,
	.pointer_motion = builtin_motion,
	.pointer_button = builtin_button,
	.preview_frame = builtin_preview_frame,
	.input_ready = builtin_input_ready,
};

const struct cordon_portal_ui_plugin *cordon_portal_ui_builtin_plugin(void) {
	return &builtin_plugin;
}
