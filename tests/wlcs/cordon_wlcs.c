/*
 * cordon-wlcs.so: the Wayland Conformance Test Suite's integration module for
 * cordon. wlcs loads it into its own process, creates a whole cordon (headless,
 * one output) for every test, and drives it from the test thread while cordon's
 * event loop runs in a thread of its own. wlroots is not thread-safe, so every
 * call that touches the compositor once it runs is marshalled onto the
 * compositor thread (an eventfd in cordon's event loop) and waited for.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client-core.h>
#include <wayland-server-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

/*
 * Exactly the globals cordon offers an unsandboxed client with the pixman
 * renderer (what wayland-info shows; tests/wlcs/descriptor-check.c checks it), at
 * the versions wlroots 0.20 implements. wlcs skips the tests of anything
 * missing here.
 */
static const WlcsExtensionDescriptor extensions[] = {
	{"wl_shm", 2},
	{"wl_compositor", 6},
	{"wl_subcompositor", 1},
	{"xdg_wm_base", 6},
	{"wl_seat", 9},
	{"wl_data_device_manager", 3},
	{"zwp_primary_selection_device_manager_v1", 1},
	{"zxdg_output_manager_v1", 3},
	{"wp_viewporter", 1},
	{"zwlr_screencopy_manager_v1", 3},
	{"zwlr_export_dmabuf_manager_v1", 1},
	{"zwlr_data_control_manager_v1", 2},
	{"ext_data_control_manager_v1", 1},
	{"zwlr_gamma_control_manager_v1", 1},
	{"wp_presentation", 2},
	{"zwlr_foreign_toplevel_manager_v1", 3},
	{"xdg_activation_v1", 1},
	{"zwp_virtual_keyboard_manager_v1", 1},
	{"zwlr_virtual_pointer_manager_v1", 2},
	{"ext_idle_notifier_v1", 2},
	{"zwp_idle_inhibit_manager_v1", 1},
	{"zwlr_output_manager_v1", 4},
	{"zwlr_output_power_manager_v1", 1},
	{"zwp_text_input_manager_v3", 1},
	{"zwp_input_method_manager_v2", 1},
	{"zwlr_layer_shell_v1", 5},
	{"zxdg_decoration_manager_v1", 1},
	{"org_kde_kwin_server_decoration_manager", 1},
	{"wl_output", 4},
	{"zwp_relative_pointer_manager_v1", 1},
	{"wp_cursor_shape_manager_v1", 1},
	{"zwp_pointer_constraints_v1", 1},
	{"zwp_keyboard_shortcuts_inhibit_manager_v1", 1},
	{"ext_session_lock_manager_v1", 1},
	{"wp_security_context_manager_v1", 1},
	{"cordon_x11_manager_v1", 1},
	{"cordon_portal_manager_v1", 5},
	{"zxdg_exporter_v2", 1},
	{"zxdg_importer_v2", 1},
	{"wp_single_pixel_buffer_manager_v1", 1},
	{"wp_alpha_modifier_v1", 1},
	{"wp_fractional_scale_manager_v1", 1},
	{"xdg_toplevel_icon_manager_v1", 1},
	{"wp_content_type_manager_v1", 1},
	{"xdg_system_bell_v1", 1},
	{"ext_foreign_toplevel_list_v1", 1},
	{"xdg_wm_dialog_v1", 1},
	{"ext_foreign_toplevel_image_capture_source_manager_v1", 1},
	{"ext_image_copy_capture_manager_v1", 1},
	{"ext_output_image_capture_source_manager_v1", 1},
};

static const WlcsIntegrationDescriptor descriptor = {
	.version = 1,
	.num_extensions = sizeof(extensions) / sizeof(extensions[0]),
	.supported_extensions = extensions,
};

/* A function to run on the compositor thread, queued by the test thread. */
struct wlcs_call {
	bool (*run)(void *data); /* false: not possible yet, retry */
	void *data;
	bool done;
	struct wlcs_call *next;
};

/* A client wlcs got from create_client_socket, found again by its socket's inode. */
struct wlcs_client {
	struct wl_client *wl_client;
	ino_t inode; /* of the client's end of the socket pair */
	struct wl_list link; /* wlcs_server.clients, newest first */
	struct wl_listener destroy;
};

struct wlcs_server {
	WlcsDisplayServer base;
	struct cordon_server *server;
	struct wl_list clients; /* wlcs_client.link, compositor thread only */
	int32_t next_touch_id;

	pthread_t thread;
	bool running; /* the compositor thread exists; set and read by the test thread */
	int event_fd;
	struct wl_event_source *call_source, *retry_source;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	struct wlcs_call *calls, **calls_tail; /* under mutex */
};

struct wlcs_pointer {
	WlcsPointer base;
	struct wlcs_server *server;
};

struct wlcs_touch {
	WlcsTouch base;
	struct wlcs_server *server;
	int32_t id;
	bool down;
	double origin_x, origin_y; /* layout position of the touched surface's origin */
};

static void die(const char *what) {
	fprintf(stderr, "cordon-wlcs: %s: %s\n", what, strerror(errno));
	abort();
}

/*
 * Compositor thread: runs the queued calls in order. A call that cannot finish
 * yet (its client's requests are still in the socket) stays first in the queue
 * and is retried shortly, after the event loop has read from the clients.
 */
static void run_calls(struct wlcs_server *ws) {
	pthread_mutex_lock(&ws->mutex);
	while (ws->calls) {
		struct wlcs_call *call = ws->calls;
		pthread_mutex_unlock(&ws->mutex);
		bool finished = call->run(call->data);
		/* Flush now: the test thread usually reads the result right away. */
		wl_display_flush_clients(ws->server->display);
		pthread_mutex_lock(&ws->mutex);
		if (!finished) {
			wl_event_source_timer_update(ws->retry_source, 1);
			break;
		}
		ws->calls = call->next;
		if (!ws->calls) {
			ws->calls_tail = &ws->calls;
		}
		call->done = true;
	}
	pthread_cond_broadcast(&ws->cond);
	pthread_mutex_unlock(&ws->mutex);
}

static int handle_calls(int fd, uint32_t mask, void *data) {
	struct wlcs_server *ws = data;
	uint64_t count;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN) {
		die("read eventfd");
	}
	run_calls(ws);
	return 0;
}

static int handle_retry(void *data) {
	run_calls(data);
	return 0;
}

/* Test thread: runs fn on the compositor thread (or here before it starts) and waits. */
static void run_on_compositor(struct wlcs_server *ws, bool (*run)(void *data), void *data) {
	if (!ws->running) {
		run(data);
		return;
	}
	struct wlcs_call call = {.run = run, .data = data};
	pthread_mutex_lock(&ws->mutex);
	*ws->calls_tail = &call;
	ws->calls_tail = &call.next;
	uint64_t one = 1;
	if (write(ws->event_fd, &one, sizeof(one)) < 0) {
		die("write eventfd");
	}
	while (!call.done) {
		pthread_cond_wait(&ws->cond, &ws->mutex);
	}
	pthread_mutex_unlock(&ws->mutex);
}

static void *compositor_thread(void *data) {
	struct wlcs_server *ws = data;
	cordon_server_run(ws->server);
	return NULL;
}

/* Server life cycle */

static bool terminate(void *data) {
	struct wlcs_server *ws = data;
	cordon_server_terminate(ws->server);
	return true;
}

static void wlcs_start(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	/* Here, before the thread: it sets environment variables. */
	if (!cordon_server_start(ws->server)) {
		fprintf(stderr, "cordon-wlcs: cannot start cordon\n");
		abort();
	}
	if (pthread_create(&ws->thread, NULL, compositor_thread, ws) != 0) {
		die("pthread_create");
	}
	ws->running = true;
}

static void wlcs_stop(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	if (!ws->running) {
		return;
	}
	run_on_compositor(ws, terminate, ws);
	pthread_join(ws->thread, NULL);
	ws->running = false;
}

/* Clients */

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct wlcs_client *client = wl_container_of(listener, client, destroy);
	wl_list_remove(&client->destroy.link);
	wl_list_remove(&client->link);
	free(client);
}

struct create_client_call {
	struct wlcs_server *ws;
	int server_fd;
	ino_t inode;
	bool ok;
};

static bool create_client(void *data) {
	struct create_client_call *call = data;
	struct wlcs_client *client = calloc(1, sizeof(*client));
	if (!client) {
		return true;
	}
	client->wl_client = wl_client_create(call->ws->server->display, call->server_fd);
	if (!client->wl_client) {
		free(client);
		return true;
	}
	client->inode = call->inode;
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client->wl_client, &client->destroy);
	wl_list_insert(&call->ws->clients, &client->link);
	call->ok = true;
	return true;
}

static int wlcs_create_client_socket(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
		return -1;
	}
	struct stat st;
	if (fstat(fds[1], &st) != 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	struct create_client_call call = {.ws = ws, .server_fd = fds[0], .inode = st.st_ino};
	run_on_compositor(ws, create_client, &call);
	if (!call.ok) {
		/* wl_client_create closes the fd only when it succeeds. */
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	return fds[1];
}

static struct wl_client *find_client(struct wlcs_server *ws, ino_t inode) {
	struct wlcs_client *client;
	wl_list_for_each(client, &ws->clients, link) {
		if (client->inode == inode) {
			return client->wl_client;
		}
	}
	return NULL;
}

/* Windows */

/* How long a position request waits for its surface to reach cordon and map. */
#define POSITION_RETRIES 2000

struct position_call {
	struct wlcs_server *ws;
	ino_t inode;
	uint32_t surface_id;
	int x, y;
	int retries;
};

static struct cordon_view *find_view(struct position_call *call) {
	struct wl_client *client = find_client(call->ws, call->inode);
	struct wl_resource *resource =
		client ? wl_client_get_object(client, call->surface_id) : NULL;
	/* The id is the client's wl_surface proxy's; the class check only guards the cast. */
	if (!resource || strcmp(wl_resource_get_class(resource), wl_surface_interface.name) != 0) {
		return NULL;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(resource);
	return cordon_view_from_surface(call->ws->server, surface);
}

static bool position_window(void *data) {
	struct position_call *call = data;
	/*
	 * The client's last requests may still be unread, and a toplevel is
	 * placed by cordon when it maps: wait for both.
	 */
	struct cordon_view *view = find_view(call);
	if (!view || !view->mapped) {
		if (++call->retries < POSITION_RETRIES) {
			return false;
		}
		fprintf(stderr, "cordon-wlcs: position_window_absolute: surface %u is %s\n",
			call->surface_id, view ? "not mapped" : "not a toplevel");
		return true;
	}
	/*
	 * wlcs places the window geometry's origin (pointer_respects_window_geom_offset), which
	 * is a view's position.
	 */
	cordon_view_move_to(view, call->x, call->y);
	cordon_seat_update_pointer_focus(call->ws->server->seat, 0);
	return true;
}

static void wlcs_position_window_absolute(WlcsDisplayServer *base, struct wl_display *client,
	struct wl_surface *surface, int x, int y) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	struct stat st;
	if (fstat(wl_display_get_fd(client), &st) != 0) {
		die("fstat client socket");
	}
	/* Whatever the client asked for so far must reach cordon first. */
	wl_display_flush(client);
	struct position_call call = {
		.ws = ws,
		.inode = st.st_ino,
		.surface_id = wl_proxy_get_id((struct wl_proxy *)surface),
		.x = x,
		.y = y,
	};
	run_on_compositor(ws, position_window, &call);
}

/* Pointer: cordon's own virtual pointer, as cordonctl drives it. */

enum pointer_action {
	POINTER_MOVE_ABSOLUTE,
	POINTER_MOVE_RELATIVE,
	POINTER_BUTTON_DOWN,
	POINTER_BUTTON_UP,
};

struct pointer_call {
	struct wlcs_server *ws;
	enum pointer_action action;
	double x, y;
	uint32_t button;
};

static bool pointer_event(void *data) {
	struct pointer_call *call = data;
	struct cordon_seat *seat = call->ws->server->seat;
	switch (call->action) {
	case POINTER_MOVE_ABSOLUTE:
		cordon_seat_inject_pointer_warp(seat, call->x, call->y);
		break;
	case POINTER_MOVE_RELATIVE:
		cordon_seat_inject_pointer_motion(seat, call->x, call->y);
		break;
	case POINTER_BUTTON_DOWN:
	case POINTER_BUTTON_UP:
		cordon_seat_inject_button(seat, call->button, call->action == POINTER_BUTTON_DOWN);
		break;
	}
	return true;
}

static void send_pointer(
	WlcsPointer *base, enum pointer_action action, double x, double y, uint32_t button) {
	struct wlcs_pointer *pointer = wl_container_of(base, pointer, base);
	struct pointer_call call = {
		.ws = pointer->server,
		.action = action,
		.x = x,
		.y = y,
		.button = button,
	};
	run_on_compositor(pointer->server, pointer_event, &call);
}

static void pointer_move_absolute(WlcsPointer *base, wl_fixed_t x, wl_fixed_t y) {
	send_pointer(base, POINTER_MOVE_ABSOLUTE, wl_fixed_to_double(x), wl_fixed_to_double(y), 0);
}

static void pointer_move_relative(WlcsPointer *base, wl_fixed_t dx, wl_fixed_t dy) {
	send_pointer(
		base, POINTER_MOVE_RELATIVE, wl_fixed_to_double(dx), wl_fixed_to_double(dy), 0);
}

static void pointer_button_down(WlcsPointer *base, int button) {
	send_pointer(base, POINTER_BUTTON_DOWN, 0, 0, (uint32_t)button);
}

static void pointer_button_up(WlcsPointer *base, int button) {
	send_pointer(base, POINTER_BUTTON_UP, 0, 0, (uint32_t)button);
}

static void pointer_destroy(WlcsPointer *base) {
	struct wlcs_pointer *pointer = wl_container_of(base, pointer, base);
	free(pointer);
}

static WlcsPointer *wlcs_create_pointer(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	struct wlcs_pointer *pointer = calloc(1, sizeof(*pointer));
	if (!pointer) {
		return NULL;
	}
	pointer->server = ws;
	pointer->base = (WlcsPointer){
		.version = WLCS_POINTER_VERSION,
		.move_absolute = pointer_move_absolute,
		.move_relative = pointer_move_relative,
		.button_up = pointer_button_up,
		.button_down = pointer_button_down,
		.destroy = pointer_destroy,
	};
	return &pointer->base;
}

/*
 * Touch: cordon has no touch input path of its own (no touch device is ever
 * attached), so touch goes straight to the wlr_seat here, to the surface the
 * scene shows at the point, and a touch on a window focuses it as a click
 * does. docs/conformance.md says what that does and does not cover. The seat
 * has the touch capability from the start (see wlcs_create_server): wlcs
 * touches right after creating a device, before a client could bind wl_touch.
 */

enum touch_action {
	TOUCH_DOWN,
	TOUCH_MOVE,
	TOUCH_UP,
};

struct touch_call {
	struct wlcs_touch *touch;
	enum touch_action action;
	double x, y;
};

static uint32_t now_msec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static void touch_down(struct wlcs_touch *touch, struct wlr_seat *wlr_seat, double x, double y) {
	double sx, sy;
	struct wlr_surface *surface;
	struct cordon_view *view = cordon_view_at(touch->server->server, x, y, &surface, &sx, &sy);
	if (!surface) {
		return;
	}
	if (view) {
		cordon_view_focus(view);
	}
	touch->origin_x = x - sx;
	touch->origin_y = y - sy;
	wlr_seat_touch_notify_down(wlr_seat, surface, now_msec(), touch->id, sx, sy);
	touch->down = true;
}

static bool touch_event(void *data) {
	struct touch_call *call = data;
	struct wlcs_touch *touch = call->touch;
	struct wlr_seat *wlr_seat = touch->server->server->seat->wlr_seat;
	switch (call->action) {
	case TOUCH_DOWN:
		touch_down(touch, wlr_seat, call->x, call->y);
		break;
	case TOUCH_MOVE:
		if (!touch->down) {
			return true;
		}
		/* Motion stays with the surface the touch went down on. */
		wlr_seat_touch_notify_motion(wlr_seat, now_msec(), touch->id,
			call->x - touch->origin_x, call->y - touch->origin_y);
		break;
	case TOUCH_UP:
		if (!touch->down) {
			return true;
		}
		wlr_seat_touch_notify_up(wlr_seat, now_msec(), touch->id);
		touch->down = false;
		break;
	}
	wlr_seat_touch_notify_frame(wlr_seat);
	return true;
}

static void send_touch(WlcsTouch *base, enum touch_action action, wl_fixed_t x, wl_fixed_t y) {
	struct wlcs_touch *touch = wl_container_of(base, touch, base);
	/*
	 * Whatever touch.h says, wlcs passes whole pixels here, not wl_fixed_t
	 * (its Touch::down_at(int x, int y) hands the ints on unconverted).
	 */
	struct touch_call call = {
		.touch = touch,
		.action = action,
		.x = (double)x,
		.y = (double)y,
	};
	run_on_compositor(touch->server, touch_event, &call);
}

static void touch_touch_down(WlcsTouch *base, wl_fixed_t x, wl_fixed_t y) {
	send_touch(base, TOUCH_DOWN, x, y);
}

static void touch_touch_move(WlcsTouch *base, wl_fixed_t x, wl_fixed_t y) {
	send_touch(base, TOUCH_MOVE, x, y);
}

static void touch_touch_up(WlcsTouch *base) {
	send_touch(base, TOUCH_UP, 0, 0);
}

static void touch_destroy(WlcsTouch *base) {
	struct wlcs_touch *touch = wl_container_of(base, touch, base);
	free(touch);
}

static WlcsTouch *wlcs_create_touch(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	struct wlcs_touch *touch = calloc(1, sizeof(*touch));
	if (!touch) {
		return NULL;
	}
	touch->server = ws;
	touch->id = ws->next_touch_id++;
	touch->base = (WlcsTouch){
		.version = WLCS_TOUCH_VERSION,
		.touch_down = touch_touch_down,
		.touch_move = touch_touch_move,
		.touch_up = touch_touch_up,
		.destroy = touch_destroy,
	};
	return &touch->base;
}

static const WlcsIntegrationDescriptor *wlcs_get_descriptor(const WlcsDisplayServer *base) {
	return &descriptor;
}

/* Integration */

static WlcsDisplayServer *wlcs_create_server(int argc, const char **argv) {
	static bool log_initialised;
	if (!log_initialised) {
		const char *debug = getenv("CORDON_WLCS_DEBUG");
		wlr_log_init(debug && *debug ? WLR_DEBUG : WLR_ERROR, NULL);
		log_initialised = true;
	}
	struct wlcs_server *ws = calloc(1, sizeof(*ws));
	if (!ws) {
		return NULL;
	}
	wl_list_init(&ws->clients);
	pthread_mutex_init(&ws->mutex, NULL);
	pthread_cond_init(&ws->cond, NULL);
	ws->calls_tail = &ws->calls;
	ws->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ws->event_fd < 0) {
		die("eventfd");
	}

	struct cordon_options options = {
		.headless = true,
		.headless_output_count = 1,
		.headless_outputs = {{1280, 720}},
	};
	ws->server = cordon_server_create(&options);
	if (!ws->server) {
		fprintf(stderr, "cordon-wlcs: cannot create cordon\n");
		abort();
	}
	ws->call_source = wl_event_loop_add_fd(
		ws->server->event_loop, ws->event_fd, WL_EVENT_READABLE, handle_calls, ws);
	struct wlr_seat *wlr_seat = ws->server->seat->wlr_seat;
	wlr_seat_set_capabilities(wlr_seat, wlr_seat->capabilities | WL_SEAT_CAPABILITY_TOUCH);
	ws->retry_source = wl_event_loop_add_timer(ws->server->event_loop, handle_retry, ws);
	if (!ws->call_source || !ws->retry_source) {
		die("wl_event_loop_add_fd");
	}
	ws->base = (WlcsDisplayServer){
		.version = 3,
		.start = wlcs_start,
		.stop = wlcs_stop,
		.create_client_socket = wlcs_create_client_socket,
		.position_window_absolute = wlcs_position_window_absolute,
		.create_pointer = wlcs_create_pointer,
		.create_touch = wlcs_create_touch,
		.get_descriptor = wlcs_get_descriptor,
	};
	return &ws->base;
}

static void wlcs_destroy_server(WlcsDisplayServer *base) {
	struct wlcs_server *ws = wl_container_of(base, ws, base);
	wlcs_stop(base);
	wl_event_source_remove(ws->call_source);
	wl_event_source_remove(ws->retry_source);
	/* The clients' records go with their wl_clients, destroyed first. */
	cordon_server_destroy(ws->server);
	close(ws->event_fd);
	pthread_cond_destroy(&ws->cond);
	pthread_mutex_destroy(&ws->mutex);
	free(ws);
}

const WlcsServerIntegration wlcs_server_integration = {
	.version = 1,
	.create_server = wlcs_create_server,
	.destroy_server = wlcs_destroy_server,
};
