/*
 * --image FILE: the app's files as one read-only squashfs or erofs image, mounted at /app.
 *
 * As root the image is attached to a loop device (read-only, autoclear) and mounted with the
 * new mount API into a detached mount: fsmount gives an fd to a mount that is in no
 * namespace, so the host never sees it and there is nothing to unmount. The sandbox's init
 * attaches it at /app with move_mount; when the sandbox and the launcher's fd are gone the
 * kernel drops the mount and autoclear frees the loop device.
 *
 * Without root (or with --image-mount=fuse) the image is read by squashfuse, in user space:
 * the kernel does not mount squashfs or erofs in a user namespace (a crafted image would be a
 * kernel attack surface), but it does mount FUSE there. The sandbox's init, which holds
 * CAP_SYS_ADMIN over its own namespaces only, opens /dev/fuse (the kernel wants the device
 * opened in the user namespace that mounts it), makes a detached FUSE mount on it
 * (fsopen("fuse", fd=N)), attaches it at /app and hands the device fd to the launcher over a
 * socket (SCM_RIGHTS); the launcher starts squashfuse on it (a mount point "/dev/fd/N" is
 * libfuse's way to serve a mount made by someone else). squashfuse runs on the host side, outside
 * the sandbox, as the user, with a listed environment; it dies with the launcher (PDEATHSIG) and is
 * stopped when the app exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/launcher/launcher.h"
#include "sandbox/launcher/util.h"

/* The filesystem in the image, from its superblock magic; NULL if neither. */
static const char *image_type(int fd) {
	unsigned char magic[4];
	if (pread(fd, magic, 4, 0) == 4 && memcmp(magic, "hsqs", 4) == 0) {
		return "squashfs";
	}
	/* erofs: 0xE0F5E1E2, little endian, at byte 1024. */
	if (pread(fd, magic, 4, 1024) == 4 && magic[0] == 0xE2 && magic[1] == 0xE1 &&
		magic[2] == 0xF5 && magic[3] == 0xE0) {
		return "erofs";
	}
	return NULL;
}

static int attach_loop(int image_fd, const char *image) {
	cleanup_fd int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (control < 0) {
		cordon_die_errno("--image %s: opening /dev/loop-control", image);
	}
	/* Another process may take the free device first: try again with the next one. */
	for (int attempt = 0; attempt < 16; attempt++) {
		int n = ioctl(control, LOOP_CTL_GET_FREE);
		if (n < 0) {
			cordon_die_errno("--image %s: finding a free loop device", image);
		}
		char path[32];
		snprintf(path, sizeof(path), "/dev/loop%d", n);
		int loop = open(path, O_RDONLY | O_CLOEXEC);
		if (loop < 0) {
			cordon_die_errno("--image %s: opening %s", image, path);
		}
		struct loop_config config = {
			.fd = (uint32_t)image_fd,
			.info = {.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR},
		};
		if (ioctl(loop, LOOP_CONFIGURE, &config) == 0) {
			return loop;
		}
		int err = errno;
		close(loop);
		if (err != EBUSY) {
			errno = err;
			cordon_die_errno("--image %s: attaching it to %s", image, path);
		}
	}
	cordon_die("--image %s: no loop device stayed free", image);
}

/* The kernel path: a loop device and a detached mount, made here on the host side. */
static void mount_with_kernel(struct cordon_launch *launch, int image_fd, const char *type) {
	const char *image = launch->options.image;
	if (geteuid() != 0) {
		cordon_die(
			"--image %s --image-mount=kernel: mounting a %s image in the kernel needs "
			"root; without it cordon-run uses squashfuse (--image-mount=fuse)",
			image, type);
	}
	cleanup_fd int loop = attach_loop(image_fd, image);
	char source[32];
	snprintf(source, sizeof(source), "/proc/self/fd/%d", loop);
	cleanup_fd int fs = fsopen(type, FSOPEN_CLOEXEC);
	if (fs < 0) {
		cordon_die_errno("--image %s: fsopen(%s)", image, type);
	}
	if (fsconfig(fs, FSCONFIG_SET_STRING, "source", source, 0) < 0 ||
		fsconfig(fs, FSCONFIG_SET_FLAG, "ro", NULL, 0) < 0 ||
		fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		cordon_die_errno("--image %s: mounting it as %s (a damaged image?)", image, type);
	}
	launch->image_mount_fd = fsmount(
		fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (launch->image_mount_fd < 0) {
		cordon_die_errno("--image %s: fsmount", image);
	}
	cordon_debug("image %s (%s) mounted by the kernel, detached, for /app", image, type);
}

/* The FUSE path, host side: the device fd and the pipe the sandbox reports its mount on. */
static void prepare_fuse(struct cordon_launch *launch, const char *type) {
	const char *image = launch->options.image;
	if (strcmp(type, "squashfs") != 0) {
		cordon_die("--image %s: squashfuse reads squashfs only, this is %s (as root, "
			   "--image-mount=kernel mounts it)",
			image, type);
	}
	launch->image_path = realpath(image, NULL);
	if (launch->image_path == NULL) {
		cordon_die_errno("--image %s", image);
	}
	/* Fail early and clearly where the user may not use FUSE at all. */
	if (access("/dev/fuse", R_OK | W_OK) < 0) {
		cordon_die_errno("--image %s: squashfuse needs /dev/fuse", image);
	}
	launch->image_fuse = true;
	int ready[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ready) < 0) {
		cordon_die_errno("creating a socket pair");
	}
	launch->fuse_ready_read = ready[0];
	launch->fuse_ready_write = ready[1];
}

void cordon_launch_mount_image(struct cordon_launch *launch) {
	const char *image = launch->options.image;
	if (image == NULL) {
		return;
	}
	cleanup_fd int image_fd = open(image, O_RDONLY | O_CLOEXEC);
	if (image_fd < 0) {
		cordon_die_errno("--image %s", image);
	}
	struct stat st;
	if (fstat(image_fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		cordon_die("--image %s: not a regular file", image);
	}
	const char *type = image_type(image_fd);
	if (type == NULL) {
		cordon_die("--image %s: not a squashfs or erofs image", image);
	}
	bool fuse = launch->options.image_mount != NULL
		? strcmp(launch->options.image_mount, "fuse") == 0
		: geteuid() != 0;
	if (fuse) {
		prepare_fuse(launch, type);
	} else {
		mount_with_kernel(launch, image_fd, type);
	}
}

static void send_fd(int sock, int fd) {
	char byte = 'm';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1) {
		cordon_die_errno("handing the image's FUSE device to the launcher");
	}
}

static int receive_fd(int sock) {
	char byte;
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	ssize_t n;
	do {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	struct cmsghdr *cmsg = n == 1 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (cmsg == NULL || cmsg->cmsg_type != SCM_RIGHTS) {
		return -1;
	}
	int fd;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

void cordon_launch_mount_fuse_in_sandbox(struct cordon_launch *launch, const char *target) {
	char value[32];
	cleanup_fd int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		cordon_die_errno("opening /dev/fuse in the sandbox for the image");
	}
	cleanup_fd int fs = fsopen("fuse", FSOPEN_CLOEXEC);
	if (fs < 0) {
		cordon_die_errno("fsopen(fuse) for the image");
	}
	snprintf(value, sizeof(value), "%d", dev);
	bool ok = fsconfig(fs, FSCONFIG_SET_STRING, "fd", value, 0) == 0 &&
		fsconfig(fs, FSCONFIG_SET_STRING, "rootmode", "40000", 0) == 0;
	snprintf(value, sizeof(value), "%u", launch->uid);
	ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "user_id", value, 0) == 0;
	snprintf(value, sizeof(value), "%u", launch->gid);
	ok = ok && fsconfig(fs, FSCONFIG_SET_STRING, "group_id", value, 0) == 0 &&
		fsconfig(fs, FSCONFIG_SET_FLAG, "ro", NULL, 0) == 0 &&
		fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0;
	if (!ok) {
		cordon_die_errno("making the FUSE mount for the image");
	}
	cleanup_fd int mnt = fsmount(
		fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (mnt < 0 || move_mount(mnt, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		cordon_die_errno("attaching the image's FUSE mount at /app");
	}
	/* Now the device has a connection: the launcher serves it with squashfuse. */
	send_fd(launch->fuse_ready_write, dev);
}

void cordon_launch_serve_image(struct cordon_launch *launch) {
	if (!launch->image_fuse) {
		return;
	}
	close(launch->fuse_ready_write);
	launch->fuse_ready_write = -1;
	launch->fuse_fd = receive_fd(launch->fuse_ready_read);
	if (launch->fuse_fd < 0) {
		return; /* the sandbox failed before mounting, and said why */
	}
	pid_t pid = fork();
	if (pid < 0) {
		cordon_die_errno("starting squashfuse");
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (dup2(launch->fuse_fd, 3) < 0) {
			_exit(127);
		}
		close_range(4, ~0U, 0);
		/* A listed environment and argv: the image path is absolute, never an option. */
		char *const argv[] = {"squashfuse", "-f", launch->image_path, "/dev/fd/3", NULL};
		char *const envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};
		execvpe(argv[0], argv, envp);
		fprintf(stderr, "cordon-run: cannot run squashfuse for --image: %s\n",
			strerror(errno));
		_exit(127);
	}
	launch->fuse_pid = pid;
	close(launch->fuse_fd);
	launch->fuse_fd = -1;
	cordon_debug("squashfuse (pid %d) serves %s at /app", (int)pid, launch->image_path);
}

void cordon_launch_finish_image(struct cordon_launch *launch) {
	if (launch->fuse_pid > 0) {
		kill(launch->fuse_pid, SIGTERM);
		waitpid(launch->fuse_pid, NULL, 0);
		launch->fuse_pid = -1;
	}
	int *fds[] = {&launch->fuse_fd, &launch->fuse_ready_read, &launch->fuse_ready_write,
		&launch->image_mount_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	}
	free(launch->image_path);
	launch->image_path = NULL;
}
