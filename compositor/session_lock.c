/*
 * The session lock (ext-session-lock-v1), as swaylock uses it. From the moment a lock is
 * accepted every output is covered by an opaque fill above every other layer, cordon's own
 * portal dialogs included, and the seat gives input to the locker's surfaces only (seat.c,
 * input_router.c). The locker draws its surfaces over the fill. Only the locker's
 * unlock_and_destroy ends the lock: a locker that dies, however it dies, leaves the session
 * locked behind a fill of another colour, and a new locker may then take over. While a live
 * locker holds the lock, a second lock is refused (finished), as the protocol asks.
 */
#include "compositor/session_lock.h"

#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_session_lock_v1.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>

#include "compositor/global_filter.h"
#include "compositor/seat.h"
#include "compositor/server.h"

/*
 * What each output shows under the locker's surface while locked: before the locker has
 * drawn, and for good once it has died (a colour of its own, so the user knows to start a
 * new locker from another terminal or VT).
 */
static const float fill_color[4] = {0.1f, 0.1f, 0.1f, 1.0f};
static const float abandoned_color[4] = {0.4f, 0.0f, 0.0f, 1.0f};

/* One output's cover while locked: the fill, and the locker's surface over it. */
struct lock_output {
	struct cordon_session_lock *session_lock;
	struct wlr_output *output;
	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *fill;
	struct wlr_session_lock_surface_v1 *surface; /* NULL: the locker gave it none (yet) */
	struct wlr_scene_tree *surface_tree;
	int configured_width, configured_height;
	struct wl_list link; /* cordon_session_lock.outputs */

	struct wl_listener output_destroy;
	/* On SURFACE, while it is set. */
	struct wl_listener surface_destroy;
	struct wl_listener surface_map;
};

static struct cordon_seat *seat_of(struct cordon_session_lock *session_lock) {
	return session_lock->seat;
}

static void set_fill_color(struct cordon_session_lock *session_lock, const float color[4]) {
	struct lock_output *lock_output;
	wl_list_for_each(lock_output, &session_lock->outputs, link) {
		wlr_scene_rect_set_color(lock_output->fill, color);
	}
}

/* Places the cover where the output is in the layout and tells the locker its size. */
static void arrange_output(struct lock_output *lock_output) {
	struct wlr_box box;
	wlr_output_layout_get_box(
		lock_output->session_lock->server->output_layout, lock_output->output, &box);
	if (wlr_box_empty(&box)) {
		/* Not in the layout (disabled): nothing of it is shown. */
		wlr_scene_node_set_enabled(&lock_output->tree->node, false);
		return;
	}
	wlr_scene_node_set_enabled(&lock_output->tree->node, true);
	wlr_scene_node_set_position(&lock_output->tree->node, box.x, box.y);
	wlr_scene_rect_set_size(lock_output->fill, box.width, box.height);
	if (lock_output->surface &&
		(box.width != lock_output->configured_width ||
			box.height != lock_output->configured_height)) {
		wlr_session_lock_surface_v1_configure(
			lock_output->surface, (uint32_t)box.width, (uint32_t)box.height);
		lock_output->configured_width = box.width;
		lock_output->configured_height = box.height;
	}
}

/* The keyboard goes to a lock surface the user can see; to none while there is none. */
static void focus_some_surface(struct cordon_session_lock *session_lock) {
	struct cordon_seat *seat = seat_of(session_lock);
	struct wlr_surface *focused = seat->wlr_seat->keyboard_state.focused_surface;
	struct lock_output *lock_output;
	wl_list_for_each(lock_output, &session_lock->outputs, link) {
		if (lock_output->surface && lock_output->surface->surface == focused) {
			return;
		}
	}
	wl_list_for_each(lock_output, &session_lock->outputs, link) {
		if (lock_output->surface && lock_output->surface->surface->mapped) {
			cordon_seat_focus_surface(seat, lock_output->surface->surface);
			return;
		}
	}
	cordon_seat_focus_surface(seat, NULL);
}

static void forget_surface(struct lock_output *lock_output) {
	if (!lock_output->surface) {
		return;
	}
	wl_list_remove(&lock_output->surface_destroy.link);
	wl_list_remove(&lock_output->surface_map.link);
	wlr_scene_node_destroy(&lock_output->surface_tree->node);
	lock_output->surface = NULL;
	lock_output->surface_tree = NULL;
	lock_output->configured_width = lock_output->configured_height = 0;
}

static void handle_surface_map(struct wl_listener *listener, void *data) {
	struct lock_output *lock_output = wl_container_of(listener, lock_output, surface_map);
	struct cordon_session_lock *session_lock = lock_output->session_lock;
	focus_some_surface(session_lock);
	/* The pointer enters the locker's surface where it already is. */
	cordon_seat_update_pointer_focus(seat_of(session_lock), 0);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct lock_output *lock_output = wl_container_of(listener, lock_output, surface_destroy);
	struct cordon_session_lock *session_lock = lock_output->session_lock;
	forget_surface(lock_output);
	focus_some_surface(session_lock);
	cordon_seat_update_pointer_focus(seat_of(session_lock), 0);
}

static void destroy_output(struct lock_output *lock_output) {
	forget_surface(lock_output);
	wl_list_remove(&lock_output->output_destroy.link);
	wl_list_remove(&lock_output->link);
	wlr_scene_node_destroy(&lock_output->tree->node);
	free(lock_output);
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct lock_output *lock_output = wl_container_of(listener, lock_output, output_destroy);
	struct cordon_session_lock *session_lock = lock_output->session_lock;
	destroy_output(lock_output);
	focus_some_surface(session_lock);
}

static struct lock_output *find_output(
	struct cordon_session_lock *session_lock, struct wlr_output *output) {
	struct lock_output *lock_output;
	wl_list_for_each(lock_output, &session_lock->outputs, link) {
		if (lock_output->output == output) {
			return lock_output;
		}
	}
	return NULL;
}

/*
 * Covers OUTPUT. An output that cannot be covered would show the session to whoever sits
 * in front of it: like sway, cordon ends rather than run locked with a hole in the lock.
 */
static struct lock_output *cover_output(
	struct cordon_session_lock *session_lock, struct wlr_output *output) {
	struct lock_output *lock_output = find_output(session_lock, output);
	if (lock_output) {
		return lock_output;
	}
	lock_output = calloc(1, sizeof(*lock_output));
	const float *color = session_lock->lock ? fill_color : abandoned_color;
	struct wlr_scene_tree *tree =
		lock_output ? wlr_scene_tree_create(session_lock->tree) : NULL;
	struct wlr_scene_rect *fill = tree ? wlr_scene_rect_create(tree, 0, 0, color) : NULL;
	if (!fill) {
		wlr_log(WLR_ERROR, "Cannot cover output %s with the session lock: exiting",
			output->name);
		abort();
	}
	lock_output->session_lock = session_lock;
	lock_output->output = output;
	lock_output->tree = tree;
	lock_output->fill = fill;
	lock_output->output_destroy.notify = handle_output_destroy;
	wl_signal_add(&output->events.destroy, &lock_output->output_destroy);
	wl_list_insert(session_lock->outputs.prev, &lock_output->link);
	arrange_output(lock_output);
	return lock_output;
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, new_surface);
	struct wlr_session_lock_surface_v1 *surface = data;
	/* wlroots refuses a second surface for one output (duplicate_output). */
	struct lock_output *lock_output = cover_output(session_lock, surface->output);
	forget_surface(lock_output);
	lock_output->surface_tree =
		wlr_scene_subsurface_tree_create(lock_output->tree, surface->surface);
	if (!lock_output->surface_tree) {
		/* The fill stays: locked, only without the locker's face on this output. */
		wl_client_post_no_memory(wl_resource_get_client(surface->resource));
		return;
	}
	lock_output->surface = surface;
	lock_output->surface_destroy.notify = handle_surface_destroy;
	wl_signal_add(&surface->events.destroy, &lock_output->surface_destroy);
	lock_output->surface_map.notify = handle_surface_map;
	wl_signal_add(&surface->surface->events.map, &lock_output->surface_map);
	arrange_output(lock_output);
	/* Not in the layout: configured with the output's own size, and not shown. */
	if (lock_output->configured_width == 0) {
		int width, height;
		wlr_output_effective_resolution(surface->output, &width, &height);
		wlr_session_lock_surface_v1_configure(surface, (uint32_t)width, (uint32_t)height);
	}
}

/*
 * Besides the cover, every other tree of the scene (the layers with the apps, the portal
 * dialogs) is disabled while locked: what renders the scene elsewhere than on an output
 * (a capture of one window renders the scene at the window's place, which may be off every
 * output, where no cover is) finds nothing of the session either.
 */
static void hide_session(struct cordon_session_lock *session_lock) {
	struct wlr_scene_node *node;
	wl_list_for_each(node, &session_lock->server->scene->tree.children, link) {
		if (node == &session_lock->tree->node || !node->enabled) {
			continue;
		}
		struct wlr_scene_node **slot =
			wl_array_add(&session_lock->hidden_trees, sizeof(*slot));
		if (!slot) {
			wlr_log(WLR_ERROR, "Cannot hide the session under the lock: exiting");
			abort();
		}
		*slot = node;
		wlr_scene_node_set_enabled(node, false);
	}
}

/* Enables again what hide_session disabled and is still in the scene. */
static void show_session(struct cordon_session_lock *session_lock) {
	struct wlr_scene_node *node, **hidden;
	wl_list_for_each(node, &session_lock->server->scene->tree.children, link) {
		wl_array_for_each(hidden, &session_lock->hidden_trees) {
			if (*hidden == node) {
				wlr_scene_node_set_enabled(node, true);
			}
		}
	}
	wl_array_release(&session_lock->hidden_trees);
	wl_array_init(&session_lock->hidden_trees);
}

static void forget_lock(struct cordon_session_lock *session_lock) {
	wl_list_remove(&session_lock->new_surface.link);
	wl_list_remove(&session_lock->unlock.link);
	wl_list_remove(&session_lock->lock_destroy.link);
	session_lock->lock = NULL;
}

static void handle_unlock(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock = wl_container_of(listener, session_lock, unlock);
	forget_lock(session_lock);
	session_lock->locked = false;
	struct lock_output *lock_output, *tmp;
	wl_list_for_each_safe(lock_output, tmp, &session_lock->outputs, link) {
		destroy_output(lock_output);
	}
	wlr_scene_node_set_enabled(&session_lock->tree->node, false);
	show_session(session_lock);
	cordon_seat_set_lock(seat_of(session_lock), false, NULL);
	wlr_log(WLR_INFO, "Session unlocked by its locker");
}

/* The lock object went without unlock_and_destroy: its client died or disconnected. */
static void handle_lock_destroy(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, lock_destroy);
	forget_lock(session_lock);
	set_fill_color(session_lock, abandoned_color);
	cordon_seat_set_lock(seat_of(session_lock), true, NULL);
	wlr_log(WLR_ERROR,
		"The session locker went away without unlocking: the session "
		"stays locked until a new locker unlocks it");
}

static bool may_lock(struct cordon_session_lock *session_lock, struct wl_client *client) {
	/*
	 * Host-only unless an app's policy grants it by name: a sandboxed client that was not
	 * granted it has no business locking (it could not have bound the global).
	 */
	if (!cordon_global_visible(client, session_lock->manager->global)) {
		wlr_log(WLR_ERROR, "Refusing a session lock: a sandboxed app without the grant");
		return false;
	}
	if (session_lock->lock) {
		wlr_log(WLR_ERROR,
			"Refusing a second session locker: the session is locked by a live "
			"locker");
		return false;
	}
	return true;
}

static void handle_new_lock(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, new_lock);
	struct wlr_session_lock_v1 *lock = data;
	struct wl_client *client = wl_resource_get_client(lock->resource);
	if (!may_lock(session_lock, client)) {
		/* The locker is sent finished: it must not believe it locked anything. */
		wlr_session_lock_v1_destroy(lock);
		return;
	}
	bool taking_over = session_lock->locked;
	session_lock->lock = lock;
	session_lock->locked = true;
	session_lock->new_surface.notify = handle_new_surface;
	wl_signal_add(&lock->events.new_surface, &session_lock->new_surface);
	session_lock->unlock.notify = handle_unlock;
	wl_signal_add(&lock->events.unlock, &session_lock->unlock);
	session_lock->lock_destroy.notify = handle_lock_destroy;
	wl_signal_add(&lock->events.destroy, &session_lock->lock_destroy);

	/* Covered before the locker hears it is locked: nothing of the session shows after. */
	wlr_scene_node_raise_to_top(&session_lock->tree->node);
	wlr_scene_node_set_enabled(&session_lock->tree->node, true);
	if (!taking_over) {
		hide_session(session_lock);
	}
	struct wlr_output_layout_output *layout_output;
	wl_list_for_each(layout_output, &session_lock->server->output_layout->outputs, link) {
		cover_output(session_lock, layout_output->output);
	}
	set_fill_color(session_lock, fill_color);
	cordon_seat_set_lock(seat_of(session_lock), true, client);
	wlr_session_lock_v1_send_locked(lock);
	pid_t pid = 0;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	wlr_log(WLR_INFO, "Session locked by pid %d%s", (int)pid,
		taking_over ? " (taking over from a locker that died)" : "");
}

static void handle_layout_add(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, layout_add);
	struct wlr_output_layout_output *layout_output = data;
	/* A screen plugged in while locked is covered before its first frame. */
	if (session_lock->locked) {
		cover_output(session_lock, layout_output->output);
	}
}

static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, layout_change);
	struct lock_output *lock_output;
	wl_list_for_each(lock_output, &session_lock->outputs, link) {
		arrange_output(lock_output);
	}
}

static void stop_listening(struct cordon_session_lock *session_lock) {
	wl_list_remove(&session_lock->new_lock.link);
	wl_list_init(&session_lock->new_lock.link);
	wl_list_remove(&session_lock->manager_destroy.link);
	wl_list_init(&session_lock->manager_destroy.link);
	session_lock->manager = NULL;
}

/* The display goes: wlroots destroys the manager, and wants no listener left on it. */
static void handle_manager_destroy(struct wl_listener *listener, void *data) {
	struct cordon_session_lock *session_lock =
		wl_container_of(listener, session_lock, manager_destroy);
	stop_listening(session_lock);
}

struct cordon_session_lock *cordon_session_lock_create(struct cordon_seat *seat) {
	struct cordon_session_lock *session_lock = calloc(1, sizeof(*session_lock));
	if (!session_lock) {
		return NULL;
	}
	struct cordon_server *server = seat->server;
	session_lock->seat = seat;
	session_lock->server = server;
	wl_list_init(&session_lock->outputs);
	wl_array_init(&session_lock->hidden_trees);
	session_lock->manager = wlr_session_lock_manager_v1_create(server->display);
	/* Disabled until a lock begins; then raised above every other tree (handle_new_lock). */
	session_lock->tree = wlr_scene_tree_create(&server->scene->tree);
	if (!session_lock->manager || !session_lock->tree) {
		if (session_lock->tree) {
			wlr_scene_node_destroy(&session_lock->tree->node);
		}
		free(session_lock);
		return NULL;
	}
	wlr_scene_node_set_enabled(&session_lock->tree->node, false);
	session_lock->new_lock.notify = handle_new_lock;
	wl_signal_add(&session_lock->manager->events.new_lock, &session_lock->new_lock);
	session_lock->manager_destroy.notify = handle_manager_destroy;
	wl_signal_add(&session_lock->manager->events.destroy, &session_lock->manager_destroy);
	session_lock->layout_add.notify = handle_layout_add;
	wl_signal_add(&server->output_layout->events.add, &session_lock->layout_add);
	session_lock->layout_change.notify = handle_layout_change;
	wl_signal_add(&server->output_layout->events.change, &session_lock->layout_change);
	return session_lock;
}

void cordon_session_lock_destroy(struct cordon_session_lock *session_lock) {
	if (!session_lock) {
		return;
	}
	if (session_lock->lock) {
		forget_lock(session_lock);
	}
	struct lock_output *lock_output, *tmp;
	wl_list_for_each_safe(lock_output, tmp, &session_lock->outputs, link) {
		destroy_output(lock_output);
	}
	stop_listening(session_lock);
	wl_list_remove(&session_lock->layout_add.link);
	wl_list_remove(&session_lock->layout_change.link);
	wlr_scene_node_destroy(&session_lock->tree->node);
	wl_array_release(&session_lock->hidden_trees);
	free(session_lock);
}

bool cordon_session_lock_is_locked(const struct cordon_session_lock *session_lock) {
	return session_lock && session_lock->locked;
}
