/* Print settings as text: which keys and values the print portal takes, and GTK's names. */
#ifndef CORDON_PORTALS_PRINT_SETTINGS_H
#define CORDON_PORTALS_PRINT_SETTINGS_H

#include <stdbool.h>

/* The longest value of a setting, NUL included. */
#define CORDON_PRINT_VALUE_MAX 256

/*
 * Whether KEY is a setting the print portal knows (IPP's names: printer, copies, page-ranges,
 * sides, print-color-mode, media, orientation-requested) and VALUE a well-formed value for it;
 * false with *why (static text) if not.
 */
bool cordon_print_setting_valid(const char *key, const char *value, const char **why);

/*
 * A GtkPrintSettings (or page setup) entry as the print portal's setting: *ipp_key NULL for a
 * key that has none (ignored), else the value in IPP's terms. False with *why for a value that
 * has no translation.
 */
bool cordon_print_setting_from_gtk(const char *key, const char *value, const char **ipp_key,
	char ipp_value[CORDON_PRINT_VALUE_MAX], const char **why);

/* A chosen setting with GTK's name and value; *gtk_key NULL for one GTK has no name for. */
bool cordon_print_setting_to_gtk(const char *key, const char *value, const char **gtk_key,
	char gtk_value[CORDON_PRINT_VALUE_MAX]);

#endif
