/*
 * The Wayland fuzzer's session bus (wayland_bus.h). The bus is the test suite's
 * (tests/lib/harness.sh start_session_bus): a dbus-daemon of the session type, listening in
 * the scratch folder, whose only service folder lists the document portal and its
 * permission store, so that nothing else of the machine's is activated (a notification
 * daemon would be a Wayland client of the user's desktop).
 *
 * Nothing outlives the fuzzer, even killed: dbus-daemon gets a parent-death signal, and the
 * services it activated leave when their bus connection closes (GDBus's exit-on-close; a
 * parent-death signal of their own would fire at once, as dbus-daemon's launcher process
 * that forks them exits); the fuzzer first takes a mount namespace of its own, so the
 * portal's FUSE view goes with the last process in it. A normal exit kills them and
 * unmounts the view itself.
 */
#include "wayland_bus.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#define PORTAL_NAME "org.freedesktop.portal.Documents"
#define PORTAL_PATH "/org/freedesktop/portal/documents"
#define STORE_NAME "org.freedesktop.impl.portal.PermissionStore"
#define DOCUMENT_PORTAL "/usr/libexec/xdg-document-portal"
#define PERMISSION_STORE "/usr/libexec/xdg-permission-store"
/* How long dbus-daemon may take to listen, and the portal to answer its first call. */
#define START_SECONDS 20

struct fuzz_bus {
	sd_bus *bus; /* the fuzzer's own connection: documents are listed and deleted through it */
	pid_t daemon;
	pid_t services[2]; /* the portal and the permission store, 0 when not known */
	char mount_point[FUZZ_DOCUMENT_PATH_MAX];
	char view[FUZZ_DOCUMENT_PATH_MAX]; /* $XDG_RUNTIME_DIR/doc, where the portal mounts it */
};

/* For the exit handler, which takes no argument. */
static struct fuzz_bus *bus_at_exit;

__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "fuzz-wayland: session bus: ");
	vfprintf(stderr, fmt, args);
	fprintf(stderr, "\n");
	va_end(args);
	abort();
}

/* The program's path on PATH, or NULL. */
static char *find_program(const char *name, char *out, size_t size) {
	const char *path = getenv("PATH");
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", path && *path ? path : "/usr/bin:/bin");
	char *save = NULL;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s", dir, name);
		if (access(out, X_OK) == 0) {
			return out;
		}
	}
	return NULL;
}

static void write_file(const char *path, const char *text) {
	FILE *file = fopen(path, "we");
	if (!file || fputs(text, file) < 0 || fclose(file) != 0) {
		fail("cannot write %s: %s", path, strerror(errno));
	}
}

static void write_service(const char *dir, const char *name, const char *program) {
	char path[1024], text[1024];
	snprintf(path, sizeof(path), "%s/%s.service", dir, name);
	snprintf(text, sizeof(text), "[D-BUS Service]\nName=%s\nExec=%s\n", name, program);
	write_file(path, text);
}

/*
 * A mount namespace of the fuzzer's own: the portal's FUSE view, mounted by a child, is then
 * nowhere else, and goes when the fuzzer and its children do (a kill leaves no stale mount
 * in the caller's namespace). Without the privilege (outside scripts/env), the exit handler's
 * unmount is all there is.
 */
static void private_mounts(void) {
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		if (getenv("CORDON_FUZZ_DEBUG")) {
			fprintf(stderr, "fuzz-wayland: no mount namespace of its own (%s)\n",
				strerror(errno));
		}
	}
}

static pid_t start_daemon(const char *dbus_daemon, const char *config) {
	/* Made before the fork: the child of a process with threads calls nothing that locks. */
	char option[600];
	snprintf(option, sizeof(option), "--config-file=%s", config);
	bool quiet = !getenv("CORDON_FUZZ_DEBUG");
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fail("fork: %s", strerror(errno));
	}
	if (pid > 0) {
		return pid;
	}
	/* The fuzzer may be killed: dbus-daemon goes with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) {
		_exit(1);
	}
	if (quiet) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	execl(dbus_daemon, "dbus-daemon", "--nofork", "--nopidfile", option, (char *)NULL);
	_exit(127);
}

static void wait_listening(struct fuzz_bus *bus) {
	struct timespec pause = {.tv_nsec = 10 * 1000 * 1000};
	for (int i = 0; i < START_SECONDS * 100; i++) {
		int status;
		if (waitpid(bus->daemon, &status, WNOHANG) == bus->daemon) {
			fail("dbus-daemon exited at start (CORDON_FUZZ_DEBUG=1 shows its output)");
		}
		if (sd_bus_open_user(&bus->bus) >= 0) {
			return;
		}
		bus->bus = NULL;
		nanosleep(&pause, NULL);
	}
	fail("dbus-daemon did not listen within %d s", START_SECONDS);
}

static pid_t owner_pid(struct fuzz_bus *bus, const char *name) {
	uint32_t pid = 0;
	sd_bus_message *reply = NULL;
	if (sd_bus_call_method(bus->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		    "org.freedesktop.DBus", "GetConnectionUnixProcessID", NULL, &reply, "s",
		    name) >= 0) {
		sd_bus_message_read(reply, "u", &pid);
	}
	sd_bus_message_unref(reply);
	return (pid_t)pid;
}

/* Asks for the mount point: the bus starts the portal, which mounts its view. */
static void start_portal(struct fuzz_bus *bus) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(bus->bus, PORTAL_NAME, PORTAL_PATH, PORTAL_NAME, "GetMountPoint",
		&error, &reply, "");
	const void *path = NULL;
	size_t size = 0;
	if (r < 0 || sd_bus_message_read_array(reply, 'y', &path, &size) < 0 || size == 0 ||
		size >= sizeof(bus->mount_point)) {
		fail("the document portal (%s) did not answer: %s", DOCUMENT_PORTAL,
			error.message ? error.message : strerror(r < 0 ? -r : EBADMSG));
	}
	memcpy(bus->mount_point, path, size);
	bus->mount_point[size] = '\0';
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	bus->services[0] = owner_pid(bus, PORTAL_NAME);
	bus->services[1] = owner_pid(bus, STORE_NAME);
}

static void stop(void) {
	struct fuzz_bus *bus = bus_at_exit;
	if (!bus) {
		return;
	}
	bus_at_exit = NULL;
	bus->bus = sd_bus_flush_close_unref(bus->bus);
	for (int i = 0; i < 2; i++) {
		if (bus->services[i] > 0) {
			kill(bus->services[i], SIGKILL);
		}
	}
	kill(bus->daemon, SIGKILL);
	waitpid(bus->daemon, NULL, 0);
	/*
	 * The portal is gone: its view would be a dead mount that fails every access. Without
	 * the privilege to unmount (no mount namespace of its own), fusermount3 does it.
	 */
	if (umount2(bus->view, MNT_DETACH) != 0 && errno == EPERM) {
		char *argv[] = {"fusermount3", "-u", "-z", bus->view, NULL};
		pid_t pid;
		if (posix_spawnp(&pid, "fusermount3", NULL, NULL, argv, environ) == 0) {
			waitpid(pid, NULL, 0);
		}
	}
	free(bus);
}

struct fuzz_bus *fuzz_bus_start(const char *dir) {
	char dbus_daemon[FUZZ_DOCUMENT_PATH_MAX];
	if (!find_program("dbus-daemon", dbus_daemon, sizeof(dbus_daemon))) {
		fail("no dbus-daemon on PATH: the Wayland target fuzzes file grants through a real "
		     "session bus (install dbus-daemon)");
	}
	if (access(DOCUMENT_PORTAL, X_OK) != 0 || access(PERMISSION_STORE, X_OK) != 0) {
		fail("no %s or %s: the Wayland target fuzzes file grants through the real document "
		     "portal (install xdg-desktop-portal)",
			DOCUMENT_PORTAL, PERMISSION_STORE);
	}
	struct fuzz_bus *bus = calloc(1, sizeof(*bus));
	if (!bus) {
		fail("out of memory");
	}
	private_mounts();
	/* dir is the scratch folder's path, at most 255 bytes (wayland_cordon.c). */
	char services[512], config[512];
	char text[4096];
	snprintf(services, sizeof(services), "%s/dbus-services", dir);
	snprintf(config, sizeof(config), "%s/session-bus.conf", dir);
	if (mkdir(services, 0700) != 0) {
		fail("%s: %s", services, strerror(errno));
	}
	write_service(services, PORTAL_NAME, DOCUMENT_PORTAL);
	write_service(services, STORE_NAME, PERMISSION_STORE);
	snprintf(text, sizeof(text),
		"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
		" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig>\n"
		"  <type>session</type>\n"
		"  <listen>unix:path=%s/bus</listen>\n"
		"  <servicedir>%s</servicedir>\n"
		"  <policy context=\"default\">\n"
		"    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
		"    <allow eavesdrop=\"true\"/>\n"
		"    <allow own=\"*\"/>\n"
		"  </policy>\n"
		"</busconfig>\n",
		dir, services);
	write_file(config, text);
	snprintf(text, sizeof(text), "unix:path=%s/bus", dir);
	setenv("DBUS_SESSION_BUS_ADDRESS", text, 1);
	snprintf(bus->view, sizeof(bus->view), "%s/doc", dir);

	bus->daemon = start_daemon(dbus_daemon, config);
	bus_at_exit = bus;
	atexit(stop);
	wait_listening(bus);
	start_portal(bus);
	return bus;
}

const char *fuzz_bus_mount_point(const struct fuzz_bus *bus) {
	return bus->mount_point;
}

void fuzz_bus_each_document(struct fuzz_bus *bus, const char *app_id,
	void (*each)(void *data, const char *id, const char *path), void *data) {
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	if (sd_bus_call_method(bus->bus, PORTAL_NAME, PORTAL_PATH, PORTAL_NAME, "List", &error,
		    &reply, "s", app_id) < 0 ||
		sd_bus_message_enter_container(reply, 'a', "{say}") < 0) {
		fail("the document portal's List failed: %s",
			error.message ? error.message : "a bad reply");
	}
	while (sd_bus_message_enter_container(reply, 'e', "say") > 0) {
		const char *id = NULL;
		const void *bytes = NULL;
		size_t size = 0;
		if (sd_bus_message_read(reply, "s", &id) < 0 ||
			sd_bus_message_read_array(reply, 'y', &bytes, &size) < 0 ||
			sd_bus_message_exit_container(reply) < 0) {
			fail("a bad reply to the document portal's List");
		}
		/* The path is NUL-terminated bytes; a longer one is cut, never read past. */
		char path[FUZZ_DOCUMENT_PATH_MAX];
		size_t length = strnlen(bytes, size);
		if (length >= sizeof(path)) {
			length = sizeof(path) - 1;
		}
		memcpy(path, bytes, length);
		path[length] = '\0';
		each(data, id, path);
	}
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
}

static void forget(void *data, const char *id, const char *path) {
	struct fuzz_bus *bus = data;
	sd_bus_error error = SD_BUS_ERROR_NULL;
	if (sd_bus_call_method(bus->bus, PORTAL_NAME, PORTAL_PATH, PORTAL_NAME, "Delete", &error,
		    NULL, "s", id) < 0) {
		fail("the document portal's Delete of %s failed: %s", id, error.message);
	}
	sd_bus_error_free(&error);
}

void fuzz_bus_forget_documents(struct fuzz_bus *bus, const char *app_id) {
	fuzz_bus_each_document(bus, app_id, forget, bus);
}
