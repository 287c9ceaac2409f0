/*
 * The peer of a unix socket, identified once at connect time.
 *
 * A pid alone is not an identity: between connect() and our read of /proc/PID/cgroup the
 * client may exit and its pid be given to another process. So we hold a pidfd, which pins the
 * process (its struct pid) and refuses signals once it is reaped:
 *
 * 1. SO_PEERPIDFD (Linux 6.5+) gives a pidfd for the process that connected, taken by the
 *    kernel at connect time, so no reuse can slip in before it. The pid is then read from the
 *    pidfd's fdinfo ("Pid:"; -1 once reaped, 0 if not in our pid namespace).
 *    Without it, SO_PEERCRED gives the pid and pidfd_open(pid) follows at once. That leaves a
 *    window the kernel cannot close for us: if the peer died and its pid was reused before
 *    pidfd_open, the pidfd names the new process. The checks below catch every reuse after
 *    pidfd_open, not before it; this is why SO_PEERPIDFD is preferred.
 * 2. /proc/PID is opened once as a directory fd and cgroup is read through it (openat), so the
 *    file belongs to the process that directory was opened for. Reads through the fd of a
 *    process that has exited fail with ESRCH even if the pid is reused meanwhile.
 * 3. Afterwards, pidfd_send_signal(pidfd, 0) must succeed: the pidfd's process is still alive,
 *    so its pid (checked against fdinfo in step 1) was never freed, so never reused, from
 *    connect until now, and /proc/PID was that process when we opened it. This one check is
 *    what makes the read trustworthy; re-reading fdinfo or comparing start times before and
 *    after (as an earlier version did) adds nothing once it passed, and cost about 20 us of
 *    the 53 us an identification took (docs/sandbox-identity.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

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

static void close_fd(int *fd) {
	if (*fd >= 0) {
		close(*fd);
	}
}

#define cleanup_fd __attribute__((cleanup(close_fd)))

/* Reads a small /proc file through dirfd into buf (NUL-terminated); false if it does not fit. */
static bool read_at(int dirfd, const char *name, char *buf, size_t size) {
	cleanup_fd int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return false;
	}
	size_t n = 0;
	while (n < size - 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0) {
			return false;
		}
		if (r == 0) {
			buf[n] = '\0';
			return true;
		}
		n += (size_t)r;
	}
	/* Full buffer: only fine if the file ends here. */
	char extra;
	ssize_t r = read(fd, &extra, 1);
	buf[n] = '\0';
	return r == 0;
}

/* The "Pid:" line of /proc/self/fdinfo/<pidfd>: the pid, 0 (other namespace) or -1 (reaped). */
static bool pidfd_pid(int pidfd, pid_t *pid) {
	char name[64], buf[1024];
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d", pidfd);
	if (!read_at(AT_FDCWD, name, buf, sizeof(buf))) {
		return false;
	}
	const char *line = strstr(buf, "\nPid:");
	if (line == NULL) {
		return false;
	}
	char *end;
	errno = 0;
	long v = strtol(line + 5, &end, 10);
	if (errno != 0 || end == line + 5 || (*end != '\n' && *end != '\0')) {
		return false;
	}
	*pid = (pid_t)v;
	return true;
}

/*
 * The cgroup v2 line "0::<path>" of /proc/PID/cgroup (hybrid systems list v1 lines too), as a
 * new string: kept by every client for its life, so only as long as it is (paths are short, the
 * limit is not).
 */
static bool read_cgroup(int procfd, char **out) {
	char buf[CORDON_PEER_CGROUP_MAX + 4096];
	if (!read_at(procfd, "cgroup", buf, sizeof(buf))) {
		return false;
	}
	char *line = buf;
	while (*line != '\0') {
		char *nl = strchr(line, '\n');
		if (nl != NULL) {
			*nl = '\0';
		}
		if (strncmp(line, "0::", 3) == 0) {
			if (strlen(line + 3) + 1 > CORDON_PEER_CGROUP_MAX) {
				return false;
			}
			*out = strdup(line + 3);
			return *out != NULL;
		}
		if (nl == NULL) {
			break;
		}
		line = nl + 1;
	}
	return false;
}

static bool take_pidfd(int socket_fd, struct cordon_peer *peer, bool use_peerpidfd) {
	if (use_peerpidfd) {
		int pidfd = -1;
		socklen_t len = sizeof(pidfd);
		int r = getsockopt(socket_fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len);
		if (r == 0) {
			peer->pidfd = pidfd;
			peer->from_peerpidfd = true;
			if (len != sizeof(pidfd) || pidfd < 0) {
				return false;
			}
			pid_t pid;
			/* The kernel's pidfd is the authority; SO_PEERCRED's pid must agree with
			 * it. */
			return pidfd_pid(pidfd, &pid) && pid > 0 && pid == peer->pid;
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

static bool still_alive(const struct cordon_peer *peer) {
	return syscall(SYS_pidfd_send_signal, peer->pidfd, 0, NULL, 0) == 0;
}

bool cordon_peer_identify_with(int socket_fd, struct cordon_peer *peer, bool use_peerpidfd) {
	memset(peer, 0, sizeof(*peer));
	peer->pidfd = -1;
	peer->tag.engine = CORDON_SANDBOX_HOST;

	/* Declared before the first goto: its cleanup runs on every way out. */
	cleanup_fd int procfd = -1;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
		len != sizeof(cred) || cred.pid <= 0) {
		return false;
	}
	peer->pid = cred.pid;
	peer->uid = cred.uid;
	peer->gid = cred.gid;

	if (!take_pidfd(socket_fd, peer, use_peerpidfd)) {
		goto fail;
	}

	char dir[32];
	snprintf(dir, sizeof(dir), "/proc/%d", (int)peer->pid);
	procfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (procfd < 0) {
		goto fail;
	}
	if (!read_cgroup(procfd, &peer->cgroup)) {
		goto fail;
	}
	/* After the read: alive means the pid was never free, so never reused, while we read. */
	if (!still_alive(peer)) {
		goto fail;
	}
	peer->cgroup_valid = cordon_tag_from_cgroup_path(peer->cgroup, &peer->tag);
	return true;

fail:
	cordon_peer_finish(peer);
	memset(peer, 0, sizeof(*peer));
	peer->pidfd = -1;
	peer->tag.engine = CORDON_SANDBOX_HOST;
	return false;
}

bool cordon_peer_identify(int socket_fd, struct cordon_peer *peer) {
	return cordon_peer_identify_with(socket_fd, peer, true);
}

void cordon_peer_finish(struct cordon_peer *peer) {
	close_fd(&peer->pidfd);
	peer->pidfd = -1;
	free(peer->cgroup);
	peer->cgroup = NULL;
}
