/* Who is at the other end of a unix socket: pid, credentials, pidfd, cgroup and sandbox tag. */
#ifndef CORDON_SANDBOX_PEER_H
#define CORDON_SANDBOX_PEER_H

#include <stdbool.h>
#include <sys/types.h>

#include "sandbox/cgroup_tag.h"

#define CORDON_PEER_CGROUP_MAX 4096

struct cordon_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	int pidfd; /* owned; closed by cordon_peer_finish */
	bool from_peerpidfd; /* the pidfd came from SO_PEERPIDFD, not pidfd_open */
	/* Owned, NUL-terminated, shorter than CORDON_PEER_CGROUP_MAX; NULL until identified. */
	char *cgroup;
	bool cgroup_valid; /* cordon_tag_from_cgroup_path accepted the path */
	struct cordon_tag tag;
};

/*
 * Identifies the peer of a connected unix socket, once. Fails (and leaves no fd open) if the
 * peer process is gone or cannot be proven to be the process that connected; a caller must
 * then treat the client as an unknown sandbox, never as the host.
 */
bool cordon_peer_identify(int socket_fd, struct cordon_peer *peer);

/* As cordon_peer_identify; with use_peerpidfd false it takes the SO_PEERCRED path (tests). */
bool cordon_peer_identify_with(int socket_fd, struct cordon_peer *peer, bool use_peerpidfd);

/* Closes the pidfd and frees the cgroup path. */
void cordon_peer_finish(struct cordon_peer *peer);

#endif
