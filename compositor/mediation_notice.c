/*
 * The paste-across notice: a paste into another sandbox must never go
 * unnoticed (Qubes shows one for every inter-VM paste). A bright banner across
 * the top of each output, above everything, for a few seconds; the receiving
 * app is named in the log and in `cordonctl transfers`, since cordon draws no
 * text (it links no font stack).
 */
#include "compositor/mediation_notice.h"

#include <stdlib.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/box.h>
#include <wlr/util/log.h>

#include "common/escape.h"
#include "compositor/output.h"
#include "compositor/server.h"

#define NOTICE_HEIGHT 24
#define NOTICE_MS 3000

/* Amber, as a warning rather than an error. */
static const float notice_color[4] = {1.0f, 0.75f, 0.0f, 1.0f};

struct cordon_mediation_notice {
	struct cordon_server *server;
	struct wlr_scene_tree *tree; /* NULL while hidden */
	struct wl_event_source *timer;
};

static void hide(struct cordon_mediation_notice *notice) {
	if (notice->tree) {
		wlr_scene_node_destroy(&notice->tree->node);
		notice->tree = NULL;
	}
}

static int handle_timer(void *data) {
	hide(data);
	return 0;
}

struct cordon_mediation_notice *cordon_mediation_notice_create(struct cordon_server *server) {
	struct cordon_mediation_notice *notice = calloc(1, sizeof(*notice));
	if (!notice) {
		return NULL;
	}
	notice->server = server;
	notice->timer = wl_event_loop_add_timer(server->event_loop, handle_timer, notice);
	if (!notice->timer) {
		free(notice);
		return NULL;
	}
	return notice;
}

void cordon_mediation_notice_destroy(struct cordon_mediation_notice *notice) {
	if (!notice) {
		return;
	}
	wl_event_source_remove(notice->timer);
	hide(notice);
	free(notice);
}

void cordon_mediation_notice_show(struct cordon_mediation_notice *notice, const char *app_name) {
	struct cordon_server *server = notice->server;
	wlr_log(WLR_INFO, "Paste across: the clipboard is offered to %s",
		cordon_log_text(app_name));
	hide(notice);
	notice->tree = wlr_scene_tree_create(server->layers[CORDON_LAYER_OVERLAY]);
	if (!notice->tree) {
		return;
	}
	struct cordon_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box box;
		cordon_output_get_box(output, &box);
		struct wlr_scene_rect *rect =
			wlr_scene_rect_create(notice->tree, box.width, NOTICE_HEIGHT, notice_color);
		if (rect) {
			wlr_scene_node_set_position(&rect->node, box.x, box.y);
		}
	}
	wl_event_source_timer_update(notice->timer, NOTICE_MS);
}
