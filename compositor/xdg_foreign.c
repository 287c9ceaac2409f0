/*
 * xdg-foreign-v2. A sandboxed app that asks a portal over D-Bus names its window by the
 * handle it exported here ("wayland:HANDLE"); the handle is random (wlroots draws it),
 * so naming another app's window needs that app's handle. The exporter is on the
 * sandbox allow-list, the importer (parenting to another client's surface) is not.
 */
#include "compositor/xdg_foreign.h"

#include <stdlib.h>
#include <wlr/types/wlr_xdg_foreign_registry.h>
#include <wlr/types/wlr_xdg_foreign_v2.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct cordon_xdg_foreign {
	struct wlr_xdg_foreign_registry *registry;
	struct wlr_xdg_foreign_v2 *v2;
};

struct cordon_xdg_foreign *cordon_xdg_foreign_create(struct wl_display *display) {
	struct cordon_xdg_foreign *foreign = calloc(1, sizeof(*foreign));
	if (!foreign) {
		return NULL;
	}
	foreign->registry = wlr_xdg_foreign_registry_create(display);
	foreign->v2 =
		foreign->registry ? wlr_xdg_foreign_v2_create(display, foreign->registry) : NULL;
	if (!foreign->v2) {
		/* A registry made without its protocol goes with the display. */
		wlr_log(WLR_ERROR, "Cannot create xdg-foreign-v2");
		free(foreign);
		return NULL;
	}
	return foreign;
}

void cordon_xdg_foreign_destroy(struct cordon_xdg_foreign *foreign) {
	free(foreign);
}

struct wl_resource *cordon_xdg_foreign_lookup(
	struct cordon_xdg_foreign *foreign, const char *handle) {
	if (!foreign) {
		return NULL;
	}
	struct wlr_xdg_foreign_exported *exported =
		wlr_xdg_foreign_registry_find_by_handle(foreign->registry, handle);
	return exported && exported->toplevel ? exported->toplevel->resource : NULL;
}
