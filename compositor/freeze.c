/*
 * Freezing and boosting apps through their cgroups (docs/freeze.md).
 *
 * An app (compositor/apps.c) whose toplevels are all minimized or unmapped for the configured
 * delay is frozen by writing 1 to its cgroup.freeze; the kernel confirms with "frozen 1" in
 * cgroup.events. A frozen client cannot read its socket, and libwayland 1.21 disconnects a
 * client whose 4 KiB output buffer fills: so while an app is frozen (or still freezing) its
 * clients get no input, no pointer or keyboard focus and no frame callbacks, and it is thawed
 * before anything must reach it again (activation, cordon_freeze_wake).
 *
 * The focused app's cgroup gets a higher cpu.weight, put back when it loses focus. Where the
 * cpu controller is not enabled for the cgroup (cgroup v1 controllers beside a v2 hierarchy),
 * cpu.weight does not exist: that is logged once and boosting is skipped.
 */
#include "compositor/freeze.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "common/format.h"
#include "common/policy.h"
#include "compositor/apps.h"
#include "compositor/config.h"
#include "compositor/globals.h"
#include "compositor/idle_inhibit.h"
#include "compositor/layer_shell.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

/* cgroup.events is polled this often after a freeze, for at most this many times (5 s). */
#define CONFIRM_INTERVAL_MS 10
#define CONFIRM_TRIES 500

/* cgroup files */

static bool write_file(int dirfd, const char *name, const char *value) {
	int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return false;
	}
	size_t len = strlen(value);
	ssize_t n = write(fd, value, len);
	int saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)len;
}

static bool read_file(int dirfd, const char *name, char *buf, size_t size) {
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return false;
	}
	ssize_t n = read(fd, buf, size - 1);
	int saved = errno;
	close(fd);
	errno = saved;
	if (n < 0) {
		return false;
	}
	buf[n] = '\0';
	return true;
}

static bool cgroup_reports_frozen(struct cordon_app *app) {
	char events[256];
	if (!read_file(app->cgroup_fd, "cgroup.events", events, sizeof(events))) {
		return false;
	}
	const char *line = strstr(events, "frozen ");
	return line && (line == events || line[-1] == '\n') && line[7] == '1';
}

static const char *app_name(struct cordon_app *app, char *buf, size_t size) {
	cordon_app_describe(app, buf, size);
	return buf;
}

#define APP_NAME_MAX (CORDON_TAG_APP_ID_MAX + CORDON_TAG_INSTANCE_MAX + 32)

/* What the policy looks at */

static bool usable_cgroup(struct cordon_app *app) {
	return app->cgroup_fd >= 0 && !app->holds_compositor;
}

/* The app's id for policy lookups: the tag's, never what a window says; NULL for none. */
static const char *policy_app_id(struct cordon_app *app) {
	return app->tag.app_id[0] != '\0' ? app->tag.app_id : NULL;
}

/*
 * The per-app policy (policy.ini: the app's section, its profile, the default profile)
 * wins over the compositor config's [freeze] section, which gives the defaults.
 */
bool cordon_freeze_policy_enabled(struct cordon_app_freeze *state) {
	struct cordon_server *server = state->freeze->server;
	struct cordon_app *app = state->app;
	bool enabled =
		app->tag.sandboxed ? server->config->freeze_sandboxed : server->config->freeze_host;
	if (server->policy) {
		enabled = cordon_policy_get_bool(
			server->policy, policy_app_id(app), NULL, "freeze", enabled);
	}
	return enabled && usable_cgroup(app);
}

static uint32_t delay_ms(struct cordon_app_freeze *state) {
	struct cordon_server *server = state->freeze->server;
	uint64_t delay = server->config->freeze_delay_ms;
	if (server->policy) {
		delay = cordon_policy_get_duration_ms(
			server->policy, policy_app_id(state->app), NULL, "freeze-delay", delay);
	}
	/* A timer takes an int; a day is more than anyone means. */
	return delay > 86400000 ? 86400000 : (uint32_t)delay;
}

static uint32_t boost_weight(struct cordon_freeze *freeze, struct cordon_app *app) {
	struct cordon_server *server = freeze->server;
	uint64_t weight = server->config->boost_weight;
	if (server->policy) {
		weight = cordon_policy_get_uint(
			server->policy, policy_app_id(app), NULL, "boost-weight", weight);
	}
	/* cpu.weight takes 1 to 10000. */
	return weight > 10000 ? 10000 : (uint32_t)weight;
}

static struct wl_client *view_client(struct cordon_view *view) {
	return view->client;
}

/* No toplevel of the app is on screen. Also notes whether it ever mapped one. */
/*
 * A layer surface of the app shown on an enabled output: the app is drawing to a visible
 * output (a panel, a widget, an overlay), whatever its toplevels do.
 */
static bool app_shows_layer_surface(struct cordon_app_freeze *state) {
	struct cordon_output *output;
	wl_list_for_each(output, &state->freeze->server->outputs, link) {
		if (!output->wlr_output->enabled) {
			continue;
		}
		struct cordon_layer_surface *layer;
		wl_list_for_each(layer, &output->layer_surfaces, link) {
			/* The node, not wlr's mapped flag, which is still set during unmap. */
			struct wlr_layer_surface_v1 *surface = layer->wlr_layer_surface;
			if (layer->tree->node.enabled &&
				cordon_app_has_client(
					state->app, wl_resource_get_client(surface->resource))) {
				return true;
			}
		}
	}
	return false;
}

static bool app_hidden(struct cordon_app_freeze *state) {
	struct cordon_server *server = state->freeze->server;
	bool hidden = true;
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || !cordon_app_has_client(state->app, view_client(view))) {
			continue;
		}
		state->ever_mapped = true;
		if (!view->minimized) {
			hidden = false;
		}
	}
	return hidden && !app_shows_layer_surface(state);
}

/*
 * An app playing a video keeps running; an inhibitor on a surface that is not shown (no
 * role, never mapped, minimized, covered) keeps nothing awake, or any app could exempt
 * itself from freezing with one (idle_inhibit.c decides what is shown).
 */
static bool app_inhibits_idle(struct cordon_app_freeze *state) {
	struct cordon_idle_inhibitor *inhibitor;
	wl_list_for_each(
		inhibitor, &state->freeze->server->globals->idle_inhibit->inhibitors, link) {
		if (inhibitor->visible &&
			cordon_app_has_client(state->app,
				wl_resource_get_client(inhibitor->wlr_inhibitor->resource))) {
			return true;
		}
	}
	return false;
}

/*
 * An app that never mapped a toplevel is still starting (or is a clipboard-only tool): frozen,
 * it could never show its first window, so the policy leaves it alone.
 */
static bool should_freeze(struct cordon_app_freeze *state) {
	bool hidden = app_hidden(state);
	return cordon_freeze_policy_enabled(state) && state->ever_mapped && hidden &&
		!app_inhibits_idle(state);
}

static void set_delay(struct cordon_app_freeze *state, bool armed) {
	if (armed == state->delay_armed) {
		return;
	}
	uint32_t delay = delay_ms(state);
	/* A zero timeout disarms a timer: the shortest delay is one millisecond. */
	wl_event_source_timer_update(state->delay_timer, armed ? (int)(delay ? delay : 1) : 0);
	state->delay_armed = armed;
}

static void evaluate(struct cordon_app_freeze *state) {
	if (state->state != CORDON_THAWED) {
		return;
	}
	set_delay(state, should_freeze(state));
}

/* Input: what a frozen app must not be sent */

static void drop_input(struct cordon_app_freeze *state) {
	struct cordon_server *server = state->freeze->server;
	struct cordon_seat *seat = server->seat;
	struct cordon_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (cordon_app_has_client(state->app, view_client(view))) {
			cordon_seat_end_grab(seat, view);
		}
	}
	struct wlr_seat_client *keyboard = seat->wlr_seat->keyboard_state.focused_client;
	if (keyboard && cordon_app_has_client(state->app, keyboard->client)) {
		wlr_seat_keyboard_notify_clear_focus(seat->wlr_seat);
	}
	/* seat.c refuses pointer focus to a frozen client: this sends it its leave. */
	cordon_seat_update_pointer_focus(seat, 0);
}

static void restore_input(struct cordon_app_freeze *state) {
	struct cordon_seat *seat = state->freeze->server->seat;
	struct cordon_view *focused = seat->focused_view;
	/* It kept the focused view while frozen: give that view its keyboard back. */
	if (focused && cordon_app_has_client(state->app, view_client(focused)) &&
		seat->wlr_seat->keyboard_state.focused_surface != focused->surface) {
		cordon_seat_focus_surface(seat, focused->surface);
	}
	cordon_seat_update_pointer_focus(seat, 0);
}

/* Freeze and thaw */

static void set_state(struct cordon_app_freeze *state, enum cordon_freeze_state new_state) {
	state->state = new_state;
	clock_gettime(CLOCK_REALTIME, &state->state_since);
}

static int handle_confirm_timer(void *data) {
	struct cordon_app_freeze *state = data;
	char name[APP_NAME_MAX];
	if (state->state != CORDON_FREEZING) {
		return 0;
	}
	if (cgroup_reports_frozen(state->app)) {
		set_state(state, CORDON_FROZEN);
		wlr_log(WLR_INFO, "App %s is frozen",
			cordon_log_text(app_name(state->app, name, sizeof(name))));
		return 0;
	}
	if (++state->confirm_tries >= CONFIRM_TRIES) {
		/* Still treated as frozen: it may stop reading at any moment. */
		wlr_log(WLR_ERROR, "App %s: cgroup.events never said frozen 1",
			cordon_log_text(app_name(state->app, name, sizeof(name))));
		return 0;
	}
	wl_event_source_timer_update(state->confirm_timer, CONFIRM_INTERVAL_MS);
	return 0;
}

static bool freeze_app(struct cordon_app_freeze *state, const char *reason, char **error) {
	struct cordon_app *app = state->app;
	char name[APP_NAME_MAX];
	app_name(app, name, sizeof(name));
	if (state->state != CORDON_THAWED) {
		return true;
	}
	if (app->holds_compositor) {
		*error = cordon_format(
			"app %s: cordon itself runs in its cgroup %s", name, app->cgroup);
		return false;
	}
	if (app->cgroup_fd < 0) {
		*error = cordon_format("app %s: its cgroup %s cannot be opened", name, app->cgroup);
		return false;
	}
	/* Input stops first: from here on the app may stop reading at any time. */
	set_delay(state, false);
	set_state(state, CORDON_FREEZING);
	drop_input(state);
	if (!write_file(app->cgroup_fd, "cgroup.freeze", "1")) {
		int saved = errno;
		set_state(state, CORDON_THAWED);
		restore_input(state);
		*error = cordon_format("app %s: cannot write %s/cgroup.freeze: %s", name,
			app->cgroup, strerror(saved));
		return false;
	}
	wlr_log(WLR_INFO, "Freezing app %s (%s): %s", cordon_log_text(name),
		cordon_log_text(app->cgroup), reason);
	state->confirm_tries = 0;
	handle_confirm_timer(state);
	return true;
}

bool cordon_freeze_app(struct cordon_app_freeze *state, char **error) {
	bool was_thawed = state->state == CORDON_THAWED;
	if (!freeze_app(state, "cordonctl freeze", error)) {
		return false;
	}
	if (was_thawed) {
		state->manual = true;
	}
	return true;
}

bool cordon_thaw_app(struct cordon_app_freeze *state, const char *reason) {
	struct cordon_app *app = state->app;
	char name[APP_NAME_MAX];
	app_name(app, name, sizeof(name));
	if (state->state != CORDON_THAWED) {
		if (!write_file(app->cgroup_fd, "cgroup.freeze", "0")) {
			/* Still frozen, so still no input: stuck is better than disconnected. */
			wlr_log_errno(WLR_ERROR, "App %s: cannot write cgroup.freeze",
				cordon_log_text(name));
			return false;
		}
		wl_event_source_timer_update(state->confirm_timer, 0);
		set_state(state, CORDON_THAWED);
		state->manual = false;
		wlr_log(WLR_INFO, "Thawed app %s: %s", cordon_log_text(name), reason);
		restore_input(state);
	}
	/* The delay starts again from now. */
	set_delay(state, false);
	evaluate(state);
	return true;
}

static int handle_delay_timer(void *data) {
	struct cordon_app_freeze *state = data;
	state->delay_armed = false;
	if (state->state != CORDON_THAWED || !should_freeze(state)) {
		return 0;
	}
	char *error = NULL;
	if (!freeze_app(state, "hidden for the freeze delay", &error)) {
		wlr_log(WLR_ERROR, "%s", error);
		free(error);
	}
	return 0;
}

/* Boost */

static bool may_boost(struct cordon_freeze *freeze, struct cordon_app *app) {
	return app && boost_weight(freeze, app) > 0 && usable_cgroup(app);
}

static void unboost(struct cordon_freeze *freeze) {
	struct cordon_app *app = freeze->boosted;
	if (!app) {
		return;
	}
	freeze->boosted = NULL;
	app->freeze->boosted = false;
	if (!write_file(app->cgroup_fd, "cpu.weight", app->freeze->saved_weight)) {
		wlr_log_errno(
			WLR_DEBUG, "Cannot restore cpu.weight of %s", cordon_log_text(app->cgroup));
	}
}

static void boost(struct cordon_freeze *freeze, struct cordon_app *app) {
	char weight[32];
	if (!read_file(app->cgroup_fd, "cpu.weight", app->freeze->saved_weight,
		    sizeof(app->freeze->saved_weight))) {
		if (errno == ENOENT && !freeze->weight_missing_logged) {
			freeze->weight_missing_logged = true;
			wlr_log(WLR_INFO,
				"No cpu.weight in %s (the cpu controller is not enabled "
				"there, as with cgroup v1 controllers): focused apps are not boosted",
				app->cgroup);
		} else if (errno != ENOENT) {
			wlr_log_errno(WLR_ERROR, "Cannot read cpu.weight of %s", app->cgroup);
		}
		return;
	}
	app->freeze->saved_weight[strcspn(app->freeze->saved_weight, "\n")] = '\0';
	snprintf(weight, sizeof(weight), "%u", boost_weight(freeze, app));
	if (!write_file(app->cgroup_fd, "cpu.weight", weight)) {
		wlr_log_errno(WLR_ERROR, "Cannot write cpu.weight of %s", app->cgroup);
		return;
	}
	freeze->boosted = app;
	app->freeze->boosted = true;
	clock_gettime(CLOCK_REALTIME, &app->freeze->boosted_since);
}

static void update_boost(struct cordon_freeze *freeze) {
	struct cordon_view *focused = freeze->server->seat->focused_view;
	struct cordon_app *target =
		focused ? cordon_app_from_client(freeze->server->apps, view_client(focused)) : NULL;
	if (!may_boost(freeze, target)) {
		target = NULL;
	}
	if (target == freeze->boosted) {
		return;
	}
	unboost(freeze);
	if (target) {
		boost(freeze, target);
	}
}

/* Hooks */

static void freeze_update(struct cordon_freeze *freeze) {
	struct cordon_server *server = freeze->server;
	struct cordon_app *app;
	wl_list_for_each(app, &server->apps->apps, link) {
		if (app->freeze) {
			evaluate(app->freeze);
		}
	}
	update_boost(freeze);
}

static struct cordon_app_freeze *client_state(
	struct cordon_server *server, struct wl_client *client) {
	if (!server->freeze) {
		return NULL;
	}
	struct cordon_app *app = cordon_app_from_client(server->apps, client);
	return app ? app->freeze : NULL;
}

void cordon_freeze_wake(
	struct cordon_server *server, struct wl_client *client, const char *reason) {
	struct cordon_app_freeze *state = client_state(server, client);
	if (state) {
		cordon_thaw_app(state, reason);
	}
}

static void stop_wake_timing(struct cordon_app_freeze *state) {
	if (!state->wake_surface) {
		return;
	}
	wl_list_remove(&state->wake_commit.link);
	wl_list_remove(&state->wake_surface_destroy.link);
	state->wake_surface = NULL;
}

static void handle_wake_commit(struct wl_listener *listener, void *data) {
	struct cordon_app_freeze *state = wl_container_of(listener, state, wake_commit);
	if (!(state->wake_surface->current.committed & WLR_SURFACE_STATE_BUFFER)) {
		return;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	state->wake_frame_us = (int64_t)(now.tv_sec - state->wake_start.tv_sec) * 1000000 +
		(now.tv_nsec - state->wake_start.tv_nsec) / 1000;
	char name[APP_NAME_MAX];
	wlr_log(WLR_INFO, "App %s: first frame %.1f ms after the activation that thawed it",
		app_name(state->app, name, sizeof(name)), (double)state->wake_frame_us / 1000.0);
	stop_wake_timing(state);
}

static void handle_wake_surface_destroy(struct wl_listener *listener, void *data) {
	struct cordon_app_freeze *state = wl_container_of(listener, state, wake_surface_destroy);
	stop_wake_timing(state);
}

static void handle_visibility_changed(struct wl_listener *listener, void *data) {
	struct cordon_freeze *freeze = wl_container_of(listener, freeze, visibility_changed);
	freeze_update(freeze);
}

static void handle_view_activating(struct wl_listener *listener, void *data) {
	struct cordon_view *view = data;
	struct cordon_app_freeze *state = client_state(view->server, view_client(view));
	if (!state || state->state == CORDON_THAWED) {
		return;
	}
	stop_wake_timing(state);
	clock_gettime(CLOCK_MONOTONIC, &state->wake_start);
	state->wake_surface = view->surface;
	state->wake_commit.notify = handle_wake_commit;
	wl_signal_add(&state->wake_surface->events.commit, &state->wake_commit);
	state->wake_surface_destroy.notify = handle_wake_surface_destroy;
	wl_signal_add(&state->wake_surface->events.destroy, &state->wake_surface_destroy);
	cordon_thaw_app(state, "a window was activated");
}

bool cordon_freeze_client_is_frozen(struct cordon_server *server, struct wl_client *client) {
	struct cordon_app_freeze *state = client_state(server, client);
	return state && state->state != CORDON_THAWED;
}

/* As wlr_scene_output_send_frame_done, skipping frozen clients. */
static void send_frame_done(struct cordon_server *server, struct wlr_scene_node *node,
	struct wlr_scene_frame_done_event *event) {
	if (!node->enabled) {
		return;
	}
	if (node->type == WLR_SCENE_NODE_BUFFER) {
		struct wlr_scene_buffer *scene_buffer = wlr_scene_buffer_from_node(node);
		struct wlr_scene_surface *scene_surface =
			wlr_scene_surface_try_from_buffer(scene_buffer);
		if (scene_surface &&
			cordon_freeze_client_is_frozen(
				server, wl_resource_get_client(scene_surface->surface->resource))) {
			return;
		}
		/* wlroots sends it to a surface whose primary output this is. */
		wlr_scene_buffer_send_frame_done(scene_buffer, event);
		return;
	}
	if (node->type != WLR_SCENE_NODE_TREE) {
		return;
	}
	struct wlr_scene_node *child;
	wl_list_for_each(child, &wlr_scene_tree_from_node(node)->children, link) {
		send_frame_done(server, child, event);
	}
}

void cordon_freeze_send_frame_done(
	struct cordon_server *server, struct wlr_scene_output *scene_output, struct timespec *now) {
	struct wlr_scene_frame_done_event event = {
		.output = scene_output,
		.when = *now,
	};
	send_frame_done(server, &scene_output->scene->tree.node, &event);
}

/* Lifetimes */

static void handle_app_destroy(struct wl_listener *listener, void *data) {
	struct cordon_app_freeze *state = wl_container_of(listener, state, destroy);
	struct cordon_freeze *freeze = state->freeze;
	struct cordon_app *app = state->app;
	/* Its processes may outlive their connections: never leave them frozen. */
	if (state->state != CORDON_THAWED && !write_file(app->cgroup_fd, "cgroup.freeze", "0") &&
		errno != ENOENT) {
		wlr_log_errno(WLR_ERROR, "Cannot thaw %s", app->cgroup);
	}
	if (freeze->boosted == app) {
		unboost(freeze);
	}
	stop_wake_timing(state);
	wl_list_remove(&state->destroy.link);
	wl_event_source_remove(state->delay_timer);
	wl_event_source_remove(state->confirm_timer);
	app->freeze = NULL;
	free(state);
}

static void handle_new_app(struct wl_listener *listener, void *data) {
	struct cordon_freeze *freeze = wl_container_of(listener, freeze, new_app);
	struct cordon_app *app = data;
	struct cordon_app_freeze *state = calloc(1, sizeof(*state));
	if (!state) {
		return;
	}
	state->freeze = freeze;
	state->app = app;
	state->wake_frame_us = -1;
	clock_gettime(CLOCK_REALTIME, &state->state_since);
	struct wl_event_loop *loop = freeze->server->event_loop;
	state->delay_timer = wl_event_loop_add_timer(loop, handle_delay_timer, state);
	state->confirm_timer = wl_event_loop_add_timer(loop, handle_confirm_timer, state);
	if (!state->delay_timer || !state->confirm_timer) {
		if (state->delay_timer) {
			wl_event_source_remove(state->delay_timer);
		}
		if (state->confirm_timer) {
			wl_event_source_remove(state->confirm_timer);
		}
		free(state);
		return;
	}
	state->destroy.notify = handle_app_destroy;
	wl_signal_add(&app->events.destroy, &state->destroy);
	app->freeze = state;
}

/* An inhibitor came, went, or its surface was shown or hidden. */
static void handle_idle_inhibit_change(struct wl_listener *listener, void *data) {
	struct cordon_freeze *freeze = wl_container_of(listener, freeze, idle_inhibit_change);
	freeze_update(freeze);
}

struct cordon_freeze *cordon_freeze_create(struct cordon_server *server) {
	struct cordon_freeze *freeze = calloc(1, sizeof(*freeze));
	if (!freeze) {
		return NULL;
	}
	freeze->server = server;
	freeze->new_app.notify = handle_new_app;
	wl_signal_add(&server->apps->events.new_app, &freeze->new_app);
	freeze->idle_inhibit_change.notify = handle_idle_inhibit_change;
	wl_signal_add(&server->globals->idle_inhibit->events.change, &freeze->idle_inhibit_change);
	freeze->visibility_changed.notify = handle_visibility_changed;
	wl_signal_add(&server->events.visibility_changed, &freeze->visibility_changed);
	freeze->view_activating.notify = handle_view_activating;
	wl_signal_add(&server->events.view_activating, &freeze->view_activating);
	return freeze;
}

void cordon_freeze_destroy(struct cordon_freeze *freeze) {
	if (!freeze) {
		return;
	}
	struct cordon_server *server = freeze->server;
	struct cordon_app *app;
	wl_list_for_each(app, &server->apps->apps, link) {
		if (app->freeze) {
			handle_app_destroy(&app->freeze->destroy, app);
		}
	}
	wl_list_remove(&freeze->new_app.link);
	wl_list_remove(&freeze->idle_inhibit_change.link);
	wl_list_remove(&freeze->visibility_changed.link);
	wl_list_remove(&freeze->view_activating.link);
	server->freeze = NULL;
	free(freeze);
}
