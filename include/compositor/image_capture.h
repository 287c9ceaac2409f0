/* ext-image-copy-capture for host clients: outputs, and windows named by ext-foreign-toplevel-list.
 */
#ifndef CORDON_COMPOSITOR_IMAGE_CAPTURE_H
#define CORDON_COMPOSITOR_IMAGE_CAPTURE_H

struct cordon_server;

struct cordon_image_capture *cordon_image_capture_create(struct cordon_server *server);
void cordon_image_capture_destroy(struct cordon_image_capture *capture);

#endif
