/* Freezing hidden apps and boosting the focused one through their cgroups (docs/freeze.md). */
#ifndef CORDON_COMPOSITOR_FREEZE_H
#define CORDON_COMPOSITOR_FREEZE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>

struct cordon_app;
struct cordon_server;
struct cordon_view;
struct wlr_scene_output;

enum cordon_freeze_state {
	CORDON_THAWED,
	CORDON_FREEZING, /* cgroup.freeze written, cgroup.events not yet "frozen 1" */
	CORDON_FROZEN,
};

/* Per app, owned by freeze.c. */
struct cordon_app_freeze {
	struct cordon_freeze *freeze;
	struct cordon_app *app;
	enum cordon_freeze_state state;
	bool manual; /* frozen by `cordonctl freeze` rather than by the policy */
	bool ever_mapped; /* it has shown a toplevel: it is past its start-up */
	struct timespec state_since; /* CLOCK_REALTIME of the last freeze or thaw */
	bool boosted;
	struct timespec boosted_since;
	char saved_weight[32]; /* cpu.weight before the boost */
	struct wl_event_source *delay_timer; /* armed while the app is hidden */
	bool delay_armed;
	struct wl_event_source *confirm_timer; /* polls cgroup.events while FREEZING */
	int confirm_tries;
	/*
	 * From an activation that thawed the app to the first buffer its window commits:
	 * watched on that window's surface, kept for `cordonctl apps` (-1: not measured yet).
	 */
	struct wlr_surface *wake_surface;
	struct timespec wake_start; /* CLOCK_MONOTONIC */
	int64_t wake_frame_us;
	struct wl_listener wake_commit;
	struct wl_listener wake_surface_destroy;
	struct wl_listener destroy;
};

struct cordon_freeze {
	struct cordon_server *server;
	struct cordon_app *boosted; /* the app whose cgroup has the boost, NULL for none */
	bool weight_missing_logged;
	struct wl_listener new_app;
	struct wl_listener idle_inhibit_change; /* cordon_idle_inhibit.events.change */
	/* The server's: what is shown changed (re-run the policy and the boost), and a view is
	 * about to be focused (its app must be running first). */
	struct wl_listener visibility_changed;
	struct wl_listener view_activating;
};

/* After the globals (idle-inhibit) and the apps. */
struct cordon_freeze *cordon_freeze_create(struct cordon_server *server);
/* Thaws every app and restores every boosted cpu.weight. Before the clients go. */
void cordon_freeze_destroy(struct cordon_freeze *freeze);

/*
 * Thaws the client's app now (if it is frozen) and restarts its timer. For everything that
 * is about to reach an app from outside: clipboard reads, portal responses. reason is logged.
 */
void cordon_freeze_wake(struct cordon_server *server, struct wl_client *client, const char *reason);
/* seat.c: no input and no focus for a frozen (or freezing) client. */
bool cordon_freeze_client_is_frozen(struct cordon_server *server, struct wl_client *client);
/* output.c: wlr_scene_output_send_frame_done, but no frame callbacks for frozen clients. */
void cordon_freeze_send_frame_done(
	struct cordon_server *server, struct wlr_scene_output *scene_output, struct timespec *now);

/*
 * For `cordonctl freeze|thaw`; freeze returns false with a message in *error when refused,
 * thaw false when cgroup.freeze cannot be written (the app then stays frozen, without input).
 */
bool cordon_freeze_app(struct cordon_app_freeze *state, char **error);
bool cordon_thaw_app(struct cordon_app_freeze *state, const char *reason);
/* Whether the policy applies to the app (config, its tag, a usable cgroup). */
bool cordon_freeze_policy_enabled(struct cordon_app_freeze *state);

#endif
