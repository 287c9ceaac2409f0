/*
 * --image FILE: the app's files as one read-only squashfs or erofs image, mounted at /app.
 *
 * As root the image is attached to a loop device (read-only, autoclear) and mounted with the
 * new mount API into a detached mount: fsmount gives an fd to a mount that is in no
 * namespace, so the host never sees it and there is nothing to unmount. The sandbox's init
 * attaches it at /app with move_mount; when the sandbox and the launcher's fd are gone the
 * kernel drops the mount and autoclear frees the loop device.
 *
 * Without root, the kernel does not mount squashfs or erofs in a user namespace (they are not
 * FS_USERNS_MOUNT: a crafted image is a kernel attack surface). That path needs squashfuse
 * through a FUSE mount, which cordon-run does not do yet: it says so and stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
	if (geteuid() != 0) {
		cordon_die("--image %s: mounting a %s image without root needs squashfuse, which "
			   "cordon-run does not support yet (docs/sandbox.md); unpack it and use --app",
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
	launch->image_mount_fd = fsmount(fs, FSMOUNT_CLOEXEC,
		MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (launch->image_mount_fd < 0) {
		cordon_die_errno("--image %s: fsmount", image);
	}
	cordon_debug("image %s (%s) mounted, detached, for /app", image, type);
}
