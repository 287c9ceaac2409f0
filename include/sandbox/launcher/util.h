/* cordon-run's fatal-error path and cleanup attributes, shared by every launch step. */
#ifndef CORDON_SANDBOX_LAUNCHER_UTIL_H
#define CORDON_SANDBOX_LAUNCHER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

/* Exit status of cordon-run when the sandbox could not be set up (as env(1) does). */
#define CORDON_RUN_EXIT_SETUP 125
/* Exit status for a bad command line. */
#define CORDON_RUN_EXIT_USAGE 2

/* Prints "cordon-run: MESSAGE: strerror(errno)" and exits; see cordon_die_set_cleanup. */
__attribute__((noreturn, format(printf, 1, 2))) void cordon_die_errno(const char *fmt, ...);
/* The same without errno text. */
__attribute__((noreturn, format(printf, 1, 2))) void cordon_die(const char *fmt, ...);
/* The same with exit status CORDON_RUN_EXIT_USAGE and a hint to --help. */
__attribute__((noreturn, format(printf, 1, 2))) void cordon_die_usage(const char *fmt, ...);
/* A message only with --verbose. */
__attribute__((format(printf, 1, 2))) void cordon_debug(const char *fmt, ...);
void cordon_set_verbose(bool verbose);

/*
 * The host side registers what must be undone when it dies (cgroup scope, socket, temp dir);
 * the sandbox side clears it as its first step, so a failure inside never removes the host's
 * state twice. The dying process runs the hook and leaves with _exit, never with exit(): the
 * sandbox is a copy of the launcher and must not run its atexit handlers.
 */
void cordon_die_set_cleanup(void (*cleanup)(void *data), void *data);

/* malloc'd printf; dies when out of memory. */
__attribute__((format(printf, 1, 2))) char *cordon_strdup_printf(const char *fmt, ...);

/* Writes the whole of data to path (created with mode, truncated). Returns false with errno. */
bool cordon_write_file(const char *path, const char *data, size_t len, mode_t mode);

static inline void cordon_cleanup_close(int *fd) {
	if (*fd >= 0) {
		close(*fd);
	}
}

static inline void cordon_cleanup_free(void *p) {
	free(*(void **)p);
}

#define cleanup_fd __attribute__((cleanup(cordon_cleanup_close)))
#define cleanup_free __attribute__((cleanup(cordon_cleanup_free)))

#endif
