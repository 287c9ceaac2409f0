/* Letting go of an fd or an event source once, through a pointer that is then cleared. */
#ifndef CORDON_COMMON_RELEASE_H
#define CORDON_COMMON_RELEASE_H

#include <unistd.h>
#include <wayland-server-core.h>

/* Closes *FD if open and sets it to -1: safe to call again on every path. */
static inline void cordon_close_fd(int *fd) {
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Removes *SOURCE if set and clears it. */
static inline void cordon_remove_source(struct wl_event_source **source) {
	if (*source) {
		wl_event_source_remove(*source);
		*source = NULL;
	}
}

#endif
