/* A portal dialog's pixels: a compositor-owned pixman image shown above every app. */
#ifndef CORDON_PORTALS_DIALOG_SURFACE_H
#define CORDON_PORTALS_DIALOG_SURFACE_H

#include <pixman.h>
#include <stdbool.h>

struct cordon_portal_host;
struct wl_resource;
struct wlr_scene_tree;
struct cordon_portal_dialog_surface;

/* In LAYER (the portal layer), placed and labelled through HOST, which must outlive it. */
struct cordon_portal_dialog_surface *cordon_portal_dialog_surface_create(
	const struct cordon_portal_host *host, struct wlr_scene_tree *layer);
void cordon_portal_dialog_surface_destroy(struct cordon_portal_dialog_surface *surface);

enum cordon_portal_dialog_placement {
	CORDON_PORTAL_DIALOG_CENTRED, /* dialogs */
	CORDON_PORTAL_DIALOG_TOP_RIGHT, /* indicators, out of the way of the app */
};
/* Where the next commits place it on its output: centred unless told. */
void cordon_portal_dialog_surface_set_placement(struct cordon_portal_dialog_surface *surface,
	enum cordon_portal_dialog_placement placement);
/*
 * The request the dialog is for: its frame's header shows the app's label colour and name
 * (from TAG) and the time it asked.
 */
struct cordon_tag;
struct timespec;
void cordon_portal_dialog_surface_set_requester(struct cordon_portal_dialog_surface *surface,
	const struct cordon_tag *tag, const struct timespec *asked_at);
/* The image to paint, resized (and cleared) when the size changes; NULL on a bad size. */
pixman_image_t *cordon_portal_dialog_surface_get_image(
	struct cordon_portal_dialog_surface *surface, int width, int height);
/*
 * Shows the image as painted now, above every app surface, on the output of PARENT
 * (the request's xdg_toplevel, or NULL), else the pointer's, else the first.
 */
void cordon_portal_dialog_surface_commit(
	struct cordon_portal_dialog_surface *surface, struct wl_resource *parent);
/*
 * Where the dialog's own pixels are (inside cordon's frame), in layout coordinates; false
 * when it is not shown.
 */
bool cordon_portal_dialog_surface_get_box(const struct cordon_portal_dialog_surface *surface,
	int *x, int *y, int *width, int *height);

#endif
