/* Occlusion culling: views that opaque content above covers entirely are not drawn. */
#ifndef CORDON_COMPOSITOR_OCCLUSION_H
#define CORDON_COMPOSITOR_OCCLUSION_H

struct cordon_server;

/*
 * Marks every view that opaque, input-accepting surfaces above it cover entirely as
 * occluded (and every other view as not), then applies cordon_view_update_enabled.
 * Called before the scene is rendered (each output frame, each screenshot), so that
 * what is drawn always matches the current stacking and opaque regions.
 */
void cordon_occlusion_update(struct cordon_server *server);

#endif
