/* Headless outputs send frame events only while a frame is owed, as a display does. */
#ifndef CORDON_COMPOSITOR_HEADLESS_PACING_H
#define CORDON_COMPOSITOR_HEADLESS_PACING_H

#include <wayland-server-core.h>

struct wlr_output;
struct cordon_headless_pacing;

/*
 * Call after the output's own frame listener is added. NULL for an output of another backend
 * (their frames already follow commits) or when wlroots' headless layout is not the one
 * expected; such an output keeps wlroots' behaviour.
 */
struct cordon_headless_pacing *cordon_headless_pacing_create(
	struct wlr_output *wlr_output, struct wl_event_loop *loop);
void cordon_headless_pacing_destroy(struct cordon_headless_pacing *pacing);

#endif
