/*
 * Print settings as text. The Wayland door takes IPP's names (what CUPS is given); the D-Bus
 * door speaks GtkPrintSettings, translated here both ways. Every value is checked before CUPS
 * or the other door sees it: numbers in range, page ranges range-checked, keywords without
 * spaces, quotes or slashes.
 */
#include "portals/print_settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portals/page_ranges.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const setting_keys[] = {
	"printer",
	"copies",
	"page-ranges",
	"sides",
	"print-color-mode",
	"media",
	"orientation-requested",
};

static bool all_chars_in(const char *value, const char *allowed) {
	return value[strspn(value, allowed)] == '\0';
}

/* Digits only: strtol alone would take " 3", "\n3" and "+3", and CUPS would get them. */
static bool number_in(const char *value, long low, long high) {
	if (value[0] < '0' || value[0] > '9') {
		return false;
	}
	char *end;
	errno = 0;
	long n = strtol(value, &end, 10);
	return errno == 0 && *end == '\0' && n >= low && n <= high;
}

bool cordon_print_setting_valid(const char *key, const char *value, const char **why) {
	bool known = false;
	for (size_t i = 0; i < COUNT(setting_keys); i++) {
		known = known || strcmp(key, setting_keys[i]) == 0;
	}
	if (!known) {
		*why = "unknown setting";
		return false;
	}
	if (value[0] == '\0' || strlen(value) >= CORDON_PRINT_VALUE_MAX) {
		*why = "empty or longer than 255 bytes";
		return false;
	}
	bool ok;
	if (strcmp(key, "copies") == 0) {
		ok = number_in(value, 1, 999);
	} else if (strcmp(key, "orientation-requested") == 0) {
		ok = number_in(value, 3, 6);
	} else if (strcmp(key, "page-ranges") == 0) {
		/* Every number range-checked, so CUPS and the D-Bus door get sane ones. */
		struct cordon_page_range ranges[CORDON_PAGE_RANGES_MAX];
		size_t count;
		ok = cordon_page_ranges_parse(value, 1, ranges, &count, why);
		if (!ok) {
			return false;
		}
	} else {
		/* IPP keywords and queue names: no spaces, quotes or slashes for CUPS to parse. */
		ok = all_chars_in(value,
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789._-+@");
	}
	if (!ok) {
		*why = "malformed value";
	}
	return ok;
}

/*
 * GTK's 0-based page ranges ("0-2,4") as IPP's 1-based ones, or back (DELTA -1): every
 * number range-checked before the shift (portals/page_ranges.c).
 */
static bool shift_ranges(
	const char *in, int delta, char out[CORDON_PRINT_VALUE_MAX], const char **why) {
	return cordon_page_ranges_shift(
		in, delta > 0 ? 0 : 1, delta, out, CORDON_PRINT_VALUE_MAX, why);
}

static const char *const duplex_names[][2] = {
	{"simplex", "one-sided"},
	{"horizontal", "two-sided-short-edge"},
	{"vertical", "two-sided-long-edge"},
};
static const char *const orientation_names[][2] = {
	{"portrait", "3"},
	{"landscape", "4"},
	{"reverse_landscape", "5"},
	{"reverse_portrait", "6"},
};

static const char *lookup(const char *const table[][2], size_t count, const char *value, int from) {
	for (size_t i = 0; i < count; i++) {
		if (strcmp(table[i][from], value) == 0) {
			return table[i][1 - from];
		}
	}
	return NULL;
}

bool cordon_print_setting_from_gtk(const char *key, const char *value, const char **ipp_key,
	char ipp_value[CORDON_PRINT_VALUE_MAX], const char **why) {
	const char *mapped = value;
	*ipp_key = NULL;
	if (strcmp(key, "printer") == 0) {
		*ipp_key = "printer";
	} else if (strcmp(key, "n-copies") == 0) {
		*ipp_key = "copies";
	} else if (strcmp(key, "page-ranges") == 0) {
		*ipp_key = "page-ranges";
		return shift_ranges(value, 1, ipp_value, why);
	} else if (strcmp(key, "duplex") == 0) {
		*ipp_key = "sides";
		mapped = lookup(duplex_names, COUNT(duplex_names), value, 0);
	} else if (strcmp(key, "use-color") == 0) {
		*ipp_key = "print-color-mode";
		mapped = strcmp(value, "true") == 0 || strcmp(value, "yes") == 0  ? "color"
			: strcmp(value, "false") == 0 || strcmp(value, "no") == 0 ? "monochrome"
										  : NULL;
	} else if (strcmp(key, "orientation") == 0 || strcmp(key, "Orientation") == 0) {
		*ipp_key = "orientation-requested";
		mapped = lookup(orientation_names, COUNT(orientation_names), value, 0);
	} else if (strcmp(key, "Name") == 0) {
		/* The page setup's paper (GTK names PWG sizes, "iso_a4"). */
		*ipp_key = "media";
	} else {
		return true;
	}
	return mapped &&
		snprintf(ipp_value, CORDON_PRINT_VALUE_MAX, "%s", mapped) < CORDON_PRINT_VALUE_MAX;
}

bool cordon_print_setting_to_gtk(const char *key, const char *value, const char **gtk_key,
	char gtk_value[CORDON_PRINT_VALUE_MAX]) {
	const char *mapped = value;
	*gtk_key = NULL;
	if (strcmp(key, "printer") == 0) {
		*gtk_key = "printer";
	} else if (strcmp(key, "copies") == 0) {
		*gtk_key = "n-copies";
	} else if (strcmp(key, "page-ranges") == 0) {
		*gtk_key = "page-ranges";
		const char *why;
		return shift_ranges(value, -1, gtk_value, &why);
	} else if (strcmp(key, "sides") == 0) {
		*gtk_key = "duplex";
		mapped = lookup(duplex_names, COUNT(duplex_names), value, 1);
	} else if (strcmp(key, "print-color-mode") == 0) {
		*gtk_key = "use-color";
		mapped = strcmp(value, "monochrome") == 0 ? "false" : "true";
	} else if (strcmp(key, "orientation-requested") == 0) {
		*gtk_key = "orientation";
		mapped = lookup(orientation_names, COUNT(orientation_names), value, 1);
	} else if (strcmp(key, "media") == 0) {
		*gtk_key = "paper-format";
	}
	return mapped &&
		snprintf(gtk_value, CORDON_PRINT_VALUE_MAX, "%s", mapped) < CORDON_PRINT_VALUE_MAX;
}
