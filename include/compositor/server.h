/* The compositor as a whole: one struct cordon_server, created, run and destroyed. */
#ifndef CORDON_COMPOSITOR_SERVER_H
#define CORDON_COMPOSITOR_SERVER_H

#include <stdbool.h>
#include <sys/resource.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

#define CORDON_MAX_HEADLESS_OUTPUTS 8

struct cordon_headless_output_size {
	int width, height;
};

struct cordon_options {
	/* Use the headless backend with these outputs instead of autocreate. */
	bool headless;
	int headless_output_count;
	struct cordon_headless_output_size headless_outputs[CORDON_MAX_HEADLESS_OUTPUTS];

	const char *socket_name; /* NULL: the first free wayland-N */
	const char *config_path; /* NULL: the default location */
	const char *policy_path; /* per-app policy; NULL: the default location */
	const char *startup_command; /* run with /bin/sh -c once ready */
};

/* Scene layers, bottom to top. Views live in LAYER_VIEWS. */
enum cordon_scene_layer {
	CORDON_LAYER_BACKGROUND,
	CORDON_LAYER_BOTTOM,
	CORDON_LAYER_VIEWS,
	CORDON_LAYER_TOP,
	/* X11 menus and tooltips (override-redirect), placed by their X client: above
	 * fullscreen windows, whose menus they may be; below cordon's own overlays. */
	CORDON_LAYER_X11_UNMANAGED,
	CORDON_LAYER_OVERLAY,
	CORDON_LAYER_COUNT,
};

struct cordon_server {
	struct wl_display *display;
	struct wl_event_loop *event_loop;
	struct wlr_backend *backend; /* a multi backend */
	struct wlr_session *session; /* NULL unless on DRM/libinput (seat switching) */
	/* With --headless: the backend and the outputs to add once started. */
	struct wlr_backend *headless_backend;
	int headless_output_count;
	struct cordon_headless_output_size headless_outputs[CORDON_MAX_HEADLESS_OUTPUTS];
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_scene_output_layout *scene_layout; /* the scene mirrors the output layout */
	struct wlr_scene_tree *layers[CORDON_LAYER_COUNT];
	struct wlr_output_layout *output_layout;
	struct wlr_compositor *compositor;
	struct wlr_subcompositor *subcompositor;
	struct wlr_xdg_shell *xdg_shell;

	struct cordon_config *config;
	struct cordon_policy *policy; /* per-app profiles, shared with cordon-run */
	struct cordon_seat *seat;
	struct cordon_globals *globals;
	struct cordon_ipc_server *ipc;
	struct cordon_portals *portals;
	struct cordon_apps *apps; /* clients grouped into apps (apps.c) */
	struct cordon_freeze *freeze; /* freezing and boosting apps (freeze.c) */
	struct cordon_security_context_manager *security_contexts;
	/* cordon_x11_manager_v1: per-sandbox X servers (x11_display.c). */
	struct cordon_x11_displays *x11_displays;
	/* The session D-Bus connection (session_bus.c); NULL without a session bus. */
	struct cordon_session_bus *session_bus;
	/* xdg-foreign-v2 exports: the parent windows of D-Bus portal requests. */
	struct cordon_xdg_foreign *xdg_foreign;
	struct wl_protocol_logger *global_census; /* global_filter.c */
	struct wl_protocol_logger *request_guard; /* request_guard.c */
	/* Cgroup paths by id, for identifying clients (client.c); NULL where it cannot work. */
	struct cordon_cgroup_cache *cgroup_cache;
	/* Per-app caps (app_limits.c), and the watch on data-source offers (offer_limits.c). */
	struct cordon_app_limits *app_limits;
	struct cordon_offer_limits *offer_limits;
	/* Window labels (label.c) and the secure attention key (attention.c). */
	struct cordon_labels *labels;
	struct cordon_attention *attention;
	/* Every X server (xwayland.c): the host's, and one per sandbox instance that asked. */
	struct wl_list xwaylands; /* cordon_xwayland.link */
	struct cordon_xwayland *host_xwayland; /* NULL when off or unavailable */
	struct wlr_seat *host_xwayland_seat; /* its selections' seat (xwayland.c) */
	/* That seat bridged to the real one (xwayland_selection.c); NULL without it. */
	struct cordon_x11_selection *host_x11_selection;

	const char *socket; /* the Wayland socket name */
	struct wl_list outputs; /* cordon_output.link */
	struct wl_list views; /* cordon_view.link, stacking order, topmost first */
	uint32_t next_view_id;

	struct wl_event_source *sigterm_source, *sigint_source;
	char *startup_command;
	int exit_code;
	/* The open-file limit cordon started with, restored for the programs it spawns. */
	struct rlimit original_nofile;
	bool nofile_raised;

	/*
	 * What parts of cordon watch instead of being called from where things happen
	 * (freeze.c is one).
	 */
	struct {
		/* What decides whether an app is seen may have changed: a view mapped,
		 * unmapped, minimized or restored, the focus moved, a layer surface mapped or
		 * unmapped. No data. */
		struct wl_signal visibility_changed;
		/* A view (the data) is about to be focused or restored, before anything is sent
		 * to it. */
		struct wl_signal view_activating;
	} events;

	struct wl_listener new_output;
	struct wl_listener output_layout_change;
	struct wl_listener new_input;
	struct wl_listener new_xdg_toplevel;
	struct wl_listener new_xdg_popup;
	struct wl_listener client_created;
};

/*
 * Creates the whole compositor: backend, renderer, scene, globals, seat, control
 * socket. Returns NULL after logging the reason. Nothing is started yet.
 */
struct cordon_server *cordon_server_create(const struct cordon_options *options);
/* Starts the backend and runs the startup command. */
bool cordon_server_start(struct cordon_server *server);
/* Runs the event loop until cordon_server_terminate(). Returns the exit code. */
int cordon_server_run(struct cordon_server *server);
void cordon_server_terminate(struct cordon_server *server);
void cordon_server_destroy(struct cordon_server *server);

/* Spawns a command with /bin/sh -c, detached from cordon (double fork). */
void cordon_spawn(struct cordon_server *server, const char *command);

#endif
