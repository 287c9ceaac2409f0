/*
 * The peer of a unix socket, identified once at connect time.
 *
 * A pid alone is not an identity: between connect() and our read of /proc/PID/cgroup the
 * client may exit and its pid be given to another process. So we hold a pidfd, which pins the
 * process (its struct pid) and refuses signals once it is reaped:
 *
 * 1. SO_PEERPIDFD (Linux 6.5+) gives a pidfd for the process that connected, taken by the
 *    kernel at connect time, so no reuse can slip in before it. The pid is then asked of the
 *    pidfd itself: PIDFD_GET_INFO (Linux 6.13+, one ioctl; it fails with ESRCH once the
 *    process is reaped or if it is not in our pid namespace), else the pidfd's fdinfo ("Pid:";
 *    -1 once reaped, 0 if not in our pid namespace). It must equal SO_PEERCRED's.
 *    Without SO_PEERPIDFD, SO_PEERCRED gives the pid and pidfd_open(pid) follows at once. That
 *    leaves a window the kernel cannot close for us: if the peer died and its pid was reused
 *    before pidfd_open, the pidfd names the new process. The checks below catch every reuse
 *    after pidfd_open, not before it; this is why SO_PEERPIDFD is preferred.
 * 2. /proc/PID/cgroup is opened (one open, by the pid from step 1) and read. An open file of a
 *    process that has exited reads ESRCH, even if the pid is reused meanwhile.
 * 3. Afterwards, pidfd_send_signal(pidfd, 0) must find the process (success, or EPERM for a
 *    client of another user; ESRCH once it is reaped): the pidfd's process is still alive,
 *    so its pid (checked in step 1) was never freed, so never reused, from connect until now.
 *    So /proc/PID named that process when we opened it, and what we read is its cgroup. This
 *    one check is what makes the read trustworthy. It is also why the open can be one open of
 *    the file rather than of the directory /proc/PID and then of cgroup in it (as an earlier
 *    version did): whichever way the path is resolved, it was resolved while PID was still
 *    this process. Re-reading the pid or comparing start times before and after (as an even
 *    earlier version did) adds nothing once the check passed.
 * 4. A cgroup seen before needs neither 2 nor 3. PIDFD_GET_INFO also gives the id of the cgroup
 *    the pidfd's process is in, and the cgroup cache (cgroup_cache.c) keeps, by id, paths
 *    proven to be that cgroup's. Nothing is then looked up by pid at all, so no reuse of it
 *    can matter; and the cgroup is the one the process was in at the ioctl, as step 2 gives
 *    the one it was in at the read.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox/cgroup_mount.h"
#include "sandbox/peer.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

#ifndef PIDFD_GET_INFO
/*
 * From <linux/pidfd.h> as Linux 6.13 first published it (Debian 12's headers predate it). The
 * ioctl is extensible: its number carries the size of the caller's struct, and the kernel
 * takes any size from PIDFD_INFO_SIZE_VER0 up and copies out what fits, so this first version
 * works on every kernel that has the ioctl. Later kernels only appended fields (exit code,
 * coredump) that identification does not need.
 */
#define PIDFD_INFO_PID (1UL << 0) /* Always returned, even if not requested */
#define PIDFD_INFO_CREDS (1UL << 1) /* Always returned, even if not requested */
#define PIDFD_INFO_CGROUPID (1UL << 2) /* Always returned if available, even if not requested */

#define PIDFD_INFO_SIZE_VER0 64 /* sizeof first published struct */

struct pidfd_info {
	__u64 mask;
	__u64 cgroupid;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 ruid;
	__u32 rgid;
	__u32 euid;
	__u32 egid;
	__u32 suid;
	__u32 sgid;
	__u32 fsuid;
	__u32 fsgid;
	__u32 spare0[1];
};

#define PIDFS_IOCTL_MAGIC 0xFF
#define PIDFD_GET_INFO _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info)
#endif

_Static_assert(sizeof(struct pidfd_info) >= PIDFD_INFO_SIZE_VER0,
	"PIDFD_GET_INFO refuses a struct smaller than its first version");

static void close_fd(int *fd) {
	if (*fd >= 0) {
		close(*fd);
	}
}

#define cleanup_fd __attribute__((cleanup(close_fd)))

/*
 * The line of buf that starts with prefix, cut at its newline; its text after the prefix.
 * NULL if no line starts with it, or if that line has no newline yet and more may come
 * (at_end false).
 */
static char *find_line(char *buf, const char *prefix, bool at_end) {
	size_t prefix_len = strlen(prefix);
	for (char *line = buf; *line != '\0';) {
		char *nl = strchr(line, '\n');
		if (strncmp(line, prefix, prefix_len) == 0) {
			if (nl != NULL) {
				*nl = '\0';
			} else if (!at_end) {
				return NULL;
			}
			return line + prefix_len;
		}
		if (nl == NULL) {
			return NULL;
		}
		line = nl + 1;
	}
	return NULL;
}

/*
 * The rest of the line that starts with prefix in a small /proc file, NUL-terminated inside
 * buf; NULL if there is none, or if it is not complete within size bytes (never a shorter
 * line). Reading stops as soon as the line is complete: procfs hands these files over in one
 * read, and the read that would return 0 costs a system call per client for nothing.
 */
static char *read_line(const char *path, const char *prefix, char *buf, size_t size) {
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return NULL;
	}
	size_t n = 0;
	while (n < size - 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0) {
			return NULL;
		}
		n += (size_t)r;
		buf[n] = '\0';
		char *rest = find_line(buf, prefix, r == 0);
		if (rest != NULL || r == 0) {
			return rest;
		}
	}
	/* Full, and the line is not complete in it. */
	return NULL;
}

/* The "Pid:" line of /proc/self/fdinfo/<pidfd>: the pid, 0 (other namespace) or -1 (reaped). */
static bool fdinfo_pid(int pidfd, pid_t *pid) {
	char name[64], buf[1024];
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d", pidfd);
	const char *value = read_line(name, "Pid:", buf, sizeof(buf));
	if (value == NULL) {
		return false;
	}
	char *end;
	errno = 0;
	long v = strtol(value, &end, 10);
	if (errno != 0 || end == value || *end != '\0') {
		return false;
	}
	*pid = (pid_t)v;
	return true;
}

enum get_info_result {
	GET_INFO_OK,
	GET_INFO_UNSUPPORTED, /* a kernel before 6.13: ask fdinfo */
	GET_INFO_FAILED, /* the process is reaped, or not in our pid namespace */
};

/* The pid of the pidfd's process, and its cgroup v2 id (0 if none is given), in one ioctl. */
static enum get_info_result pidfd_get_info(int pidfd, pid_t *pid, uint64_t *cgroup_id) {
	struct pidfd_info info;
	memset(&info, 0, sizeof(info));
	/*
	 * The credentials come whether asked for or not, and are not used: they are the
	 * process's now, and the uid and gid that count are SO_PEERCRED's, taken at connect.
	 */
	info.mask = PIDFD_INFO_PID | PIDFD_INFO_CREDS | PIDFD_INFO_CGROUPID;
	if (ioctl(pidfd, PIDFD_GET_INFO, &info) != 0) {
		/* ENOTTY: no ioctls on pidfds (before 6.11); EINVAL: pidfs without this one. */
		return errno == ENOTTY || errno == EINVAL ? GET_INFO_UNSUPPORTED : GET_INFO_FAILED;
	}
	/* The kernel sets a bit for each field it filled: only those may be read. */
	if (!(info.mask & PIDFD_INFO_PID)) {
		return GET_INFO_UNSUPPORTED;
	}
	*pid = (pid_t)info.pid;
	*cgroup_id = info.mask & PIDFD_INFO_CGROUPID ? info.cgroupid : 0;
	return GET_INFO_OK;
}

/*
 * The pidfd is the authority on which process connected: the pid SO_PEERCRED gave must be
 * its pid. A pidfd from pidfd_open(pid) has that pid by construction, so only the ioctl, which
 * also gives the cgroup id, is worth asking it.
 */
static bool check_pid(struct cordon_peer *peer, unsigned flags) {
	pid_t pid = 0;
	if (!(flags & CORDON_PEER_NO_PIDFD_INFO)) {
		switch (pidfd_get_info(peer->pidfd, &pid, &peer->cgroup_id)) {
		case GET_INFO_OK:
			peer->from_pidfd_info = true;
			return pid > 0 && pid == peer->pid;
		case GET_INFO_FAILED:
			return false;
		case GET_INFO_UNSUPPORTED:
			break;
		}
	}
	if (!peer->from_peerpidfd) {
		return true;
	}
	return fdinfo_pid(peer->pidfd, &pid) && pid > 0 && pid == peer->pid;
}

/*
 * The cgroup v2 line "0::<path>" of /proc/PID/cgroup (hybrid systems list v1 lines too), as a
 * new string: kept by every client for its life, so only as long as it is (paths are short, the
 * limit is not).
 */
static bool read_cgroup(pid_t pid, char **out) {
	char name[32], buf[CORDON_PEER_CGROUP_MAX + 4096];
	snprintf(name, sizeof(name), "/proc/%d/cgroup", (int)pid);
	const char *path = read_line(name, "0::", buf, sizeof(buf));
	if (path == NULL || strlen(path) + 1 > CORDON_PEER_CGROUP_MAX) {
		return false;
	}
	*out = strdup(path);
	return *out != NULL;
}

static bool take_pidfd(int socket_fd, struct cordon_peer *peer, bool use_peerpidfd) {
	if (use_peerpidfd) {
		int pidfd = -1;
		socklen_t len = sizeof(pidfd);
		int r = getsockopt(socket_fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len);
		if (r == 0) {
			peer->pidfd = pidfd;
			peer->from_peerpidfd = true;
			return len == sizeof(pidfd) && pidfd >= 0;
		}
		/* Only an old kernel falls back; any other error (ESRCH: the peer is gone) fails.
		 */
		if (errno != ENOPROTOOPT && errno != EINVAL) {
			return false;
		}
	}
	int pidfd = (int)syscall(SYS_pidfd_open, peer->pid, 0);
	if (pidfd < 0) {
		return false;
	}
	peer->pidfd = pidfd;
	peer->from_peerpidfd = false;
	return true;
}

/*
 * Signal 0 through the pidfd. The kernel looks the process up before it checks whether we may
 * signal it: ESRCH means there is none (reaped), EPERM that there is one that is not ours to
 * signal (a client of another user, such as root), which is just as alive.
 */
static bool still_alive(const struct cordon_peer *peer) {
	if (syscall(SYS_pidfd_send_signal, peer->pidfd, 0, NULL, 0) == 0 || errno == EPERM) {
		return true;
	}
	if (errno != ENOSYS) {
		return false;
	}
	/*
	 * No pidfd_send_signal (valgrind does not know it): a pidfd polls readable once its
	 * process has exited, and a process that has not exited still holds its pid. Without
	 * this every peer would be unknown there, and the control socket would refuse the host.
	 */
	struct pollfd exited = {.fd = peer->pidfd, .events = POLLIN};
	return poll(&exited, 1, 0) == 0;
}

static void reset(struct cordon_peer *peer) {
	memset(peer, 0, sizeof(*peer));
	peer->pidfd = -1;
	/* Not identified (yet): an unknown sandbox, never the host. */
	peer->tag = cordon_tag_unknown;
}

bool cordon_peer_identify_with(int socket_fd, struct cordon_cgroup_cache *cache,
	struct cordon_peer *peer, unsigned flags) {
	reset(peer);
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
		len != sizeof(cred) || cred.pid <= 0) {
		return false;
	}
	peer->pid = cred.pid;
	peer->uid = cred.uid;
	peer->gid = cred.gid;

	if (!take_pidfd(socket_fd, peer, !(flags & CORDON_PEER_NO_PEERPIDFD)) ||
		!check_pid(peer, flags)) {
		goto fail;
	}
	/*
	 * A cgroup seen before: its id came from the pidfd, which no pid reuse can redirect,
	 * and its path was proven for that id (cgroup_cache.c). Nothing is read by pid, so
	 * there is nothing for the liveness check below to vouch for.
	 */
	const char *known = cordon_cgroup_cache_lookup(cache, peer->cgroup_id);
	if (known) {
		peer->cgroup = strdup(known);
		peer->from_cache = true;
		if (!peer->cgroup) {
			goto fail;
		}
		peer->cgroup_valid = cordon_tag_from_cgroup_path(peer->cgroup, &peer->tag);
		return true;
	}
	if (!read_cgroup(peer->pid, &peer->cgroup)) {
		goto fail;
	}
	/* After the read: alive means the pid was never free, so never reused, while we read. */
	if (!still_alive(peer)) {
		goto fail;
	}
	cordon_cgroup_cache_add(cache, peer->cgroup_id, peer->cgroup);
	peer->cgroup_valid = cordon_tag_from_cgroup_path(peer->cgroup, &peer->tag);
	return true;

fail:
	cordon_peer_finish(peer);
	reset(peer);
	return false;
}

bool cordon_peer_identify(
	int socket_fd, struct cordon_cgroup_cache *cache, struct cordon_peer *peer) {
	return cordon_peer_identify_with(socket_fd, cache, peer, 0);
}

struct cordon_cgroup_cache *cordon_peer_cgroup_cache_create(void) {
	char mount[4096];
	if (!cordon_cgroup2_mount(mount, sizeof(mount))) {
		errno = ENOENT;
		return NULL;
	}
	/* Our own cgroup, path and id, identified as any peer is: through a socketpair. */
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		return NULL;
	}
	struct cordon_peer self;
	bool identified = cordon_peer_identify(sv[0], NULL, &self);
	int saved = errno;
	close(sv[0]);
	close(sv[1]);
	if (!identified) {
		errno = saved;
		return NULL;
	}
	struct cordon_cgroup_cache *cache = NULL;
	if (self.cgroup_id == 0) {
		/* No PIDFD_GET_INFO (before Linux 6.13): no ids to look paths up by. */
		errno = ENOTSUP;
	} else {
		cache = cordon_cgroup_cache_create(mount, self.cgroup, self.cgroup_id);
	}
	saved = errno;
	cordon_peer_finish(&self);
	errno = saved;
	return cache;
}

void cordon_peer_release_pidfd(struct cordon_peer *peer) {
	close_fd(&peer->pidfd);
	peer->pidfd = -1;
}

void cordon_peer_finish(struct cordon_peer *peer) {
	close_fd(&peer->pidfd);
	peer->pidfd = -1;
	free(peer->cgroup);
	peer->cgroup = NULL;
}
