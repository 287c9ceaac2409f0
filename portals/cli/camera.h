/* cordon-portal's camera commands: take-photo and camera-stream. */
#ifndef CORDON_PORTAL_CLI_CAMERA_H
#define CORDON_PORTAL_CLI_CAMERA_H

/* argv[1] is "take-photo" or "camera-stream"; returns the exit status. */
int cordon_portal_camera_main(int argc, char *argv[]);

#endif
