/* wlr-foreign-toplevel-management: taskbars see and control the views. */
#ifndef CORDON_COMPOSITOR_FOREIGN_TOPLEVEL_H
#define CORDON_COMPOSITOR_FOREIGN_TOPLEVEL_H

struct cordon_view;

/* Publishes a mapped view to taskbars. */
void cordon_foreign_toplevel_create(struct cordon_view *view);
/* Withdraws it (unmap or destroy); safe when not published. */
void cordon_foreign_toplevel_destroy(struct cordon_view *view);

#endif
