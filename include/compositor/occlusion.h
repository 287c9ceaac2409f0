/* Occlusion: views that are shown, yet of which nothing is visible on any output. */
#ifndef CORDON_COMPOSITOR_OCCLUSION_H
#define CORDON_COMPOSITOR_OCCLUSION_H

struct cordon_server;

/*
 * Marks every shown view of which the scene draws nothing (covered entirely by opaque
 * content above, or off every output) as occluded, and every other view as not. Called
 * before each output frame and screenshot, so that the verdict matches the current
 * stacking and opaque regions.
 */
void cordon_occlusion_update(struct cordon_server *server);

#endif
