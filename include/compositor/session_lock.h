/* The session lock (ext-session-lock-v1): a locker covers every output and alone gets input. */
#ifndef CORDON_COMPOSITOR_SESSION_LOCK_H
#define CORDON_COMPOSITOR_SESSION_LOCK_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct cordon_seat;
struct cordon_server;

struct cordon_session_lock {
	struct cordon_seat *seat; /* whose lock it sets (cordon_seat_set_lock) */
	struct cordon_server *server;
	struct wlr_session_lock_manager_v1 *manager;
	/* Raised above every other tree, the portal dialogs' included, when a lock begins. */
	struct wlr_scene_tree *tree;
	bool locked;
	/* The live lock object; NULL while unlocked and while locked by a locker that died. */
	struct wlr_session_lock_v1 *lock;
	struct wl_list outputs; /* lock_output.link: one cover per output while locked */
	/* The scene root's other trees, disabled while locked (struct wlr_scene_node *). */
	struct wl_array hidden_trees;

	struct wl_listener new_lock;
	struct wl_listener manager_destroy;
	struct wl_listener layout_add;
	struct wl_listener layout_change;
	/* On LOCK, while it lives. */
	struct wl_listener new_surface;
	struct wl_listener unlock;
	struct wl_listener lock_destroy;
};

struct cordon_session_lock *cordon_session_lock_create(struct cordon_seat *seat);
void cordon_session_lock_destroy(struct cordon_session_lock *session_lock);

/* Whether the session is locked (also while no locker is alive). */
bool cordon_session_lock_is_locked(const struct cordon_session_lock *session_lock);

#endif
