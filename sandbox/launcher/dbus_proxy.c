/*
 * The sandbox's session bus (docs/sandbox.md "The session bus"): xdg-dbus-proxy, Debian's
 * filtering proxy (Flatpak's), between the host's bus and a socket that is the only bus
 * socket inside the sandbox. Host side, before the sandbox exists:
 *
 *  1. the upstream address: $DBUS_SESSION_BUS_ADDRESS (else $XDG_RUNTIME_DIR/bus); only
 *     unix:path= and unix:abstract= are proxied, anything else leaves the app without a bus;
 *  2. the identity file the portals read: xdg-desktop-portal and the document portal know
 *     a caller by /proc/PID/root/.flatpak-info of the bus peer, and through a proxy the
 *     peer is the proxy. So the proxy runs in a root of its own holding a .flatpak-info
 *     that names the app and its instance, as Flatpak starts its proxy; the app's root
 *     holds the same file (mounts.c). Both roots are read-only tmpfs in mount namespaces
 *     the app cannot enter, so neither file can be changed by it;
 *  3. the proxy: forked with PR_SET_PDEATHSIG (SIGKILL), in new user and mount namespaces
 *     (but the host's network namespace, for abstract upstream addresses), with /usr, /etc,
 *     the upstream socket and a private dir for its listening socket, no capabilities, a
 *     listed environment, and --fd=3: it writes a byte there once it listens, and exits when
 *     the other end (held by cordon-run alone) closes. cordon-run waits for that byte
 *     before the app starts, and kills and reaps the proxy when the sandbox has ended.
 *
 * The filter (--filter) lets the app talk to the portal frontend and the document portal,
 * own its app id and the names below it, and see nothing else; the profile's dbus-talk,
 * dbus-own and dbus-see add names (common/policy.c checked them when it read the file). The
 * bus driver's own monitoring and eavesdropping calls never pass xdg-dbus-proxy's filter.
 * The system bus is proxied only when dbus-system-talk names something; the accessibility
 * bus (AT-SPI) when dbus-a11y is not false and the host's runs, with Flatpak's rules.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* Where the proxy's root is built, inside its own mount namespace. */
#define PROXY_ROOT "/tmp"
/* The buses one proxy serves at most: session, system, accessibility. */
#define PROXY_BUSES 3
/* How long the proxy may take to listen before the launch fails. */
#define PROXY_READY_MS 10000

/* Names every app may talk to: the portal frontend and the document portal, nothing else. */
static const char *const default_talk[] = {
	"org.freedesktop.portal.Desktop",
	"org.freedesktop.portal.Documents",
};

struct argv_list {
	char **items;
	size_t len, cap;
};

static void argv_add(struct argv_list *list, char *item) {
	if (item == NULL) {
		cordon_die("out of memory building the bus proxy's command");
	}
	if (list->len + 2 > list->cap) {
		list->cap = list->cap ? list->cap * 2 : 32;
		list->items = realloc(list->items, list->cap * sizeof(char *));
		if (list->items == NULL) {
			cordon_die_errno("building the bus proxy's command");
		}
	}
	list->items[list->len++] = item;
	list->items[list->len] = NULL;
}

/* Adds "--RULE=NAME" for each name of a comma-separated policy list. */
static void add_rules(struct argv_list *args, const char *rule, const char *list) {
	if (list == NULL) {
		return;
	}
	const char *p = list;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',') {
			p++;
		}
		size_t len = strcspn(p, ", \t");
		if (len > 0) {
			argv_add(args, cordon_strdup_printf("--%s=%.*s", rule, (int)len, p));
		}
		p += len;
	}
}

/*
 * The socket path of a unix:path= address (its %XX escapes decoded), or NULL for one that
 * needs no file (unix:abstract=). false: a transport the proxy's root cannot serve.
 */
static bool upstream_path(const char *address, char **path) {
	*path = NULL;
	if (strncmp(address, "unix:abstract=", 14) == 0) {
		return true;
	}
	if (strncmp(address, "unix:path=", 10) != 0) {
		return false;
	}
	const char *in = address + 10;
	size_t len = strcspn(in, ",;");
	char *out = calloc(len + 1, 1);
	if (out == NULL) {
		cordon_die_errno("reading the bus address");
	}
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (in[i] == '%' && i + 2 < len && isxdigit((unsigned char)in[i + 1]) &&
			isxdigit((unsigned char)in[i + 2])) {
			char hex[3] = {in[i + 1], in[i + 2], '\0'};
			out[o++] = (char)strtoul(hex, NULL, 16);
			i += 2;
		} else {
			out[o++] = in[i];
		}
	}
	if (out[0] != '/' || memchr(out, '\0', o) != NULL) {
		free(out);
		return false;
	}
	*path = out;
	return true;
}

/* The first address of a bus address list ("a;b"), for the proxy to connect to. */
static char *first_address(const char *list) {
	return cordon_strdup_printf("%.*s", (int)strcspn(list, ";"), list);
}

static char *session_upstream(void) {
	const char *address = getenv("DBUS_SESSION_BUS_ADDRESS");
	if (address != NULL && address[0] != '\0') {
		return first_address(address);
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (runtime == NULL || runtime[0] != '/') {
		return NULL;
	}
	cleanup_free char *path = cordon_strdup_printf("%s/bus", runtime);
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		return NULL;
	}
	return cordon_strdup_printf("unix:path=%s", path);
}

static char *system_upstream(void) {
	const char *address = getenv("DBUS_SYSTEM_BUS_ADDRESS");
	if (address != NULL && address[0] != '\0') {
		return first_address(address);
	}
	return strdup("unix:path=/run/dbus/system_bus_socket");
}

/*
 * The host's accessibility bus, when its launcher already runs (org.a11y.Bus on the session
 * bus): asking an absent one would start at-spi-bus-launcher and its own bus daemon for
 * every launch. NULL when there is none or it does not answer within a second.
 */
static char *a11y_upstream(const char *session) {
	sd_bus *bus = NULL;
	sd_bus_message *reply = NULL;
	sd_bus_error err = SD_BUS_ERROR_NULL;
	char *address = NULL;
	int has_owner = 0;
	const char *text = NULL;
	if (sd_bus_new(&bus) < 0 || sd_bus_set_address(bus, session) < 0 ||
		sd_bus_set_bus_client(bus, 1) < 0 || sd_bus_start(bus) < 0) {
		goto out;
	}
	sd_bus_set_method_call_timeout(bus, 1000 * 1000);
	if (sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		    "org.freedesktop.DBus", "NameHasOwner", &err, &reply, "s",
		    "org.a11y.Bus") < 0 ||
		sd_bus_message_read(reply, "b", &has_owner) < 0 || !has_owner) {
		goto out;
	}
	reply = sd_bus_message_unref(reply);
	if (sd_bus_call_method(bus, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
		    &err, &reply, "") < 0 ||
		sd_bus_message_read(reply, "s", &text) < 0) {
		goto out;
	}
	address = first_address(text);
out:
	if (address == NULL) {
		cordon_debug("no accessibility bus on the host%s%s", err.message ? ": " : "",
			err.message ? err.message : "");
	}
	sd_bus_error_free(&err);
	sd_bus_message_unref(reply);
	sd_bus_flush_close_unref(bus);
	return address;
}

/*
 * What an app may do on the accessibility bus: register its tree with the registry and
 * ask which events and keys are listened to, as Flatpak allows; nothing of other apps.
 */
static const char *const a11y_rules[] = {
	"--sloppy-names",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.Socket.Embed@/org/a11y/atspi/accessible/"
	"root",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.Socket.Unembed@/org/a11y/atspi/accessible/"
	"root",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.Registry.GetRegisteredEvents@/org/a11y/"
	"atspi/registry",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.DeviceEventController."
	"GetKeystrokeListeners@/org/a11y/atspi/registry/deviceeventcontroller",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.DeviceEventController."
	"GetDeviceEventListeners@/org/a11y/atspi/registry/deviceeventcontroller",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.DeviceEventController."
	"NotifyListenersSync@/org/a11y/atspi/registry/deviceeventcontroller",
	"--call=org.a11y.atspi.Registry=org.a11y.atspi.DeviceEventController."
	"NotifyListenersAsync@/org/a11y/atspi/registry/deviceeventcontroller",
};

/* xdg-dbus-proxy from PATH; it must lie below /usr, the only program dir in its root. */
static char *find_proxy(void) {
	const char *path = getenv("PATH");
	if (path == NULL) {
		path = "/usr/bin:/bin";
	}
	while (*path != '\0') {
		size_t len = strcspn(path, ":");
		char *candidate = cordon_strdup_printf("%.*s/xdg-dbus-proxy", (int)len, path);
		char resolved[PATH_MAX];
		if (len > 0 && access(candidate, X_OK) == 0 &&
			realpath(candidate, resolved) != NULL &&
			strncmp(resolved, "/usr/", 5) == 0) {
			free(candidate);
			return strdup(resolved);
		}
		free(candidate);
		path += len + (path[len] == ':');
	}
	return NULL;
}

/*
 * The identity xdg-desktop-portal 1.16 reads (xdp_app_info_load_flatpak): [Application]
 * name is the app id, [Instance] instance-id the instance; [Context] shared tells GLib's
 * network monitor and the portal whether the app has the network, [Session Bus Policy] what
 * the proxy lets through (GLib decides from it whether dconf is reachable: it is not).
 */
static char *identity_file(const struct cordon_launch *launch) {
	const struct cordon_launch_options *o = &launch->options;
	struct argv_list policy = {0};
	const char *lists[] = {o->dbus_talk, o->dbus_own, o->dbus_see};
	const char *levels[] = {"talk", "own", "see"};
	for (size_t l = 0; l < 3; l++) {
		struct argv_list names = {0};
		add_rules(&names, "x", lists[l]);
		for (size_t i = 0; i < names.len; i++) {
			argv_add(&policy,
				cordon_strdup_printf("%s=%s\n", names.items[i] + 4, levels[l]));
			free(names.items[i]);
		}
		free(names.items);
	}
	size_t total = 1;
	for (size_t i = 0; i < policy.len; i++) {
		total += strlen(policy.items[i]);
	}
	char *bus_policy = calloc(total, 1);
	if (bus_policy == NULL) {
		cordon_die_errno("building the identity file");
	}
	for (size_t i = 0; i < policy.len; i++) {
		strcat(bus_policy, policy.items[i]);
		free(policy.items[i]);
	}
	free(policy.items);
	char *text = cordon_strdup_printf("[Application]\n"
					  "name=%s\n"
					  "\n"
					  "[Instance]\n"
					  "instance-id=%s\n"
					  "session-bus-proxy=true\n"
					  "system-bus-proxy=%s\n"
					  "\n"
					  "[Context]\n"
					  "shared=%s\n"
					  "\n"
					  "[Session Bus Policy]\n"
					  "%s",
		o->app_id, launch->instance, launch->dbus_system_socket != NULL ? "true" : "false",
		o->share_network ? "network;" : "", bus_policy);
	free(bus_policy);
	return text;
}

/* An app id that is also a valid bus name (two elements or more, none starting with a digit). */
static bool id_is_bus_name(const char *id) {
	if (strchr(id, '.') == NULL) {
		return false;
	}
	for (const char *p = id; *p != '\0'; p++) {
		if ((p == id || p[-1] == '.') && *p >= '0' && *p <= '9') {
			return false;
		}
	}
	return true;
}

static void make_dirs(const char *path) {
	cleanup_free char *copy = cordon_strdup_printf(PROXY_ROOT "%s", path);
	for (char *p = copy + strlen(PROXY_ROOT) + 1; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(copy, 0755) < 0 && errno != EEXIST) {
				cordon_die_errno("creating %s in the bus proxy's root", copy);
			}
			*p = '/';
		}
	}
	if (mkdir(copy, 0755) < 0 && errno != EEXIST) {
		cordon_die_errno("creating %s in the bus proxy's root", copy);
	}
}

/* Binds fd (a file or dir of the host) at path in the proxy's root. */
static void proxy_bind(int fd, const char *path, bool is_dir, bool read_only) {
	cleanup_free char *parent = strdup(path);
	if (parent == NULL) {
		cordon_die_errno("binding %s", path);
	}
	if (is_dir) {
		make_dirs(path);
	} else {
		*strrchr(parent, '/') = '\0';
		if (parent[0] != '\0') {
			make_dirs(parent);
		}
		cleanup_free char *file = cordon_strdup_printf(PROXY_ROOT "%s", path);
		cleanup_fd int created = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
		if (created < 0) {
			cordon_die_errno("creating the mount point %s", file);
		}
	}
	char source[64];
	snprintf(source, sizeof(source), "/proc/self/fd/%d", fd);
	cleanup_free char *target = cordon_strdup_printf(PROXY_ROOT "%s", path);
	if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) < 0) {
		cordon_die_errno("binding %s in the bus proxy's root", path);
	}
	struct mount_attr attr = {
		.attr_set =
			MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (read_only ? MOUNT_ATTR_RDONLY : 0),
	};
	if (mount_setattr(AT_FDCWD, target, AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
		cordon_die_errno("restricting %s in the bus proxy's root", path);
	}
}

static int open_host(const char *path, int flags) {
	int fd = open(path, O_PATH | O_CLOEXEC | flags);
	if (fd < 0) {
		cordon_die_errno("opening %s for the bus proxy", path);
	}
	return fd;
}

/* The host's merged-/usr links (/bin -> usr/bin...), as links; real dirs are bound. */
static void proxy_top_level(void) {
	static const char *const top[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		struct stat st;
		if (lstat(top[i], &st) < 0) {
			continue;
		}
		cleanup_free char *at = cordon_strdup_printf(PROXY_ROOT "%s", top[i]);
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(top[i], target, sizeof(target) - 1);
			if (n < 0) {
				cordon_die_errno("reading the link %s", top[i]);
			}
			target[n] = '\0';
			if (symlink(target, at) < 0) {
				cordon_die_errno("linking %s in the bus proxy's root", top[i]);
			}
		} else if (S_ISDIR(st.st_mode)) {
			cleanup_fd int fd = open_host(top[i], O_DIRECTORY);
			proxy_bind(fd, top[i], true, true);
		}
	}
}

static void write_self_file(const char *path, const char *text) {
	if (!cordon_write_file(path, text, strlen(text), 0)) {
		cordon_die_errno("writing %s", path);
	}
}

/* The proxy's process: its namespaces and root, then exec. Never returns. */
static __attribute__((noreturn)) void run_proxy(struct cordon_launch *launch, char **argv,
	char **upstream_paths, int sync_fd, pid_t parent) {
	cordon_die_set_cleanup(NULL, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		cordon_die_errno("setting the bus proxy's parent-death signal");
	}
	if (getppid() != parent) {
		_exit(CORDON_RUN_EXIT_SETUP); /* cordon-run died before the prctl */
	}
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		cordon_die_errno("creating the bus proxy's namespaces");
	}
	char map[64];
	write_self_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "%u %u 1\n", launch->uid, launch->uid);
	write_self_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "%u %u 1\n", launch->gid, launch->gid);
	write_self_file("/proc/self/gid_map", map);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		cordon_die_errno("making the bus proxy's mount namespace private");
	}
	/* Opened here, before the root covers /tmp: mount(2) binds only this namespace's mounts. */
	cleanup_fd int usr = open_host("/usr", O_DIRECTORY);
	cleanup_fd int etc = open_host("/etc", O_DIRECTORY);
	cleanup_fd int dir = open_host(launch->dbus_dir, O_DIRECTORY | O_NOFOLLOW);
	int upstream[PROXY_BUSES] = {-1, -1, -1};
	for (size_t i = 0; i < PROXY_BUSES && upstream_paths[i] != NULL; i++) {
		upstream[i] = open_host(upstream_paths[i], 0);
	}
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (mount("tmpfs", PROXY_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0) {
		cordon_die_errno("mounting the bus proxy's root");
	}
	proxy_bind(usr, "/usr", true, true);
	proxy_top_level();
	proxy_bind(etc, "/etc", true, true);
	proxy_bind(dir, launch->dbus_dir, true, false);
	for (size_t i = 0; i < PROXY_BUSES && upstream_paths[i] != NULL; i++) {
		proxy_bind(upstream[i], upstream_paths[i], false, false);
	}
	if (!cordon_write_file(PROXY_ROOT "/.flatpak-info", launch->dbus_identity,
		    strlen(launch->dbus_identity), 0444)) {
		cordon_die_errno("writing the bus proxy's /.flatpak-info");
	}
	if (mount(NULL, PROXY_ROOT, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
		    NULL) < 0) {
		cordon_die_errno("making the bus proxy's root read-only");
	}
	if (chdir(PROXY_ROOT) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
		umount2(".", MNT_DETACH) < 0 || chdir("/") < 0) {
		cordon_die_errno("pivoting into the bus proxy's root");
	}
	if (setsid() < 0) {
		cordon_die_errno("starting the bus proxy's session");
	}
	cordon_launch_drop_capabilities();
	if (null >= 0) {
		dup2(null, 0);
		if (!launch->options.verbose) {
			dup2(null, 1);
		}
	}
	/* dup2 onto itself would keep close-on-exec: the proxy must inherit fd 3. */
	if ((sync_fd == 3 ? fcntl(3, F_SETFD, 0) : dup2(sync_fd, 3)) < 0) {
		cordon_die_errno("handing the bus proxy its sync fd");
	}
	close_range(4, ~0U, 0);
	char *env[] = {"PATH=/usr/bin:/bin", NULL};
	execve(argv[0], argv, env);
	cordon_die_errno("running %s", argv[0]);
}

/* Adds one bus to the proxy's command: upstream, the socket, the filter and its rules. */
static void add_bus(struct argv_list *args, const char *upstream, const char *socket) {
	argv_add(args, strdup(upstream));
	argv_add(args, strdup(socket));
	argv_add(args, strdup("--filter"));
}

void cordon_launch_dbus_proxy_start(struct cordon_launch *launch) {
	const struct cordon_launch_options *o = &launch->options;
	if (o->no_dbus) {
		return;
	}
	cleanup_free char *upstream = session_upstream();
	cleanup_free char *session_path = NULL;
	if (upstream == NULL) {
		cordon_debug("no session bus on the host: the app has no D-Bus");
		return;
	}
	if (!upstream_path(upstream, &session_path)) {
		fprintf(stderr,
			"cordon-run: warning: the session bus address '%.200s' is not unix:path= or "
			"unix:abstract=: the app has no D-Bus\n",
			upstream);
		return;
	}
	/*
	 * A bus the user cannot reach (another user's runtime dir) is no bus, as the
	 * document portal's view is no documents: not an error.
	 */
	if (session_path != NULL && access(session_path, R_OK | W_OK) < 0) {
		cordon_debug("the session bus at %s is not ours to use (%s): the app has no D-Bus",
			session_path, strerror(errno));
		return;
	}
	cleanup_free char *proxy = find_proxy();
	if (proxy == NULL) {
		fprintf(stderr,
			"cordon-run: warning: xdg-dbus-proxy is not installed (in /usr): the "
			"app has no D-Bus\n");
		return;
	}
	cleanup_free char *system = NULL;
	cleanup_free char *system_path = NULL;
	bool want_system = o->dbus_system_talk != NULL && o->dbus_system_talk[0] != '\0';
	if (want_system) {
		system = system_upstream();
		if (!upstream_path(system, &system_path)) {
			cordon_die(
				"the system bus address '%.200s' is not unix:path= or unix:abstract=",
				system);
		}
	}

	cleanup_free char *a11y = o->dbus_a11y ? a11y_upstream(upstream) : NULL;
	cleanup_free char *a11y_path = NULL;
	if (a11y != NULL && !upstream_path(a11y, &a11y_path)) {
		cordon_debug("the accessibility bus address '%.200s' cannot be proxied", a11y);
		free(a11y);
		a11y = NULL;
	}

	const char *runtime = getenv("XDG_RUNTIME_DIR");
	const char *base = runtime != NULL && runtime[0] == '/' ? runtime : "/tmp";
	char *dir = cordon_strdup_printf("%s/cordon-run-bus-XXXXXX", base);
	if (mkdtemp(dir) == NULL) {
		cordon_debug(
			"cannot make a private dir in %s for the app's bus (%s): the app has no "
			"D-Bus",
			base, strerror(errno));
		free(dir);
		return;
	}
	launch->dbus_dir = dir;
	launch->dbus_socket = cordon_strdup_printf("%s/bus", dir);
	if (want_system) {
		launch->dbus_system_socket = cordon_strdup_printf("%s/system_bus_socket", dir);
	}
	if (a11y != NULL) {
		launch->dbus_a11y_socket = cordon_strdup_printf("%s/a11y-bus", dir);
	}
	launch->dbus_identity = identity_file(launch);

	struct argv_list args = {0};
	argv_add(&args, strdup(proxy));
	argv_add(&args, strdup("--fd=3"));
	add_bus(&args, upstream, launch->dbus_socket);
	for (size_t i = 0; i < sizeof(default_talk) / sizeof(default_talk[0]); i++) {
		argv_add(&args, cordon_strdup_printf("--talk=%s", default_talk[i]));
	}
	if (id_is_bus_name(o->app_id)) {
		/* ID.* matches ID itself and every name below it. */
		argv_add(&args, cordon_strdup_printf("--own=%s.*", o->app_id));
	} else {
		cordon_debug("the app id %s is not a bus name: it owns no name", o->app_id);
	}
	add_rules(&args, "talk", o->dbus_talk);
	add_rules(&args, "own", o->dbus_own);
	add_rules(&args, "see", o->dbus_see);
	if (want_system) {
		add_bus(&args, system, launch->dbus_system_socket);
		add_rules(&args, "talk", o->dbus_system_talk);
	}
	if (a11y != NULL) {
		add_bus(&args, a11y, launch->dbus_a11y_socket);
		for (size_t i = 0; i < sizeof(a11y_rules) / sizeof(a11y_rules[0]); i++) {
			argv_add(&args, strdup(a11y_rules[i]));
		}
	}
	for (size_t i = 0; i < args.len; i++) {
		cordon_debug("bus proxy argv[%zu]: %s", i, args.items[i]);
	}

	int sync[2];
	if (pipe2(sync, O_CLOEXEC) < 0) {
		cordon_die_errno("creating the bus proxy's sync pipe");
	}
	/* The upstream sockets the proxy's root needs (abstract addresses need none). */
	char *paths[PROXY_BUSES + 1] = {NULL};
	size_t n_paths = 0;
	char *all[] = {session_path, system_path, a11y_path};
	for (size_t i = 0; i < PROXY_BUSES; i++) {
		if (all[i] != NULL) {
			paths[n_paths++] = all[i];
		}
	}
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		cordon_die_errno("starting the bus proxy");
	}
	if (pid == 0) {
		close(sync[0]);
		run_proxy(launch, args.items, paths, sync[1], parent);
	}
	close(sync[1]);
	for (size_t i = 0; i < args.len; i++) {
		free(args.items[i]);
	}
	free(args.items);
	launch->dbus_proxy_pid = pid;
	launch->dbus_sync_fd = sync[0];

	/* The proxy writes one byte once its sockets listen; EOF: it died first. */
	struct pollfd ready = {.fd = sync[0], .events = POLLIN};
	int n;
	do {
		n = poll(&ready, 1, PROXY_READY_MS);
	} while (n < 0 && errno == EINTR);
	char byte;
	if (n <= 0 || read(sync[0], &byte, 1) != 1) {
		cordon_die("the bus proxy (xdg-dbus-proxy) did not start%s",
			n == 0 ? " within 10 s" : "");
	}
	launch->dbus_socket_fd = open(launch->dbus_socket, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (launch->dbus_socket_fd < 0) {
		cordon_die_errno("opening the app's bus socket %s", launch->dbus_socket);
	}
	if (want_system) {
		launch->dbus_system_socket_fd =
			open(launch->dbus_system_socket, O_PATH | O_CLOEXEC | O_NOFOLLOW);
		if (launch->dbus_system_socket_fd < 0) {
			cordon_die_errno("opening the app's system bus socket");
		}
	}
	if (a11y != NULL) {
		launch->dbus_a11y_socket_fd =
			open(launch->dbus_a11y_socket, O_PATH | O_CLOEXEC | O_NOFOLLOW);
		if (launch->dbus_a11y_socket_fd < 0) {
			cordon_die_errno("opening the app's accessibility bus socket");
		}
	}
	cordon_debug("session bus: xdg-dbus-proxy pid %d for %s at %s%s%s", (int)pid, upstream,
		launch->dbus_socket, want_system ? ", with the system bus" : "",
		a11y != NULL ? ", with the accessibility bus" : "");
}

void cordon_launch_dbus_proxy_finish(struct cordon_launch *launch) {
	if (launch->dbus_proxy_pid > 0) {
		kill(launch->dbus_proxy_pid, SIGKILL);
		while (waitpid(launch->dbus_proxy_pid, NULL, 0) < 0 && errno == EINTR) {
		}
		launch->dbus_proxy_pid = -1;
	}
	int *fds[] = {
		&launch->dbus_sync_fd, &launch->dbus_socket_fd, &launch->dbus_system_socket_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
	char **paths[] = {
		&launch->dbus_socket, &launch->dbus_system_socket, &launch->dbus_a11y_socket};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (*paths[i] != NULL) {
			unlink(*paths[i]);
			free(*paths[i]);
			*paths[i] = NULL;
		}
	}
	if (launch->dbus_dir != NULL) {
		rmdir(launch->dbus_dir);
		free(launch->dbus_dir);
		launch->dbus_dir = NULL;
	}
	free(launch->dbus_identity);
	launch->dbus_identity = NULL;
	if (launch->instance_dir != NULL) {
		cleanup_free char *info =
			cordon_strdup_printf("%s/bwrapinfo.json", launch->instance_dir);
		unlink(info);
		rmdir(launch->instance_dir);
		free(launch->instance_dir);
		launch->instance_dir = NULL;
	}
}

/*
 * xdg-desktop-portal 1.22 knows a Flatpak caller by the .flatpak-info of its bus peer (the
 * proxy, above), then maps the caller's pids through the pid namespace of the instance's
 * "child-pid" in $XDG_RUNTIME_DIR/.flatpak/INSTANCE/bwrapinfo.json, and refuses the call
 * without it. The sandbox's init has the app's namespaces. The directory is the host's,
 * out of the sandbox's sight (its XDG_RUNTIME_DIR is a private tmpfs): the app cannot
 * point the portal at another process.
 */
void cordon_launch_dbus_identity_publish(struct cordon_launch *launch, pid_t pid) {
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (launch->dbus_identity == NULL || runtime == NULL || runtime[0] != '/') {
		return;
	}
	cleanup_free char *flatpak = cordon_strdup_printf("%s/.flatpak", runtime);
	if (mkdir(flatpak, 0700) < 0 && errno != EEXIST) {
		cordon_debug("cannot make %s (%s): portals will not know the app", flatpak,
			strerror(errno));
		return;
	}
	char *dir = cordon_strdup_printf("%s/%s", flatpak, launch->instance);
	if (mkdir(dir, 0700) < 0) {
		cordon_debug(
			"cannot make %s (%s): portals will not know the app", dir, strerror(errno));
		free(dir);
		return;
	}
	launch->instance_dir = dir;
	cleanup_free char *info = cordon_strdup_printf("%s/bwrapinfo.json", dir);
	cleanup_free char *text = cordon_strdup_printf("{\n    \"child-pid\": %d\n}\n", (int)pid);
	if (!cordon_write_file(info, text, strlen(text), 0600)) {
		cordon_debug("cannot write %s (%s): portals will not know the app", info,
			strerror(errno));
	}
}
