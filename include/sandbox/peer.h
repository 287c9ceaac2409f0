/* Who is at the other end of a unix socket: pid, credentials, pidfd, cgroup and sandbox tag. */
#ifndef CORDON_SANDBOX_PEER_H
#define CORDON_SANDBOX_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/cgroup_cache.h"
#include "sandbox/cgroup_tag.h"

#define CORDON_PEER_CGROUP_MAX 4096

struct cordon_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	int pidfd; /* owned; closed by cordon_peer_release_pidfd or cordon_peer_finish */
	bool from_peerpidfd; /* the pidfd came from SO_PEERPIDFD, not pidfd_open */
	bool from_pidfd_info; /* the pid was checked with PIDFD_GET_INFO, not fdinfo */
	uint64_t cgroup_id; /* the cgroup v2 id PIDFD_GET_INFO gave; 0 without it */
	bool from_cache; /* the path was known for that id, not read from /proc */
	/* Owned, NUL-terminated, shorter than CORDON_PEER_CGROUP_MAX; NULL until identified. */
	char *cgroup;
	bool cgroup_valid; /* cordon_tag_from_cgroup_path accepted the path */
	struct cordon_tag tag;
};

/*
 * Identifies the peer of a connected unix socket, once. Fails (and leaves no fd open) if the
 * peer process is gone or cannot be proven to be the process that connected; a caller must
 * then treat the client as an unknown sandbox, never as the host. cache (may be NULL) holds
 * the cgroup paths already proven, by id: a peer in one of those cgroups is identified without
 * reading /proc, and a path read is added to it.
 */
bool cordon_peer_identify(
	int socket_fd, struct cordon_cgroup_cache *cache, struct cordon_peer *peer);

/* The fallbacks for older kernels, forced (tests): */
enum cordon_peer_flags {
	CORDON_PEER_NO_PEERPIDFD = 1 << 0, /* SO_PEERCRED and pidfd_open (before Linux 6.5) */
	CORDON_PEER_NO_PIDFD_INFO = 1 << 1, /* the pid from fdinfo (before Linux 6.13) */
};

/* As cordon_peer_identify, with enum cordon_peer_flags. */
bool cordon_peer_identify_with(
	int socket_fd, struct cordon_cgroup_cache *cache, struct cordon_peer *peer, unsigned flags);

/*
 * A cgroup cache for cordon_peer_identify on this system's cgroup2 mount, proven with this
 * process's own cgroup. NULL (errno set) where it cannot work: no cgroup2 mount, a kernel
 * before 6.13 (no cgroup id from a pidfd), a mount that is not our cgroup namespace's root.
 * Free it with cordon_cgroup_cache_destroy.
 */
struct cordon_cgroup_cache *cordon_peer_cgroup_cache_create(void);

/*
 * Closes the pidfd once identification is done with it. It is needed only until the cgroup
 * read was proven (step 3 in peer.c); kept for a client's life it costs cordon one fd per
 * connection, which is a third of what a connect storm takes from it. Nothing after
 * identification uses it: freezing goes through the app's cgroup directory, liveness
 * through the connection.
 */
void cordon_peer_release_pidfd(struct cordon_peer *peer);

/* Closes the pidfd (if still held) and frees the cgroup path. */
void cordon_peer_finish(struct cordon_peer *peer);

#endif
