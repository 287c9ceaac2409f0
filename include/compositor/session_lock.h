/* The session lock (ext-session-lock-v1): a locker's surfaces over everything, input only to it. */
#ifndef CORDON_COMPOSITOR_SESSION_LOCK_H
#define CORDON_COMPOSITOR_SESSION_LOCK_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_seat;

struct cordon_session_lock {
	struct cordon_seat *seat;
	struct wlr_session_lock_manager_v1 *manager;
	/* While locked: the opaque backdrop and the locker's surfaces, above every layer. */
	struct wlr_scene_tree *tree;
	struct wlr_session_lock_v1 *lock; /* the locker's lock; NULL when unlocked or abandoned */
	bool locked; /* stays true when the locker dies without unlocking */
	struct wl_list surfaces; /* lock_surface.link */

	struct wl_listener new_lock;
	struct wl_listener new_surface;
	struct wl_listener unlock;
	struct wl_listener lock_destroy;
};

struct cordon_session_lock *cordon_session_lock_create(struct cordon_seat *seat);
void cordon_session_lock_destroy(struct cordon_session_lock *session_lock);

#endif
