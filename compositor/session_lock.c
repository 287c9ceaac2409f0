/*
 * The session lock (ext-session-lock-v1, swaylock): once a locker asks, an opaque backdrop
 * goes over every layer at once, the locker's surfaces over it, one per output, and only
 * the locker gets input (seat.c). A second locker is refused while one holds the lock. A
 * locker that dies without unlocking leaves the session locked: the backdrop stays, no
 * app gets input, and a new locker may take over (docs/security.md). Host-only global.
 */
#include "compositor/session_lock.h"

#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_session_lock_v1.h>
#include <wlr/util/log.h>

#include "compositor/seat.h"
#include "compositor/server.h"

/*
 * Larger than any output layout (outputs are placed from 0,0 on): the backdrop covers every
 * output, present and to come. Kept within 16 bits, which pixman's rectangles take.
 */
#define BACKDROP_EXTENT 32767
#define BACKDROP_ORIGIN (-8192)

struct lock_surface {
	struct cordon_session_lock *session_lock;
	struct wlr_session_lock_surface_v1 *wlr_surface;
	struct wlr_scene_tree *tree;
	struct wl_list link; /* cordon_session_lock.surfaces */
	struct wl_listener destroy;
};

static void lock_surface_free(struct lock_surface *surface) {
	wl_list_remove(&surface->destroy.link);
	wl_list_remove(&surface->link);
	free(surface);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct lock_surface *surface = wl_container_of(listener, surface, destroy);
	struct cordon_session_lock *session_lock = surface->session_lock;
	struct wlr_surface *wlr_surface = surface->wlr_surface->surface;
	struct wlr_seat *wlr_seat = session_lock->seat->wlr_seat;
	/* The scene's subsurface tree goes with the surface itself. */
	lock_surface_free(surface);
	if (wlr_seat->keyboard_state.focused_surface == wlr_surface) {
		struct lock_surface *next;
		wl_list_for_each(next, &session_lock->surfaces, link) {
			cordon_seat_focus_surface(session_lock->seat, next->wlr_surface->surface);
			break;
		}
	}
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, new_surface);
	struct wlr_session_lock_surface_v1 *wlr_surface = data;
	struct cordon_server *server = session_lock->seat->server;
	struct lock_surface *surface = calloc(1, sizeof(*surface));
	if (!surface) {
		wl_resource_post_no_memory(wlr_surface->resource);
		return;
	}
	surface->tree = wlr_scene_subsurface_tree_create(session_lock->tree, wlr_surface->surface);
	if (!surface->tree) {
		free(surface);
		wl_resource_post_no_memory(wlr_surface->resource);
		return;
	}
	surface->session_lock = session_lock;
	surface->wlr_surface = wlr_surface;
	surface->destroy.notify = handle_surface_destroy;
	wl_signal_add(&wlr_surface->events.destroy, &surface->destroy);
	wl_list_insert(&session_lock->surfaces, &surface->link);

	struct wlr_box box;
	wlr_output_layout_get_box(server->output_layout, wlr_surface->output, &box);
	wlr_scene_node_set_position(&surface->tree->node, box.x, box.y);
	wlr_session_lock_surface_v1_configure(wlr_surface, box.width, box.height);
	/* The first surface takes the keyboard; the pointer finds whichever is under it. */
	if (!session_lock->seat->wlr_seat->keyboard_state.focused_surface) {
		cordon_seat_focus_surface(session_lock->seat, wlr_surface->surface);
	}
	cordon_seat_update_pointer_focus(session_lock->seat, 0);
}

static void forget_lock(struct cordon_session_lock *session_lock) {
	wl_list_remove(&session_lock->new_surface.link);
	wl_list_init(&session_lock->new_surface.link);
	wl_list_remove(&session_lock->unlock.link);
	wl_list_init(&session_lock->unlock.link);
	wl_list_remove(&session_lock->lock_destroy.link);
	wl_list_init(&session_lock->lock_destroy.link);
	session_lock->lock = NULL;
}

static void handle_unlock(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock = wl_container_of(listener, session_lock, unlock);
	forget_lock(session_lock);
	struct lock_surface *surface, *tmp;
	wl_list_for_each_safe(surface, tmp, &session_lock->surfaces, link) {
		lock_surface_free(surface);
	}
	wlr_scene_node_destroy(&session_lock->tree->node);
	session_lock->tree = NULL;
	session_lock->locked = false;
	wlr_log(WLR_INFO, "Session unlocked");
	cordon_seat_set_lock(session_lock->seat, false, NULL);
}

/* The locker went without unlocking (it crashed, or was killed): the session stays locked. */
static void handle_lock_destroy(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, lock_destroy);
	forget_lock(session_lock);
	wlr_log(WLR_ERROR, "The session locker went away without unlocking: the session stays "
			   "locked until another locker unlocks it");
	cordon_seat_set_lock(session_lock->seat, true, NULL);
}

static void handle_new_lock(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, new_lock);
	struct wlr_session_lock_v1 *lock = data;
	if (session_lock->lock) {
		wlr_log(WLR_ERROR, "Refusing a second session locker: the session is locked already");
		wlr_session_lock_v1_destroy(lock);
		return;
	}
	struct cordon_server *server = session_lock->seat->server;
	if (!session_lock->tree) {
		/* Above every layer, the dialogs' included: nothing of the session shows. */
		session_lock->tree = wlr_scene_tree_create(&server->scene->tree);
		float black[4] = {0, 0, 0, 1};
		struct wlr_scene_rect *backdrop = session_lock->tree
			? wlr_scene_rect_create(session_lock->tree, BACKDROP_EXTENT, BACKDROP_EXTENT, black)
			: NULL;
		if (!backdrop) {
			if (session_lock->tree) {
				wlr_scene_node_destroy(&session_lock->tree->node);
				session_lock->tree = NULL;
			}
			wl_resource_post_no_memory(lock->resource);
			return;
		}
		wlr_scene_node_set_position(&backdrop->node, BACKDROP_ORIGIN, BACKDROP_ORIGIN);
	}
	session_lock->lock = lock;
	session_lock->locked = true;
	session_lock->new_surface.notify = handle_new_surface;
	wl_signal_add(&lock->events.new_surface, &session_lock->new_surface);
	session_lock->unlock.notify = handle_unlock;
	wl_signal_add(&lock->events.unlock, &session_lock->unlock);
	session_lock->lock_destroy.notify = handle_lock_destroy;
	wl_signal_add(&lock->events.destroy, &session_lock->lock_destroy);
	cordon_seat_set_lock(session_lock->seat, true, wl_resource_get_client(lock->resource));
	/* The backdrop hides the session from the next frame on. */
	wlr_session_lock_v1_send_locked(lock);
	wlr_log(WLR_INFO, "Session locked");
}

struct cordon_session_lock *cordon_session_lock_create(struct cordon_seat *seat) {
	struct cordon_session_lock *session_lock = calloc(1, sizeof(*session_lock));
	if (!session_lock) {
		return NULL;
	}
	session_lock->seat = seat;
	session_lock->manager = wlr_session_lock_manager_v1_create(seat->server->display);
	if (!session_lock->manager) {
		free(session_lock);
		return NULL;
	}
	wl_list_init(&session_lock->surfaces);
	wl_list_init(&session_lock->new_surface.link);
	wl_list_init(&session_lock->unlock.link);
	wl_list_init(&session_lock->lock_destroy.link);
	session_lock->new_lock.notify = handle_new_lock;
	wl_signal_add(&session_lock->manager->events.new_lock, &session_lock->new_lock);
	return session_lock;
}

void cordon_session_lock_destroy(struct cordon_session_lock *session_lock) {
	if (!session_lock) {
		return;
	}
	wl_list_remove(&session_lock->new_lock.link);
	forget_lock(session_lock);
	struct lock_surface *surface, *tmp;
	wl_list_for_each_safe(surface, tmp, &session_lock->surfaces, link) {
		lock_surface_free(surface);
	}
	/* The scene tree goes with the scene. */
	free(session_lock);
}
