/*
 * Fatal errors, as bubblewrap's die_with_error(): every failure of a launch step ends here with
 * what was being done and errno's text, after the host-side state is undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox/launcher/util.h"

/* Process-wide by nature: what this process must undo if it dies, and the --verbose flag. */
static void (*die_cleanup)(void *data);
static void *die_cleanup_data;
static bool verbose;

void cordon_die_set_cleanup(void (*cleanup)(void *data), void *data) {
	die_cleanup = cleanup;
	die_cleanup_data = data;
}

void cordon_set_verbose(bool on) {
	verbose = on;
}

static __attribute__((noreturn, format(printf, 3, 0))) void die_with(
	int status, int err, const char *fmt, va_list ap) {
	fputs("cordon-run: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (err != 0) {
		fprintf(stderr, ": %s", strerror(err));
	}
	if (status == CORDON_RUN_EXIT_USAGE) {
		fputs(" (try cordon-run --help)", stderr);
	}
	fputc('\n', stderr);
	fflush(stderr);
	if (die_cleanup != NULL) {
		void (*cleanup)(void *) = die_cleanup;
		die_cleanup = NULL;
		cleanup(die_cleanup_data);
	}
	_exit(status);
}

void cordon_die_errno(const char *fmt, ...) {
	int err = errno;
	va_list ap;
	va_start(ap, fmt);
	die_with(CORDON_RUN_EXIT_SETUP, err, fmt, ap);
}

void cordon_die(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	die_with(CORDON_RUN_EXIT_SETUP, 0, fmt, ap);
}

void cordon_die_usage(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	die_with(CORDON_RUN_EXIT_USAGE, 0, fmt, ap);
}

void cordon_debug(const char *fmt, ...) {
	if (!verbose) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	fputs("cordon-run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

char *cordon_strdup_printf(const char *fmt, ...) {
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		errno = ENOMEM;
		cordon_die_errno("formatting a string");
	}
	return s;
}

bool cordon_write_file(const char *path, const char *data, size_t len, mode_t mode) {
	cleanup_fd int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0) {
		return false;
	}
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		data += n;
		len -= (size_t)n;
	}
	return true;
}
