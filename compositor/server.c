/*
 * Building the compositor step by step, running it, and unwinding it in the
 * reverse order. Every subsystem is created here and handed the server.
 */
#include "compositor/server.h"
#include "compositor/session_bus.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_subcompositor.h>
#include <wlr/types/wlr_xdg_shell.h>

#include "common/policy.h"
#include "compositor/apps.h"
#include "compositor/attention.h"
#include "compositor/client.h"
#include "compositor/config.h"
#include "compositor/freeze.h"
#include "compositor/global_filter.h"
#include "compositor/globals.h"
#include "compositor/ipc.h"
#include "compositor/label.h"
#include "compositor/output.h"
#include "compositor/portal_host.h"
#include "compositor/request_guard.h"
#include "compositor/seat.h"
#include "compositor/security_context.h"
#include "compositor/view.h"
#include "compositor/x11_display.h"
#include "compositor/xdg_foreign.h"
#include "compositor/xdg_shell.h"
#include "compositor/xwayland.h"
#include "compositor/xwayland_selection.h"
#include "portals/portals.h"

/* The newest versions cordon implements all of (wlroots has them all). */
#define COMPOSITOR_VERSION 6
#define XDG_SHELL_VERSION 6

/* After output_management.c's listener, which arranges panels and usable areas first. */
static void handle_output_layout_change(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, output_layout_change);
	cordon_view_outputs_changed(server);
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, new_output);
	cordon_output_handle_new(server, data);
}

static void handle_new_input(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, new_input);
	cordon_seat_add_device(server->seat, data);
}

static void handle_new_xdg_toplevel(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, new_xdg_toplevel);
	cordon_xdg_shell_handle_new_toplevel(server, data);
}

static void handle_new_xdg_popup(struct wl_listener *listener, void *data) {
	struct cordon_server *server = wl_container_of(listener, server, new_xdg_popup);
	cordon_xdg_shell_handle_new_popup(server, data);
}

static int handle_terminate_signal(int signal, void *data) {
	struct cordon_server *server = data;
	wlr_log(WLR_INFO, "Received signal %d, shutting down", signal);
	cordon_server_terminate(server);
	return 0;
}

static bool create_backend(struct cordon_server *server, const struct cordon_options *options) {
	if (!options->headless) {
		server->backend = wlr_backend_autocreate(server->event_loop, &server->session);
		return server->backend != NULL;
	}

	/*
	 * Headless with outputs of chosen sizes: autocreate would only give
	 * WLR_HEADLESS_OUTPUTS outputs of a fixed size.
	 */
	server->backend = wlr_multi_backend_create(server->event_loop);
	struct wlr_backend *headless = wlr_headless_backend_create(server->event_loop);
	if (!server->backend || !headless) {
		return false;
	}
	wlr_multi_backend_add(server->backend, headless);
	/* Outputs are added once started (cordon_server_start), in order. */
	server->headless_backend = headless;
	server->headless_output_count =
		options->headless_output_count > 0 ? options->headless_output_count : 1;
	for (int i = 0; i < server->headless_output_count; i++) {
		server->headless_outputs[i] = options->headless_output_count > 0
			? options->headless_outputs[i]
			: (struct cordon_headless_output_size){1280, 720};
	}
	return true;
}

static bool create_renderer(struct cordon_server *server) {
	/*
	 * wlroots picks the GPU of the backend, or a render node, or pixman where there is no
	 * GPU at all (WLR_RENDERER chooses by hand): software rendering still gives a desktop.
	 */
	server->renderer = wlr_renderer_autocreate(server->backend);
	if (!server->renderer) {
		return false;
	}
	if (!wlr_renderer_init_wl_display(server->renderer, server->display)) {
		return false;
	}
	server->allocator = wlr_allocator_autocreate(server->backend, server->renderer);
	return server->allocator != NULL;
}

static bool create_scene(struct cordon_server *server) {
	server->output_layout = wlr_output_layout_create(server->display);
	server->scene = wlr_scene_create();
	if (!server->output_layout || !server->scene) {
		return false;
	}
	for (int i = 0; i < CORDON_LAYER_COUNT; i++) {
		server->layers[i] = wlr_scene_tree_create(&server->scene->tree);
		if (!server->layers[i]) {
			return false;
		}
	}
	server->scene_layout = wlr_scene_attach_output_layout(server->scene, server->output_layout);
	return server->scene_layout != NULL;
}

static bool add_socket(struct cordon_server *server, const char *name) {
	if (name) {
		if (wl_display_add_socket(server->display, name) != 0) {
			wlr_log_errno(WLR_ERROR, "Cannot create the Wayland socket '%s'", name);
			return false;
		}
		server->socket = name;
		return true;
	}
	server->socket = wl_display_add_socket_auto(server->display);
	if (!server->socket) {
		wlr_log(WLR_ERROR, "Cannot create a Wayland socket (is XDG_RUNTIME_DIR set?)");
		return false;
	}
	return true;
}

/*
 * Every client costs file descriptors (its socket, buffers, pipes in flight):
 * a connect storm must not make accept() fail at the default soft limit.
 */
static void raise_nofile_limit(struct cordon_server *server) {
	if (getrlimit(RLIMIT_NOFILE, &server->original_nofile) != 0) {
		return;
	}
	struct rlimit raised = server->original_nofile;
	raised.rlim_cur = raised.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
		server->nofile_raised = true;
	} else {
		wlr_log_errno(WLR_INFO, "Cannot raise the open-file limit");
	}
}

struct cordon_server *cordon_server_create(const struct cordon_options *options) {
	struct cordon_server *server = calloc(1, sizeof(*server));
	if (!server) {
		return NULL;
	}
	wl_list_init(&server->outputs);
	wl_list_init(&server->views);
	wl_list_init(&server->xwaylands);
	wl_list_init(&server->new_output.link);
	wl_list_init(&server->output_layout_change.link);
	wl_list_init(&server->new_input.link);
	wl_list_init(&server->new_xdg_toplevel.link);
	wl_list_init(&server->new_xdg_popup.link);
	wl_list_init(&server->client_created.link);
	server->next_view_id = 1;
	raise_nofile_limit(server);

	char *error = NULL;
	server->config = cordon_config_load(options->config_path, &error);
	if (!server->config) {
		wlr_log(WLR_ERROR, "%s", error ? error : "Cannot load the configuration");
		free(error);
		goto error;
	}
	server->policy = cordon_policy_load(options->policy_path, &error);
	if (!server->policy) {
		wlr_log(WLR_ERROR, "%s", error ? error : "Cannot load the app policy");
		free(error);
		goto error;
	}
	if (options->startup_command) {
		server->startup_command = strdup(options->startup_command);
	}

	server->display = wl_display_create();
	if (!server->display) {
		goto error;
	}
	server->event_loop = wl_display_get_event_loop(server->display);
	wl_signal_init(&server->events.visibility_changed);
	wl_signal_init(&server->events.view_activating);
	/* Before any global exists: no client is served unidentified or unfiltered. */
	cordon_clients_init(server);
	cordon_global_filter_init(server);

	if (!create_backend(server, options)) {
		wlr_log(WLR_ERROR, "Cannot create a backend");
		goto error;
	}
	if (!create_renderer(server)) {
		wlr_log(WLR_ERROR, "Cannot create a renderer and allocator");
		goto error;
	}

	if (!create_scene(server)) {
		wlr_log(WLR_ERROR, "Cannot create the scene graph");
		goto error;
	}

	server->compositor =
		wlr_compositor_create(server->display, COMPOSITOR_VERSION, server->renderer);
	server->subcompositor = wlr_subcompositor_create(server->display);
	server->xdg_shell = wlr_xdg_shell_create(server->display, XDG_SHELL_VERSION);
	/* Before any client can send what wlroots would abort on. */
	server->request_guard = cordon_request_guard_create(server->display);
	if (!server->compositor || !server->subcompositor || !server->xdg_shell ||
		!server->request_guard) {
		goto error;
	}

	server->seat = cordon_seat_create(server);
	if (!server->seat) {
		goto error;
	}
	server->globals = cordon_globals_create(server);
	if (!server->globals) {
		wlr_log(WLR_ERROR, "Cannot create the desktop globals");
		goto error;
	}
	server->security_contexts = cordon_security_context_manager_create(server);
	if (!server->security_contexts) {
		goto error;
	}
	server->x11_displays = cordon_x11_displays_create(server);
	if (!server->x11_displays) {
		goto error;
	}
	server->xdg_foreign = cordon_xdg_foreign_create(server->display);
	if (!server->xdg_foreign) {
		goto error;
	}
	/* Before the portals: their D-Bus side needs it. No bus is not an error. */
	server->session_bus = cordon_session_bus_create(server->event_loop);
	struct cordon_portal_host portal_host;
	cordon_portal_host_init(&portal_host, server);
	server->portals = cordon_portals_create(&portal_host);
	if (!server->portals) {
		goto error;
	}
	server->labels = cordon_labels_create(server);
	server->attention = cordon_attention_create(server);
	if (!server->labels || !server->attention) {
		wlr_log(WLR_ERROR, "Cannot create the window labels and the attention key");
		goto error;
	}
	server->apps = cordon_apps_create(server);
	server->freeze = server->apps ? cordon_freeze_create(server) : NULL;
	if (!server->freeze) {
		wlr_log(WLR_ERROR, "Cannot create the app freezer");
		goto error;
	}

	server->new_output.notify = handle_new_output;
	wl_signal_add(&server->backend->events.new_output, &server->new_output);
	server->output_layout_change.notify = handle_output_layout_change;
	wl_signal_add(&server->output_layout->events.change, &server->output_layout_change);
	server->new_input.notify = handle_new_input;
	wl_signal_add(&server->backend->events.new_input, &server->new_input);
	server->new_xdg_toplevel.notify = handle_new_xdg_toplevel;
	wl_signal_add(&server->xdg_shell->events.new_toplevel, &server->new_xdg_toplevel);
	server->new_xdg_popup.notify = handle_new_xdg_popup;
	wl_signal_add(&server->xdg_shell->events.new_popup, &server->new_xdg_popup);

	if (!cordon_seat_add_virtual_devices(server->seat)) {
		wlr_log(WLR_ERROR, "Cannot create the virtual keyboard and pointer");
		goto error;
	}

	if (!add_socket(server, options->socket_name)) {
		goto error;
	}
	server->ipc = cordon_ipc_server_create(server);
	if (!server->ipc) {
		goto error;
	}

	server->sigterm_source = wl_event_loop_add_signal(
		server->event_loop, SIGTERM, handle_terminate_signal, server);
	server->sigint_source = wl_event_loop_add_signal(
		server->event_loop, SIGINT, handle_terminate_signal, server);
	return server;

error:
	cordon_server_destroy(server);
	return NULL;
}

bool cordon_server_start(struct cordon_server *server) {
	if (!wlr_backend_start(server->backend)) {
		wlr_log(WLR_ERROR, "Cannot start the backend");
		return false;
	}
	/*
	 * Added after the start, one at a time, so that HEADLESS-1 comes first
	 * in the layout (a started backend announces each output at once).
	 */
	for (int i = 0; i < server->headless_output_count; i++) {
		const struct cordon_headless_output_size *size = &server->headless_outputs[i];
		if (!wlr_headless_add_output(server->headless_backend, (unsigned)size->width,
			    (unsigned)size->height)) {
			wlr_log(WLR_ERROR, "Cannot add a %dx%d headless output", size->width,
				size->height);
			return false;
		}
	}
	setenv("WAYLAND_DISPLAY", server->socket, true);
	/* Clients draw their own cursors: let them match cordon's. */
	if (server->config->xcursor_theme) {
		setenv("XCURSOR_THEME", server->config->xcursor_theme, true);
	}
	char size[16];
	snprintf(size, sizeof(size), "%u", server->config->xcursor_size);
	setenv("XCURSOR_SIZE", size, true);
	setenv("CORDON_SOCKET", cordon_ipc_server_get_path(server->ipc), true);
	/* After the backend: a nested cordon's X11 backend has its DISPLAY already. */
	cordon_xwayland_host_start(server);
	if (server->host_xwayland) {
		/* Its selections reach Wayland apps (and theirs it) through the mediation. */
		server->host_x11_selection = cordon_x11_selection_create(
			server, server->host_xwayland, server->host_xwayland_seat);
		setenv("DISPLAY", cordon_xwayland_display_name(server->host_xwayland), true);
	} else {
		/* Apps started here must not reach an X server outside cordon (a nested one's). */
		unsetenv("DISPLAY");
	}
	wlr_log(WLR_INFO, "Running on WAYLAND_DISPLAY=%s, control socket %s", server->socket,
		cordon_ipc_server_get_path(server->ipc));
	if (server->startup_command) {
		cordon_spawn(server, server->startup_command);
	}
	return true;
}

int cordon_server_run(struct cordon_server *server) {
	wl_display_run(server->display);
	return server->exit_code;
}

void cordon_server_terminate(struct cordon_server *server) {
	wl_display_terminate(server->display);
}

void cordon_server_destroy(struct cordon_server *server) {
	if (!server) {
		return;
	}
	if (server->sigterm_source) {
		wl_event_source_remove(server->sigterm_source);
	}
	if (server->sigint_source) {
		wl_event_source_remove(server->sigint_source);
	}
	cordon_ipc_server_destroy(server->ipc);
	/* Thaws every app before its clients go: nothing cordon froze stays frozen. */
	cordon_freeze_destroy(server->freeze);
	/* While the seat and the views are whole: its windows go, then its process. */
	cordon_x11_selection_destroy(server->host_x11_selection);
	server->host_x11_selection = NULL;
	cordon_xwayland_host_finish(server);
	/* The X servers and their sockets go with cordon; their windows before the clients. */
	cordon_x11_displays_destroy(server->x11_displays);
	server->x11_displays = NULL;
	if (server->display) {
		/* Clients first: their surfaces and views go before the globals. */
		wl_display_destroy_clients(server->display);
	}
	cordon_apps_destroy(server->apps);
	server->apps = NULL;
	cordon_clients_finish(server);
	cordon_global_filter_finish(server);
	if (server->request_guard) {
		wl_protocol_logger_destroy(server->request_guard);
	}
	/* Its listeners would otherwise accept clients into a display being torn down. */
	cordon_security_context_manager_destroy(server->security_contexts);
	cordon_attention_destroy(server->attention);
	cordon_portals_destroy(server->portals);
	cordon_labels_destroy(server->labels);
	cordon_session_bus_destroy(server->session_bus);
	wl_list_remove(&server->new_output.link);
	wl_list_remove(&server->output_layout_change.link);
	wl_list_remove(&server->new_input.link);
	wl_list_remove(&server->new_xdg_toplevel.link);
	wl_list_remove(&server->new_xdg_popup.link);
	/* Destroying the backend destroys outputs and input devices, whose
	 * handlers still need the seat. */
	if (server->backend) {
		wlr_backend_destroy(server->backend);
	}
	cordon_globals_destroy(server->globals);
	cordon_seat_destroy(server->seat);
	/* The layout first: the scene listens to it (and not to its own end). */
	if (server->output_layout) {
		wlr_output_layout_destroy(server->output_layout);
	}
	if (server->scene) {
		wlr_scene_node_destroy(&server->scene->tree.node);
	}
	if (server->display) {
		wl_display_destroy(server->display);
	}
	cordon_xdg_foreign_destroy(server->xdg_foreign);
	/* Last: the display's shm and dmabuf globals were the renderer's. */
	if (server->allocator) {
		wlr_allocator_destroy(server->allocator);
	}
	if (server->renderer) {
		wlr_renderer_destroy(server->renderer);
	}
	cordon_config_destroy(server->config);
	cordon_policy_destroy(server->policy);
	free(server->startup_command);
	free(server);
}

void cordon_spawn(struct cordon_server *server, const char *command) {
	pid_t pid = fork();
	if (pid < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot fork to run '%s'", command);
		return;
	}
	if (pid == 0) {
		/* The grandchild is reparented to init, so cordon never reaps it. */
		setsid();
		sigset_t set;
		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		/* Programs expect the usual limit (select() breaks above 1024). */
		if (server->nofile_raised) {
			setrlimit(RLIMIT_NOFILE, &server->original_nofile);
		}
		if (fork() == 0) {
			execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	wlr_log(WLR_DEBUG, "Started '%s'", command);
}
