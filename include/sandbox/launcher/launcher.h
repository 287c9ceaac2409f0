/* cordon-run: what a launch is made of, and the ordered steps that build the sandbox. */
#ifndef CORDON_SANDBOX_LAUNCHER_LAUNCHER_H
#define CORDON_SANDBOX_LAUNCHER_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CORDON_LAUNCH_INSTANCE_LEN 16

struct cordon_launch_options {
	const char *app_id;
	const char *app_dir; /* --app: bound read-only at /app */
	const char *image; /* --image: a squashfs or erofs image mounted read-only at /app */
	const char *image_mount; /* --image-mount=kernel|fuse; NULL: kernel as root, else fuse */
	const char *runtime; /* --runtime: bound read-only at /usr instead of the host's /usr */
	const char *cgroup_parent; /* --cgroup-parent: where the scope is made */
	bool share_network; /* --share=network */
	bool allow_devel; /* --allow=devel: ptrace, kcmp, pidfd_getfd and /proc writes allowed */
	bool no_wayland; /* --no-wayland */
	bool no_dbus; /* --no-dbus: no session bus inside */
	bool x11; /* --x11 or x11 = yes: an X display of the sandbox's own (x11.c) */
	/* dbus_proxy.c: the profile's bus names (comma-separated, checked by common/policy.c) */
	char *dbus_talk;
	char *dbus_own;
	char *dbus_see;
	char *dbus_system_talk; /* NULL or empty: no system bus inside */
	bool dbus_a11y; /* dbus-a11y: the accessibility bus through the proxy (default true) */
	const char *profile; /* --profile: NULL is the app's profile from policy.ini */
	const char *policy_path; /* --policy: NULL is the default policy.ini */
	bool device_dri; /* devices = dri: /dev/dri */
	bool device_video; /* devices = video: /dev/video* */
	bool verbose;
	char **setenv; /* --setenv VAR=VALUE words, NULL-terminated */
	size_t setenv_len;
	char **argv; /* the command, NULL-terminated */
};

/* The host-side state of one launch: everything the sandbox is built from, opened as fds. */
struct cordon_launch {
	struct cordon_launch_options options;
	uid_t uid;
	gid_t gid;
	char *user_name;
	char instance[CORDON_LAUNCH_INSTANCE_LEN + 1];

	/* O_PATH/O_DIRECTORY fds, opened before any namespace exists (see appdirs.c). */
	int app_fd;
	int usr_fd;
	int data_fd;
	int config_fd;
	int cache_fd;
	int documents_fd; /* documents.c: the document portal's view for this app, or -1 */
	char *documents_host_path; /* documents.c: the portal's mount point on the host */
	int image_mount_fd; /* image.c: the image as a detached mount (fsmount), or -1 */
	char *image_path; /* the image's absolute path, for squashfuse */
	bool image_fuse; /* the image is served by squashfuse */
	int fuse_fd; /* the sandbox's /dev/fuse fd, received once it mounted; -1 before */
	int fuse_ready_read, fuse_ready_write; /* socket pair the sandbox sends that fd on */
	pid_t fuse_pid; /* squashfuse */

	/* cgroup.c */
	char *cgroup_path; /* the scope, absolute on the host; NULL until made */
	int cgroup_fd;
	bool systemd_scope; /* made by the systemd user manager, which also removes it */
	pid_t scope_helper_pid; /* systemd_scope.c: holds the scope until the sandbox is in it */

	/* wayland.c */
	char *wayland_dir; /* private temp dir holding the listening socket */
	char *wayland_socket_path;
	int wayland_socket_fd; /* O_PATH fd of the socket file, the bind source */
	int wayland_close_fd; /* our end of the close_fd pipe: closing it ends the listener */

	/* x11.c */
	int x11_socket_fd; /* O_PATH fd of the X server's socket, the bind source; -1 for none */
	int x11_close_fd; /* our end of the X display's close_fd pipe: closing it ends it */

	/* dbus_proxy.c */
	char *dbus_dir; /* private temp dir holding the proxy's sockets */
	char *dbus_socket; /* the session bus socket the proxy listens on */
	char *dbus_system_socket; /* the system bus one, or NULL */
	char *dbus_a11y_socket; /* the accessibility bus one, or NULL */
	char *dbus_identity; /* the .flatpak-info text, in the proxy's root and the app's */
	int dbus_socket_fd; /* O_PATH fds of the sockets, the bind sources */
	int dbus_system_socket_fd;
	int dbus_a11y_socket_fd;
	int dbus_sync_fd; /* read end of the proxy's --fd: closing it stops the proxy */
	pid_t dbus_proxy_pid;
	char *instance_dir; /* $XDG_RUNTIME_DIR/.flatpak/INSTANCE, holding bwrapinfo.json */

	/* namespaces.c: the read end of a pipe whose write end only the launcher holds */
	int parent_alive_fd;
};

/* profile.c: folds the app's profile (policy.ini, common/policy.c) into the options. */
void cordon_launch_apply_profile(struct cordon_launch_options *options);

/* appdirs.c: the app dir, the /usr source and the per-app data dirs, as safe fds. */
void cordon_launch_open_dirs(struct cordon_launch *launch);

/* documents.c: the host's document portal view of this app, if the portal is mounted. */
void cordon_launch_open_documents(struct cordon_launch *launch);

/* image.c: --image as a detached kernel mount (root), or the FUSE fd for squashfuse. */
void cordon_launch_mount_image(struct cordon_launch *launch);
/* image.c, in the sandbox: the FUSE mount at target (a path in the new root). */
void cordon_launch_mount_fuse_in_sandbox(struct cordon_launch *launch, const char *target);
/* image.c, host side after spawn: starts squashfuse once the sandbox has mounted. */
void cordon_launch_serve_image(struct cordon_launch *launch);
/* image.c: stops squashfuse and closes what the image needed. */
void cordon_launch_finish_image(struct cordon_launch *launch);

/* image.c: --image as a detached kernel mount (root), or the FUSE fd for squashfuse. */
void cordon_launch_mount_image(struct cordon_launch *launch);
/* image.c, in the sandbox: the FUSE mount at target (a path in the new root). */
void cordon_launch_mount_fuse_in_sandbox(struct cordon_launch *launch, const char *target);
/* image.c, host side after spawn: starts squashfuse once the sandbox has mounted. */
void cordon_launch_serve_image(struct cordon_launch *launch);
/* image.c: stops squashfuse and closes what the image needed. */
void cordon_launch_finish_image(struct cordon_launch *launch);

/* dbus_proxy.c: xdg-dbus-proxy for the app's session bus, listening before the app starts. */
void cordon_launch_dbus_proxy_start(struct cordon_launch *launch);
/*
 * dbus_proxy.c: publishes the sandbox's init (PID) where xdg-desktop-portal 1.22 looks for
 * a process with the caller's namespaces, as Flatpak's bwrapinfo.json; with an identity only.
 */
void cordon_launch_dbus_identity_publish(struct cordon_launch *launch, pid_t pid);
/* dbus_proxy.c: kills and reaps the proxy, removes its sockets and dir. */
void cordon_launch_dbus_proxy_finish(struct cordon_launch *launch);

/* cgroup.c */
void cordon_launch_create_scope(struct cordon_launch *launch);
void cordon_launch_remove_scope(struct cordon_launch *launch);

/* systemd_scope.c: the scope from the systemd user manager; false if none answers or it fails. */
bool cordon_launch_systemd_scope(struct cordon_launch *launch, const char *name);
/* systemd_scope.c: ends the placeholder process once the sandbox is in the scope. */
void cordon_launch_release_scope_helper(struct cordon_launch *launch);

/* wayland.c */
void cordon_launch_wayland_listen(struct cordon_launch *launch);
void cordon_launch_wayland_finish(struct cordon_launch *launch);

/*
 * x11.c: refuses --x11 where the sandbox could reach the host's abstract unix sockets
 * (--share=network without Landlock's scoping).
 */
void cordon_launch_x11_check(const struct cordon_launch_options *options);
/* x11.c, on wayland.c's connection to cordon: the sandbox's X display, with --x11. */
struct wl_display;
void cordon_launch_x11_request(struct cordon_launch *launch, struct wl_display *display);
/* x11.c: ends the X display (closes our end of its close_fd) and the socket's fd. */
void cordon_launch_x11_finish(struct cordon_launch *launch);

/* namespaces.c: starts the sandbox; returns the pid of its init (in the host's pid ns). */
pid_t cordon_launch_spawn(struct cordon_launch *launch);

/* mounts.c, in the sandbox: builds the root and pivots into it. */
void cordon_launch_setup_mounts(struct cordon_launch *launch);

/* capabilities.c, in the sandbox: no_new_privs and no capability left in any set. */
void cordon_launch_drop_capabilities(void);

/* seccomp.c, in the sandbox: loads the deny table (seccomp.c) for every architecture. */
void cordon_launch_load_seccomp(const struct cordon_launch_options *options);

/*
 * landlock.c, in the sandbox after the pivot, while init still holds the caller's stdio: the
 * app's ruleset (abstract unix sockets scoped to the app, nothing under /proc writable unless
 * devel), or -1 where the kernel has no Landlock (with a warning).
 */
int cordon_launch_landlock_prepare(const struct cordon_launch_options *options);
/* landlock.c: whether this kernel can scope abstract unix sockets to the app (ABI 6). */
bool cordon_launch_landlock_scopes_abstract_sockets(void);
/* landlock.c, in the command's process before exec: enters the ruleset and closes it. */
void cordon_launch_landlock_enter(int ruleset);

/* env.c: the clean, listed environment the command starts with. */
char **cordon_launch_environment(const struct cordon_launch *launch);

#endif
