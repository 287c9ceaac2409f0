/* cordon-portal's camera commands: take-photo and camera-stream. */
#ifndef CORDON_PORTAL_CLI_CAMERA_H
#define CORDON_PORTAL_CLI_CAMERA_H

/*
 * argv[1] is "take-photo" or "camera-stream"; returns the exit status. No wait (for the
 * answer, for a frame) lasts longer than timeout_ms.
 */
int cordon_portal_camera_main(int argc, char *argv[], int timeout_ms);

#endif
