/*
 * The built-in print dialog, drawn like the built-in file chooser (pixman, fcft)
 * and shown by the same plugin (ui_builtin.c). Its header says who asks, from the
 * app's tag; the app's title is a quote. The fields are the printer and the
 * options CUPS reported for it (copies up to its maximum, sides, colour, paper
 * size), plus a typed page range. The app's suggestions are where the fields
 * start; the user decides.
 *
 * Keys: Up/Down (or Tab) choose a field, Left/Right change it, digits, ',' and
 * '-' type the page range (Backspace erases), Return prints, Escape cancels. A
 * click on a field's left or right half steps it back or on; the buttons do what
 * they say.
 */
#include "portals/ui_print.h"

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon-keysyms.h>

#include "portals/ui_draw.h"

#define WIDTH 600
#define PAD 12
#define LABEL_W 140
#define RANGE_MAX 63

#define COLOR_BACKGROUND 0xf4f4f4
#define COLOR_HEADER 0x1f3a5f
#define COLOR_HEADER_TEXT 0xffffff
#define COLOR_TEXT 0x202020
#define COLOR_DIM 0x606060
#define COLOR_SELECTED 0x3d7bd9
#define COLOR_SELECTED_TEXT 0xffffff
#define COLOR_FIELD 0xffffff
#define COLOR_BORDER 0xa0a0a0
#define COLOR_BUTTON 0xdcdcdc
#define COLOR_DISABLED 0xe8e8e8
#define COLOR_DISABLED_TEXT 0xa0a0a0

/* The option fields, in the order shown, by IPP name. */
static const char *const option_names[] = {"sides", "print-color-mode", "media"};
static const char *const option_labels[] = {"Two-sided", "Colour", "Paper size"};
#define OPTION_COUNT 3

enum field {
	FIELD_PRINTER,
	FIELD_COPIES,
	FIELD_PAGES,
	FIELD_OPTION, /* + the option's index */
	FIELD_COUNT = FIELD_OPTION + OPTION_COUNT,
};

struct cordon_ui_print {
	const struct cordon_portal_ui_host *host;
	struct cordon_ui_font *font;
	struct cordon_portal_ui_dialog *dialog;
	const struct cordon_portal_ui_request *request;
	char header[512];
	size_t printer;
	int copies;
	char pages[RANGE_MAX + 1]; /* "" for all pages */
	/* Per option field: the chosen value's index in the printer's option, or -1. */
	int option_value[OPTION_COUNT];
	int field;
	bool answered;
	double pointer_x, pointer_y;
};

static const char *suggested(const struct cordon_ui_print *print, const char *key) {
	const struct cordon_portal_ui_request *request = print->request;
	for (size_t i = 0; i < request->print_setting_count; i++) {
		if (strcmp(request->print_settings[i].key, key) == 0) {
			return request->print_settings[i].value;
		}
	}
	return NULL;
}

static const struct cordon_portal_ui_printer *current_printer(const struct cordon_ui_print *print) {
	return &print->request->printers[print->printer];
}

static const struct cordon_portal_ui_print_option *option_of(
	const struct cordon_ui_print *print, int index) {
	const struct cordon_portal_ui_printer *printer = current_printer(print);
	for (size_t i = 0; i < printer->option_count; i++) {
		if (strcmp(printer->options[i].name, option_names[index]) == 0) {
			return printer->options[i].value_count ? &printer->options[i] : NULL;
		}
	}
	return NULL;
}

static int index_of(const struct cordon_portal_ui_print_option *option, const char *value) {
	for (size_t i = 0; value && i < option->value_count; i++) {
		if (strcmp(option->values[i], value) == 0) {
			return (int)i;
		}
	}
	return -1;
}

/* A new printer: its options start at the app's suggestion, else the printer's default. */
static void reset_options(struct cordon_ui_print *print) {
	const struct cordon_portal_ui_printer *printer = current_printer(print);
	if (print->copies > printer->max_copies) {
		print->copies = printer->max_copies;
	}
	for (int i = 0; i < OPTION_COUNT; i++) {
		const struct cordon_portal_ui_print_option *option = option_of(print, i);
		int value = -1;
		if (option) {
			value = index_of(option, suggested(print, option_names[i]));
			value = value >= 0 ? value : index_of(option, option->default_value);
			value = value >= 0 ? value : 0;
		}
		print->option_value[i] = value;
	}
}

/* Greyed while cordon's grace period ignores input (host input_ready). */
static void draw_button(struct cordon_ui_print *print, pixman_image_t *image, int x, int y, int w,
	int h, const char *label, bool primary) {
	bool enabled = print->host->input_ready(print->dialog);
	uint32_t fill = !enabled ? COLOR_DISABLED : primary ? COLOR_SELECTED : COLOR_BUTTON;
	uint32_t text = !enabled ? COLOR_DISABLED_TEXT : primary ? COLOR_SELECTED_TEXT : COLOR_TEXT;
	cordon_ui_fill(image, COLOR_BORDER, x, y, w, h);
	cordon_ui_fill(image, fill, x + 1, y + 1, w - 2, h - 2);
	cordon_ui_text(image, print->font, text, x + PAD, y + PAD / 2, w - 2 * PAD, label);
}

/* Layout from the font's height: header, one row per field, the buttons. */
struct layout {
	int line, header_h, row_h, rows_y, footer_y, button_w, button_h, height;
};

static struct layout layout_of(const struct cordon_ui_print *print) {
	struct layout l;
	l.line = cordon_ui_font_height(print->font);
	l.header_h = 2 * l.line + 3 * PAD / 2;
	l.row_h = l.line + PAD;
	l.rows_y = l.header_h + PAD;
	l.button_h = l.line + PAD;
	l.footer_y = l.rows_y + FIELD_COUNT * l.row_h + PAD;
	l.button_w = 110;
	l.height = l.footer_y + l.button_h + PAD;
	return l;
}

static void field_text(const struct cordon_ui_print *print, int field, char *text, size_t size) {
	const struct cordon_portal_ui_printer *printer = current_printer(print);
	if (field == FIELD_PRINTER) {
		snprintf(text, size, "%s%s%s%s", printer->name, printer->info[0] ? " (" : "",
			printer->info, printer->info[0] ? ")" : "");
	} else if (field == FIELD_COPIES) {
		snprintf(text, size, "%d", print->copies);
	} else if (field == FIELD_PAGES) {
		snprintf(text, size, "%s",
			print->pages[0] ? print->pages : "All (type a range: 1-3,5)");
	} else {
		const struct cordon_portal_ui_print_option *option =
			option_of(print, field - FIELD_OPTION);
		int value = print->option_value[field - FIELD_OPTION];
		snprintf(text, size, "%s",
			option && value >= 0 ? option->values[value] : "the printer's default");
	}
}

static void draw(struct cordon_ui_print *print) {
	struct layout l = layout_of(print);
	pixman_image_t *image = print->host->get_image(print->dialog, WIDTH, l.height);
	if (!image) {
		return;
	}
	char text[512];
	cordon_ui_fill(image, COLOR_BORDER, 0, 0, WIDTH, l.height);
	cordon_ui_fill(image, COLOR_BACKGROUND, 1, 1, WIDTH - 2, l.height - 2);
	cordon_ui_fill(image, COLOR_HEADER, 0, 0, WIDTH, l.header_h);
	cordon_ui_text(image, print->font, COLOR_HEADER_TEXT, PAD, PAD / 2, WIDTH - 2 * PAD,
		print->header);
	snprintf(text, sizeof(text), "\u201c%s\u201d", print->request->title);
	cordon_ui_text(
		image, print->font, COLOR_HEADER_TEXT, PAD, PAD + l.line, WIDTH - 2 * PAD, text);
	static const char *const labels[FIELD_OPTION] = {"Printer", "Copies", "Pages"};
	for (int field = 0; field < FIELD_COUNT; field++) {
		int y = l.rows_y + field * l.row_h;
		const char *label =
			field < FIELD_OPTION ? labels[field] : option_labels[field - FIELD_OPTION];
		bool selected = field == print->field;
		cordon_ui_text(
			image, print->font, COLOR_TEXT, PAD, y + PAD / 2 - 2, LABEL_W - PAD, label);
		int x = PAD + LABEL_W, w = WIDTH - 2 * PAD - LABEL_W;
		cordon_ui_fill(
			image, selected ? COLOR_SELECTED : COLOR_BORDER, x, y, w, l.row_h - 4);
		cordon_ui_fill(image, selected ? COLOR_SELECTED : COLOR_FIELD, x + 1, y + 1, w - 2,
			l.row_h - 6);
		uint32_t color = selected ? COLOR_SELECTED_TEXT : COLOR_TEXT;
		field_text(print, field, text, sizeof(text));
		bool dim = field == FIELD_PAGES && !print->pages[0];
		cordon_ui_text(image, print->font, dim && !selected ? COLOR_DIM : color,
			x + 2 * PAD, y + PAD / 2 - 2, w - 4 * PAD, text);
		if (field != FIELD_PAGES) {
			cordon_ui_text(
				image, print->font, color, x + 6, y + PAD / 2 - 2, PAD, "\u2039");
			cordon_ui_text(image, print->font, color, x + w - PAD - 2, y + PAD / 2 - 2,
				PAD, "\u203a");
		}
	}
	int bx = WIDTH - PAD - l.button_w;
	draw_button(print, image, bx, l.footer_y, l.button_w, l.button_h,
		print->request->print_prepare_only ? "Choose" : "Print", true);
	draw_button(print, image, bx - PAD - l.button_w, l.footer_y, l.button_w, l.button_h,
		"Cancel", false);
	cordon_ui_text(image, print->font, COLOR_DIM, PAD, l.footer_y + PAD / 2,
		bx - 3 * PAD - l.button_w, "\u2191\u2193 field  \u2190\u2192 change");
	print->host->commit(print->dialog);
}

void cordon_ui_print_redraw(struct cordon_ui_print *print) {
	if (!print->answered) {
		draw(print);
	}
}

static void step(struct cordon_ui_print *print, int delta) {
	if (print->field == FIELD_PRINTER) {
		size_t count = print->request->printer_count;
		print->printer = (size_t)(((int)print->printer + (int)count + delta) % (int)count);
		reset_options(print);
	} else if (print->field == FIELD_COPIES) {
		int copies = print->copies + delta;
		if (copies >= 1 && copies <= current_printer(print)->max_copies) {
			print->copies = copies;
		}
	} else if (print->field >= FIELD_OPTION) {
		int index = print->field - FIELD_OPTION;
		const struct cordon_portal_ui_print_option *option = option_of(print, index);
		if (option) {
			int count = (int)option->value_count;
			print->option_value[index] =
				(print->option_value[index] + delta + count) % count;
		}
	}
}

static void confirm(struct cordon_ui_print *print) {
	const struct cordon_portal_ui_host *host = print->host;
	const struct cordon_portal_ui_printer *printer = current_printer(print);
	char copies[16];
	snprintf(copies, sizeof(copies), "%d", print->copies);
	host->set_print_setting(print->dialog, "printer", printer->name);
	host->set_print_setting(print->dialog, "copies", copies);
	if (print->pages[0]) {
		host->set_print_setting(print->dialog, "page-ranges", print->pages);
	}
	for (int i = 0; i < OPTION_COUNT; i++) {
		const struct cordon_portal_ui_print_option *option = option_of(print, i);
		if (option && print->option_value[i] >= 0) {
			host->set_print_setting(print->dialog, option_names[i],
				option->values[print->option_value[i]]);
		}
	}
	print->answered = true;
	host->done(print->dialog);
}

static void cancel(struct cordon_ui_print *print) {
	print->answered = true;
	print->host->cancel(print->dialog);
}

struct cordon_ui_print *cordon_ui_print_open(const struct cordon_portal_ui_host *host,
	struct cordon_ui_font *font, struct cordon_portal_ui_dialog *dialog,
	const struct cordon_portal_ui_request *request) {
	if (request->printer_count == 0) {
		return NULL;
	}
	struct cordon_ui_print *print = calloc(1, sizeof(*print));
	if (!print) {
		return NULL;
	}
	print->host = host;
	print->font = font;
	print->dialog = dialog;
	print->request = request;
	const struct cordon_portal_ui_app *app = &request->app;
	const char *what = request->print_prepare_only ? "set up printing" : "print";
	if (!app->known) {
		snprintf(print->header, sizeof(print->header),
			"An unidentified sandboxed app wants to %s", what);
	} else {
		snprintf(print->header, sizeof(print->header), "%s (%s%s) wants to %s",
			app->app_id[0] ? app->app_id : "An app without an id", app->engine,
			app->sandboxed ? ", sandboxed" : "", what);
	}
	/* The app's printer if it names one that exists, else CUPS's default. */
	const char *wanted = suggested(print, "printer");
	for (size_t i = 0; i < request->printer_count; i++) {
		if (wanted ? strcmp(request->printers[i].name, wanted) == 0
			   : request->printers[i].is_default) {
			print->printer = i;
		}
	}
	const char *copies = suggested(print, "copies");
	print->copies = copies ? atoi(copies) : 1;
	print->copies = print->copies >= 1 ? print->copies : 1;
	const char *pages = suggested(print, "page-ranges");
	snprintf(print->pages, sizeof(print->pages), "%s", pages ? pages : "");
	reset_options(print);
	draw(print);
	return print;
}

struct cordon_portal_ui_dialog *cordon_ui_print_dialog(const struct cordon_ui_print *print) {
	return print->dialog;
}

void cordon_ui_print_close(struct cordon_ui_print *print) {
	free(print);
}

void cordon_ui_print_key(struct cordon_ui_print *print, uint32_t keysym, uint32_t codepoint,
	bool pressed, uint32_t modifiers) {
	if (!pressed || print->answered) {
		return;
	}
	size_t len = strlen(print->pages);
	switch (keysym) {
	case XKB_KEY_Escape:
		cancel(print);
		return;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		confirm(print);
		return;
	case XKB_KEY_Up:
	case XKB_KEY_ISO_Left_Tab:
		print->field = (print->field + FIELD_COUNT - 1) % FIELD_COUNT;
		break;
	case XKB_KEY_Down:
	case XKB_KEY_Tab:
		print->field = (print->field + 1) % FIELD_COUNT;
		break;
	case XKB_KEY_Left:
		step(print, -1);
		break;
	case XKB_KEY_Right:
		step(print, 1);
		break;
	case XKB_KEY_BackSpace:
		if (print->field == FIELD_PAGES && len > 0) {
			print->pages[len - 1] = '\0';
		}
		break;
	default:
		if (print->field == FIELD_PAGES && codepoint < 128 && len < RANGE_MAX &&
			((codepoint >= '0' && codepoint <= '9') || codepoint == ',' ||
				codepoint == '-')) {
			/* A range starts with a page number, as cordon checks. */
			if (len > 0 || (codepoint >= '0' && codepoint <= '9')) {
				print->pages[len] = (char)codepoint;
				print->pages[len + 1] = '\0';
			}
		}
		break;
	}
	draw(print);
}

void cordon_ui_print_motion(struct cordon_ui_print *print, double x, double y) {
	print->pointer_x = x;
	print->pointer_y = y;
}

static bool inside(double x, double y, int bx, int by, int w, int h) {
	return x >= bx && y >= by && x < bx + w && y < by + h;
}

void cordon_ui_print_button(struct cordon_ui_print *print, uint32_t button, bool pressed) {
	if (button != BTN_LEFT || !pressed || print->answered) {
		return;
	}
	struct layout l = layout_of(print);
	int bx = WIDTH - PAD - l.button_w;
	if (inside(print->pointer_x, print->pointer_y, bx, l.footer_y, l.button_w, l.button_h)) {
		confirm(print);
		return;
	}
	if (inside(print->pointer_x, print->pointer_y, bx - PAD - l.button_w, l.footer_y,
		    l.button_w, l.button_h)) {
		cancel(print);
		return;
	}
	for (int field = 0; field < FIELD_COUNT; field++) {
		int x = PAD + LABEL_W, w = WIDTH - 2 * PAD - LABEL_W;
		if (inside(print->pointer_x, print->pointer_y, PAD, l.rows_y + field * l.row_h,
			    x + w - PAD, l.row_h)) {
			print->field = field;
			if (print->pointer_x >= x) {
				step(print, print->pointer_x < x + w / 2 ? -1 : 1);
			}
			draw(print);
			return;
		}
	}
}
