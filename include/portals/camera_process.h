/* A camera provider's process: started with a pipe for its output and nothing else, and stopped. */
#ifndef CORDON_PORTALS_CAMERA_PROCESS_H
#define CORDON_PORTALS_CAMERA_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct cordon_camera_provider;

struct cordon_camera_process_options {
	uint32_t width, height; /* 0: the provider's own */
	const char *mime_type; /* a photo of this type; NULL: a stream of frames (--stream) */
	const char *app_id; /* told only to providers with AppId = true; may be "" */
	/*
	 * cordon-run's path: the provider runs in a sandbox of its own (docs/portals.md),
	 * with its program's folder at /app and /dev/video* only for Device = video.
	 * NULL: started directly.
	 */
	const char *launcher;
};

struct cordon_camera_process {
	pid_t pid; /* 0 once reaped */
	pid_t pgid; /* its process group, kept after the provider is reaped */
	int pidfd; /* -1 when pidfd_open failed */
	bool launcher; /* pid is cordon-run, which removes its cgroup scope when stopped */
};

/*
 * Starts PROVIDER with OUT_FD as its stdout, stdin /dev/null, a listed environment,
 * its own process group and no other fd. False (errno set) when it cannot start.
 */
bool cordon_camera_process_spawn(struct cordon_camera_process *process,
	const struct cordon_camera_provider *provider,
	const struct cordon_camera_process_options *options, int out_fd);
/* Reaps it if it has exited: true with its wait STATUS, once. */
bool cordon_camera_process_reap(struct cordon_camera_process *process, int *status);
/* Kills what is left of its process group (a child still holding the pipe). */
void cordon_camera_process_kill_group(struct cordon_camera_process *process);
/* Stops it (cordon-run is given a moment to remove its scope), reaps it, closes the pidfd. */
void cordon_camera_process_stop(struct cordon_camera_process *process);

#endif
