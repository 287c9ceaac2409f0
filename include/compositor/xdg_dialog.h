/* xdg-dialog-v1: a toplevel an app marks modal stays above its parent and takes its focus. */
#ifndef CORDON_COMPOSITOR_XDG_DIALOG_H
#define CORDON_COMPOSITOR_XDG_DIALOG_H

struct cordon_server;
struct cordon_view;

struct cordon_xdg_dialogs *cordon_xdg_dialogs_create(struct cordon_server *server);
void cordon_xdg_dialogs_destroy(struct cordon_xdg_dialogs *dialogs);

/* A mapped window modal over view (its xdg parent), the topmost; NULL if none. */
struct cordon_view *cordon_view_modal_child(struct cordon_view *view);
/* The window view is modal over, if it is a modal dialog; NULL otherwise. */
struct cordon_view *cordon_view_modal_parent(struct cordon_view *view);

#endif
