/* wlr-foreign-toplevel-management (taskbars see and control the views) and
 * ext-foreign-toplevel-list (host tools name them, e.g. for a window capture). */
#ifndef CORDON_COMPOSITOR_FOREIGN_TOPLEVEL_H
#define CORDON_COMPOSITOR_FOREIGN_TOPLEVEL_H

struct cordon_view;

/* Publishes a mapped view to taskbars. */
void cordon_foreign_toplevel_create(struct cordon_view *view);
/* The view's title or app_id changed. */
void cordon_foreign_toplevel_update_names(struct cordon_view *view);
/* Withdraws it (unmap or destroy); safe when not published. */
void cordon_foreign_toplevel_destroy(struct cordon_view *view);

#endif
