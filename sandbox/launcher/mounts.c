/*
 * cordon's app layout (docs/sandbox.md), built in the sandbox's own mount namespace. Everything
 * the app sees is listed here, in order; nothing of the host is visible unless it is bound
 * below. The root is a tmpfs made read-only at the end, so the app cannot add to it.
 *
 *	/usr            host /usr or --runtime, read-only, nosuid, nodev (recursively)
 *	/bin /lib* /sbin  the host's merged-/usr links (or read-only binds where not merged)
 *	/etc            ld.so.cache, fonts, ssl, ca-certificates, alternatives, localtime,
 *	                resolv.conf (with network only), generated passwd, group, hosts
 *	/app            --app or --image, read-only
 *	/tmp            private tmpfs
 *	/dev            null zero full random urandom tty, a new devpts, shm; /dev/dri and
 *	                /dev/video* only when the profile's devices list them
 *	/proc           a new proc for the new pid namespace, /proc/sys & co read-only
 *	/run/user/UID   private tmpfs: XDG_RUNTIME_DIR, holding only wayland-0 and, with the
 *	                host's document portal, doc (the app's own documents, documents.c)
 *	/home/USER      private tmpfs: HOME, with the per-app data, config and cache dirs at
 *	                .local/share, .config and .cache
 *
 * Mount sources from the host are fds opened before the namespaces (appdirs.c, wayland.c).
 * mount(2) refuses to bind a mount of another namespace, so each is opened once more here, by
 * its kernel-given path, with no symlink allowed anywhere on the way (openat2
 * RESOLVE_NO_SYMLINKS), and must be the very inode the host side opened (device and inode
 * compared); it is then bound through /proc/self/fd/N. A directory the app swapped for a
 * symlink since is refused, never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* Where the new root is built: a tmpfs over /tmp of this private mount namespace. */
#define NEWROOT "/tmp"

static char *at_root(const char *path) {
	return cordon_strdup_printf(NEWROOT "%s", path);
}

static void make_dir(const char *path, mode_t mode) {
	cleanup_free char *p = at_root(path);
	if (mkdir(p, mode) < 0 && errno != EEXIST) {
		cordon_die_errno("creating %s in the sandbox", path);
	}
	/* mkdir applies the umask; the layout's modes (1777 for /tmp) must be exact. */
	if (chmod(p, mode) < 0) {
		cordon_die_errno("setting the mode of %s in the sandbox", path);
	}
}

static void make_file(const char *path) {
	cleanup_free char *p = at_root(path);
	cleanup_fd int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
	if (fd < 0) {
		cordon_die_errno("creating the mount point %s in the sandbox", path);
	}
}

static void make_symlink(const char *target, const char *path) {
	cleanup_free char *p = at_root(path);
	if (symlink(target, p) < 0) {
		cordon_die_errno("creating the link %s -> %s in the sandbox", path, target);
	}
}

static void write_root_file(const char *path, const char *text) {
	cleanup_free char *p = at_root(path);
	if (!cordon_write_file(p, text, strlen(text), 0644)) {
		cordon_die_errno("writing %s in the sandbox", path);
	}
}

static void mount_tmpfs(const char *path, const char *mode) {
	cleanup_free char *p = at_root(path);
	cleanup_free char *opts = cordon_strdup_printf("mode=%s", mode);
	if (mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
		cordon_die_errno("mounting a tmpfs at %s in the sandbox", path);
	}
}

/*
 * Makes the mount at path (and everything below it) read-only, nosuid and nodev. Only adds
 * restrictions, which a user namespace may always do, and covers submounts a plain remount
 * would miss.
 */
static void restrict_mount(const char *full, bool read_only) {
	struct mount_attr attr = {
		.attr_set =
			MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (read_only ? MOUNT_ATTR_RDONLY : 0),
	};
	if (mount_setattr(AT_FDCWD, full, AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
		cordon_die_errno("making %s %s", full, read_only ? "read-only" : "nosuid");
	}
}

/* Binds the file or directory source (a path on the host) at path in the new root. */
static void bind_path(const char *source, const char *path, bool read_only) {
	cleanup_free char *p = at_root(path);
	if (mount(source, p, NULL, MS_BIND | MS_REC, NULL) < 0) {
		cordon_die_errno("binding %s at %s in the sandbox", source, path);
	}
	restrict_mount(p, read_only);
}

static void bind_fd(int fd, const char *path, bool read_only) {
	char source[64];
	snprintf(source, sizeof(source), "/proc/self/fd/%d", fd);
	bind_path(source, path, read_only);
}

/* Replaces *fd (opened in the host's mount namespace) with the same inode opened in ours. */
static void reopen_here(int *fd, const char *what) {
	if (*fd < 0) {
		return;
	}
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", *fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n < 0) {
		cordon_die_errno("finding the path of %s", what);
	}
	path[n] = '\0';
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int again = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (again < 0) {
		cordon_die_errno("reopening %s (%s) without following symlinks", what, path);
	}
	struct stat before, after;
	if (fstat(*fd, &before) < 0 || fstat(again, &after) < 0) {
		cordon_die_errno("checking %s", what);
	}
	if (before.st_dev != after.st_dev || before.st_ino != after.st_ino) {
		cordon_die("%s (%s) was replaced while the sandbox was being set up", what, path);
	}
	close(*fd);
	*fd = again;
}

/* The host's /bin, /lib... as they are: a link into /usr where /usr is merged, else a bind. */
static void mirror_top_level(const char *name) {
	cleanup_free char *host = cordon_strdup_printf("/%s", name);
	struct stat st;
	if (lstat(host, &st) < 0) {
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(host, target, sizeof(target) - 1);
		if (n < 0) {
			cordon_die_errno("reading the link %s", host);
		}
		target[n] = '\0';
		make_symlink(target, host);
	} else if (S_ISDIR(st.st_mode)) {
		make_dir(host, 0755);
		bind_path(host, host, true);
	}
}

/* An /etc entry from the host, if the host has it: files and dirs bound, links copied. */
static void mirror_etc(const char *path) {
	struct stat st;
	if (lstat(path, &st) < 0) {
		return;
	}
	if (S_ISLNK(st.st_mode) && strcmp(path, "/etc/resolv.conf") != 0) {
		char target[PATH_MAX];
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n < 0) {
			cordon_die_errno("reading the link %s", path);
		}
		target[n] = '\0';
		make_symlink(target, path);
		return;
	}
	/* resolv.conf is often a link into /run, which the sandbox lacks: bind what it names. */
	if (stat(path, &st) < 0) {
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		make_dir(path, 0755);
	} else {
		make_file(path);
	}
	bind_path(path, path, true);
}

static void setup_etc(const struct cordon_launch *launch, const char *home) {
	make_dir("/etc", 0755);
	static const char *const entries[] = {
		"/etc/ld.so.cache",
		"/etc/fonts",
		"/etc/ssl",
		"/etc/ca-certificates",
		"/etc/alternatives",
		"/etc/localtime",
	};
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		mirror_etc(entries[i]);
	}
	if (launch->options.share_network) {
		mirror_etc("/etc/resolv.conf");
	}
	/* Only the user and the usual system ids: the host's account list stays on the host. */
	cleanup_free char *passwd = cordon_strdup_printf(
		"%s:x:%u:%u::%s:/bin/sh\n%snobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n",
		launch->user_name, launch->uid, launch->gid, home,
		launch->uid != 0 ? "root:x:0:0::/root:/usr/sbin/nologin\n" : "");
	cleanup_free char *group = cordon_strdup_printf("%s:x:%u:\n%snogroup:x:65534:\n",
		launch->gid == 0 ? "root" : launch->user_name, launch->gid,
		launch->gid != 0 ? "root:x:0:\n" : "");
	write_root_file("/etc/passwd", passwd);
	write_root_file("/etc/group", group);
	write_root_file("/etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost\n");
	write_root_file("/etc/hostname", "cordon\n");
}

static void setup_dev(void) {
	make_dir("/dev", 0755);
	mount_tmpfs("/dev", "0755");
	static const char *const nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		cleanup_free char *path = cordon_strdup_printf("/dev/%s", nodes[i]);
		make_file(path);
		cleanup_free char *p = at_root(path);
		if (mount(path, p, NULL, MS_BIND, NULL) < 0) {
			cordon_die_errno("binding %s in the sandbox", path);
		}
	}
	/* A devpts of its own: the sandbox's terminals are not the host's /dev/pts/N. */
	make_dir("/dev/pts", 0755);
	cleanup_free char *pts = at_root("/dev/pts");
	if (mount("devpts", pts, "devpts", MS_NOSUID | MS_NOEXEC,
		    "newinstance,ptmxmode=0666,mode=620") < 0) {
		cordon_die_errno("mounting a new devpts in the sandbox");
	}
	make_symlink("pts/ptmx", "/dev/ptmx");
	make_dir("/dev/shm", 01777);
	mount_tmpfs("/dev/shm", "1777");
	make_symlink("/proc/self/fd", "/dev/fd");
	make_symlink("/proc/self/fd/0", "/dev/stdin");
	make_symlink("/proc/self/fd/1", "/dev/stdout");
	make_symlink("/proc/self/fd/2", "/dev/stderr");
}

/* A host device node or dir of nodes, usable (no nodev) but nosuid and noexec. */
static void bind_device(const char *path, bool dir) {
	if (dir) {
		make_dir(path, 0755);
	} else {
		make_file(path);
	}
	cleanup_free char *p = at_root(path);
	if (mount(path, p, NULL, MS_BIND | MS_REC, NULL) < 0) {
		cordon_die_errno("binding the device %s in the sandbox", path);
	}
	struct mount_attr attr = {.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC};
	if (mount_setattr(AT_FDCWD, p, AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
		cordon_die_errno("making the device %s nosuid", path);
	}
}

/* devices = dri, video in the app's profile (profile.c). Absent hardware is not an error. */
static void setup_devices(const struct cordon_launch_options *o) {
	if (o->device_dri && access("/dev/dri", F_OK) == 0) {
		bind_device("/dev/dri", true);
	}
	if (!o->device_video) {
		return;
	}
	for (int i = 0; i < 64; i++) {
		char path[32];
		snprintf(path, sizeof(path), "/dev/video%d", i);
		if (access(path, F_OK) == 0) {
			bind_device(path, false);
		}
	}
}

static void setup_proc(void) {
	make_dir("/proc", 0555);
	cleanup_free char *p = at_root("/proc");
	/* Mounted before the pivot: the kernel allows a new proc only where one is fully visible.
	 */
	if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		cordon_die_errno("mounting /proc in the sandbox");
	}
	/* As bubblewrap: the global knobs in proc stay read-only even for uid 0 in here. */
	static const char *const read_only[] = {"sys", "sysrq-trigger", "irq", "bus"};
	for (size_t i = 0; i < sizeof(read_only) / sizeof(read_only[0]); i++) {
		cleanup_free char *sub = cordon_strdup_printf("%s/%s", p, read_only[i]);
		if (access(sub, F_OK) < 0) {
			continue;
		}
		if (mount(sub, sub, NULL, MS_BIND | MS_REC, NULL) < 0) {
			cordon_die_errno("binding /proc/%s read-only", read_only[i]);
		}
		restrict_mount(sub, true);
	}
}

static void setup_home(const struct cordon_launch *launch, const char *home) {
	make_dir("/home", 0755);
	make_dir(home, 0700);
	mount_tmpfs(home, "0700");
	cleanup_free char *local = cordon_strdup_printf("%s/.local", home);
	cleanup_free char *share = cordon_strdup_printf("%s/.local/share", home);
	cleanup_free char *config = cordon_strdup_printf("%s/.config", home);
	cleanup_free char *cache = cordon_strdup_printf("%s/.cache", home);
	make_dir(local, 0700);
	make_dir(share, 0700);
	make_dir(config, 0700);
	make_dir(cache, 0700);
	bind_fd(launch->data_fd, share, false);
	bind_fd(launch->config_fd, config, false);
	bind_fd(launch->cache_fd, cache, false);
}

static void setup_runtime_dir(const struct cordon_launch *launch) {
	cleanup_free char *dir = cordon_strdup_printf("/run/user/%u", launch->uid);
	make_dir("/run", 0755);
	make_dir("/run/user", 0755);
	make_dir(dir, 0700);
	mount_tmpfs(dir, "0700");
	if (launch->wayland_socket_fd >= 0) {
		cleanup_free char *socket = cordon_strdup_printf("%s/wayland-0", dir);
		make_file(socket);
		bind_fd(launch->wayland_socket_fd, socket, false);
	}
	if (launch->dbus_socket_fd >= 0) {
		/* The proxy's socket (dbus_proxy.c): the only bus socket in the sandbox. */
		cleanup_free char *bus = cordon_strdup_printf("%s/bus", dir);
		make_file(bus);
		bind_fd(launch->dbus_socket_fd, bus, false);
	}
	if (launch->dbus_a11y_socket_fd >= 0) {
		cleanup_free char *at_spi = cordon_strdup_printf("%s/at-spi", dir);
		cleanup_free char *bus = cordon_strdup_printf("%s/at-spi/bus", dir);
		make_dir(at_spi, 0700);
		make_file(bus);
		bind_fd(launch->dbus_a11y_socket_fd, bus, false);
	}
	if (launch->documents_fd >= 0) {
		/* Writable (the portal checks each document's permissions), nosuid, nodev. */
		cleanup_free char *doc = cordon_strdup_printf("%s/doc", dir);
		make_dir(doc, 0700);
		bind_fd(launch->documents_fd, doc, false);
	}
}

/*
 * The portals name documents by the host's mount point (the document portal's
 * GetMountPoint): where the host's runtime dir is not /run/user/UID (a test's private one),
 * a link there to the app's own view lets those paths resolve inside. Only in the sandbox's
 * own tmpfs dirs; a path that would shadow the layout is left alone.
 */
static void link_host_documents(const struct cordon_launch *launch) {
	const char *host = launch->documents_host_path;
	cleanup_free char *inside = cordon_strdup_printf("/run/user/%u/doc", launch->uid);
	if (launch->documents_fd < 0 || host == NULL || strcmp(host, inside) == 0 ||
		strncmp(host, "/tmp/", 5) != 0 || strstr(host, "/../") != NULL) {
		return;
	}
	cleanup_free char *parent = strdup(host);
	if (parent == NULL) {
		return;
	}
	for (char *p = parent + 5; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			make_dir(parent, 0755);
			*p = '/';
		}
	}
	make_symlink(inside, host);
}

/* Turns the new root into / and drops the host's root from the namespace. */
static void pivot(void) {
	if (chdir(NEWROOT) < 0) {
		cordon_die_errno("entering the new root");
	}
	/* pivot_root(".", ".") stacks the old root on the new one; detaching "." then removes it.
	 */
	if (syscall(SYS_pivot_root, ".", ".") < 0) {
		cordon_die_errno("pivot_root into the new root");
	}
	if (umount2(".", MNT_DETACH) < 0) {
		cordon_die_errno("detaching the host's root");
	}
	if (chdir("/") < 0) {
		cordon_die_errno("entering /");
	}
}

void cordon_launch_setup_mounts(struct cordon_launch *launch) {
	/* Nothing done in here propagates to the host, and nothing from the host comes in. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		cordon_die_errno("making the mount namespace private");
	}
	reopen_here(&launch->usr_fd, "/usr");
	reopen_here(&launch->app_fd, "the --app dir");
	reopen_here(&launch->data_fd, "the app's data dir");
	reopen_here(&launch->config_fd, "the app's config dir");
	reopen_here(&launch->cache_fd, "the app's cache dir");
	reopen_here(&launch->wayland_socket_fd, "the app's Wayland socket");
	reopen_here(&launch->documents_fd, "the app's documents");
	reopen_here(&launch->x11_socket_fd, "the app's X socket");
	reopen_here(&launch->dbus_socket_fd, "the app's bus socket");
	reopen_here(&launch->dbus_system_socket_fd, "the app's system bus socket");
	reopen_here(&launch->dbus_a11y_socket_fd, "the app's accessibility bus socket");
	if (mount("tmpfs", NEWROOT, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0) {
		cordon_die_errno("mounting the sandbox's root tmpfs");
	}
	cleanup_free char *home = cordon_strdup_printf("/home/%s", launch->user_name);

	make_dir("/usr", 0755);
	bind_fd(launch->usr_fd, "/usr", true);
	static const char *const top[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"};
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		mirror_top_level(top[i]);
	}
	setup_etc(launch, home);
	if (launch->app_fd >= 0) {
		make_dir("/app", 0755);
		bind_fd(launch->app_fd, "/app", true);
	}
	if (launch->image_mount_fd >= 0) {
		/* The detached mount image.c made: attached here, in this namespace only. */
		make_dir("/app", 0755);
		cleanup_free char *app = at_root("/app");
		if (move_mount(launch->image_mount_fd, "", AT_FDCWD, app, MOVE_MOUNT_F_EMPTY_PATH) <
			0) {
			cordon_die_errno("attaching the --image mount at /app");
		}
	}
	if (launch->image_fuse) {
		make_dir("/app", 0755);
		cleanup_free char *app = at_root("/app");
		cordon_launch_mount_fuse_in_sandbox(launch, app);
	}
	make_dir("/tmp", 01777);
	mount_tmpfs("/tmp", "1777");
	if (launch->x11_socket_fd >= 0) {
		/* The sandbox's own X server (x11.c) as display 0; the host's sockets stay out. */
		make_dir("/tmp/.X11-unix", 01777);
		make_file("/tmp/.X11-unix/X0");
		bind_fd(launch->x11_socket_fd, "/tmp/.X11-unix/X0", false);
	}
	make_dir("/var", 0755);
	make_symlink("../tmp", "/var/tmp");
	setup_dev();
	setup_devices(&launch->options);
	setup_proc();
	setup_runtime_dir(launch);
	setup_home(launch, home);
	link_host_documents(launch);
	if (launch->dbus_system_socket_fd >= 0) {
		make_dir("/run/dbus", 0755);
		make_file("/run/dbus/system_bus_socket");
		bind_fd(launch->dbus_system_socket_fd, "/run/dbus/system_bus_socket", false);
	}
	if (launch->dbus_identity != NULL) {
		/*
		 * The same identity the proxy's root holds: what GLib and GTK read to use the
		 * portals. 0444 in a root made read-only below: the app cannot change it.
		 */
		cleanup_free char *p = at_root("/.flatpak-info");
		if (!cordon_write_file(
			    p, launch->dbus_identity, strlen(launch->dbus_identity), 0444)) {
			cordon_die_errno("writing /.flatpak-info in the sandbox");
		}
	}

	/* The root itself: read-only, so the app cannot add a /sys or anything else to it. */
	if (mount(NULL, NEWROOT, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
		    NULL) < 0) {
		cordon_die_errno("making the sandbox's root read-only");
	}
	pivot();
}
