/*
 * ext-image-copy-capture-v1 with its two sources: a whole output (what the scene
 * shows on it) and a single window, named by its ext-foreign-toplevel-list handle.
 * A window's source renders the window's own surfaces from its scene subtree,
 * whatever covers it on screen; one source per window, made on the first request
 * and gone with the window, so that no client can make cordon hold more. All of
 * these globals are host-only (global_filter.c).
 */
#include "compositor/image_capture.h"

#include <stdlib.h>
#include <wlr/types/wlr_ext_foreign_toplevel_list_v1.h>
#include <wlr/types/wlr_ext_image_capture_source_v1.h>
#include <wlr/types/wlr_ext_image_copy_capture_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#include "compositor/server.h"
#include "compositor/view.h"

#define IMAGE_COPY_CAPTURE_VERSION 1
#define OUTPUT_SOURCE_VERSION 1
#define TOPLEVEL_SOURCE_VERSION 1

struct cordon_image_capture {
	struct cordon_server *server;
	struct wlr_ext_foreign_toplevel_image_capture_source_manager_v1 *toplevel_sources;
	struct wl_listener new_request;
};

static void handle_capture_source_destroy(struct wl_listener *listener, void *data) {
	struct cordon_view *view = wl_container_of(listener, view, capture_source_destroy);
	wl_list_remove(&view->capture_source_destroy.link);
	view->capture_source = NULL;
}

static struct wlr_ext_image_capture_source_v1 *view_source(
	struct cordon_server *server, struct cordon_view *view) {
	if (!view->capture_source) {
		view->capture_source = wlr_ext_image_capture_source_v1_create_with_scene_node(
			&view->surface_tree->node, server->event_loop, server->allocator,
			server->renderer);
		if (!view->capture_source) {
			return NULL;
		}
		view->capture_source_destroy.notify = handle_capture_source_destroy;
		wl_signal_add(&view->capture_source->events.destroy, &view->capture_source_destroy);
	}
	return view->capture_source;
}

static void handle_new_request(struct wl_listener *listener, void *data) {
	struct cordon_image_capture *capture = wl_container_of(listener, capture, new_request);
	struct wlr_ext_foreign_toplevel_image_capture_source_manager_v1_request *request = data;
	/* Handles live only while their view is mapped (foreign_toplevel.c). */
	struct cordon_view *view = request->toplevel_handle->data;
	struct wlr_ext_image_capture_source_v1 *source =
		view ? view_source(capture->server, view) : NULL;
	if (!source) {
		wlr_log(WLR_ERROR, "Cannot make a capture source for a window");
	}
	/* Without a source the client's object is inert: its captures fail, it stays. */
	wlr_ext_foreign_toplevel_image_capture_source_manager_v1_request_accept(request, source);
}

struct cordon_image_capture *cordon_image_capture_create(struct cordon_server *server) {
	struct cordon_image_capture *capture = calloc(1, sizeof(*capture));
	if (!capture) {
		return NULL;
	}
	capture->server = server;
	capture->toplevel_sources = wlr_ext_foreign_toplevel_image_capture_source_manager_v1_create(
		server->display, TOPLEVEL_SOURCE_VERSION);
	if (!capture->toplevel_sources ||
		!wlr_ext_image_copy_capture_manager_v1_create(
			server->display, IMAGE_COPY_CAPTURE_VERSION) ||
		!wlr_ext_output_image_capture_source_manager_v1_create(
			server->display, OUTPUT_SOURCE_VERSION)) {
		free(capture);
		return NULL;
	}
	capture->new_request.notify = handle_new_request;
	wl_signal_add(&capture->toplevel_sources->events.new_request, &capture->new_request);
	return capture;
}

void cordon_image_capture_destroy(struct cordon_image_capture *capture) {
	if (!capture) {
		return;
	}
	wl_list_remove(&capture->new_request.link);
	free(capture);
}
