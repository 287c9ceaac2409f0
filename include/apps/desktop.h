/* Desktop integration: the app's desktop entry and icon where every launcher looks. */
#ifndef CORDON_APPS_DESKTOP_H
#define CORDON_APPS_DESKTOP_H

#include <stdbool.h>
#include <stddef.h>

#include "apps/manifest.h"

/* $XDG_DATA_HOME/applications/ID.desktop (malloc'ed). */
char *cordon_desktop_entry_path(const char *id);
/*
 * Writes the entry, built by cordon-app from the manifest's checked fields (never a desktop
 * file from the bundle): Exec starts cordon_run on the installed image. false with *error.
 */
bool cordon_desktop_write(const struct cordon_manifest *manifest, const char *cordon_run,
	const char *image, bool has_icon, char **error);
/*
 * The icon into $XDG_DATA_HOME/icons/hicolor/NxN/apps/ID.png: a PNG, square, 16 to 1024
 * pixels (from its header). false with *error when it is not one.
 */
bool cordon_icon_install(const char *id, const unsigned char *png, size_t len, char **error);
/* Removes the entry and every size of the icon. */
void cordon_desktop_remove(const char *id);

#endif
