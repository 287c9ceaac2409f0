/*
 * Frame pacing for headless outputs: a frame event only while a frame is owed.
 *
 * A display sends its frame event after a page flip, so a compositor with nothing to draw
 * commits nothing and sleeps. wlroots 0.15's headless backend instead fires a timer every
 * refresh for the life of the output (backend/headless/output.c, signal_frame re-arms it
 * unconditionally), so a headless cordon woke 60 times a second with no client at all, to
 * find nothing damaged. wlroots 0.16 made that timer run only after a commit with a buffer;
 * this is the same behaviour for 0.15, from outside the backend:
 *
 * - after a frame that committed no buffer, the timer is stopped (from an idle callback,
 *   because signal_frame re-arms it after the frame handlers return);
 * - a commit with a buffer (frame_pending in wlroots' words) starts it, so the frame event
 *   that ends that frame comes one refresh later, as from a display;
 * - anything that needs drawing goes through wlr_output_schedule_frame (damage, a frame
 *   callback without damage, screencopy, gamma), which sends a frame at once when none is
 *   pending, with or without the timer.
 *
 * The backend's output struct is private, so its layout is mirrored here for exactly the
 * wlroots release meson accepts (0.15), and checked against what it must hold before it is
 * trusted; if the check fails the backend keeps ticking, as before.
 */
#include "compositor/headless_pacing.h"

#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/log.h>
#include <wlr/version.h>

#if WLR_VERSION_MAJOR != 0 || WLR_VERSION_MINOR != 15
#error "headless_pacing.c mirrors wlroots 0.15's struct wlr_headless_output: check it again"
#endif

/* wlroots 0.15.x include/backend/headless.h, struct wlr_headless_output. */
struct headless_output_0_15 {
	struct wlr_output wlr_output;
	void *backend;
	struct wl_list link;
	struct wl_event_source *frame_timer;
	int frame_delay; /* ms */
};

struct cordon_headless_pacing {
	struct wlr_output *wlr_output;
	struct headless_output_0_15 *headless; /* the same output, its backend's view */
	struct wl_event_loop *loop;
	struct wl_event_source *stop_idle;

	struct wl_listener frame;
	struct wl_listener commit;
};

/* The mirrored fields are what they must be, or the layout is not the one above. */
static struct headless_output_0_15 *headless_output(struct wlr_output *wlr_output) {
	if (!wlr_output_is_headless(wlr_output) || wlr_output->refresh <= 0) {
		return NULL;
	}
	struct headless_output_0_15 *headless = (struct headless_output_0_15 *)wlr_output;
	if (headless->frame_timer == NULL || headless->link.next == NULL ||
		headless->link.next->prev != &headless->link ||
		headless->frame_delay != 1000000 / wlr_output->refresh) {
		return NULL;
	}
	return headless;
}

static void handle_stop_idle(void *data) {
	struct cordon_headless_pacing *pacing = data;
	pacing->stop_idle = NULL;
	/* A buffer committed since the frame is owed its frame event: keep the timer. */
	if (!pacing->wlr_output->frame_pending) {
		wl_event_source_timer_update(pacing->headless->frame_timer, 0);
	}
}

static void handle_frame(struct wl_listener *listener, void *data) {
	struct cordon_headless_pacing *pacing = wl_container_of(listener, pacing, frame);
	/* Added after the output's own frame listener, so this frame's commit is done. */
	if (pacing->wlr_output->frame_pending || pacing->stop_idle) {
		return;
	}
	pacing->stop_idle = wl_event_loop_add_idle(pacing->loop, handle_stop_idle, pacing);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct cordon_headless_pacing *pacing = wl_container_of(listener, pacing, commit);
	struct wlr_output_event_commit *event = data;
	/* frame_delay is read now: a mode set changes it. */
	if (event->committed & WLR_OUTPUT_STATE_BUFFER) {
		int delay = pacing->headless->frame_delay;
		wl_event_source_timer_update(pacing->headless->frame_timer, delay > 0 ? delay : 1);
	}
}

struct cordon_headless_pacing *cordon_headless_pacing_create(
	struct wlr_output *wlr_output, struct wl_event_loop *loop) {
	struct headless_output_0_15 *headless = headless_output(wlr_output);
	if (!headless) {
		if (wlr_output_is_headless(wlr_output)) {
			wlr_log(WLR_INFO,
				"Output %s: not the headless layout of wlroots 0.15; it "
				"keeps its frame timer running",
				wlr_output->name);
		}
		return NULL;
	}
	struct cordon_headless_pacing *pacing = calloc(1, sizeof(*pacing));
	if (!pacing) {
		return NULL;
	}
	pacing->wlr_output = wlr_output;
	pacing->loop = loop;
	pacing->headless = headless;
	pacing->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &pacing->frame);
	pacing->commit.notify = handle_commit;
	wl_signal_add(&wlr_output->events.commit, &pacing->commit);
	return pacing;
}

void cordon_headless_pacing_destroy(struct cordon_headless_pacing *pacing) {
	if (!pacing) {
		return;
	}
	if (pacing->stop_idle) {
		wl_event_source_remove(pacing->stop_idle);
	}
	wl_list_remove(&pacing->frame.link);
	wl_list_remove(&pacing->commit.link);
	free(pacing);
}
