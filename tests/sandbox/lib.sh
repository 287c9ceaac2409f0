# Shared by cordon-run's tests: sourced after tests/lib/harness.sh.
: "${CORDON_RUN:?CORDON_RUN must point to cordon-run (run the tests with meson test)}"
PROBE_DIR="${CORDON_TEST_CLIENTS%/clients}/sandbox"
CGROUP_MOUNT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)

# An app id unique to this test run, so parallel tests never share a data dir or scope.
APP_ID="org.cordon.Test$$"

# run_sandboxed [CORDON-RUN OPTIONS...] -- COMMAND...: the probe dir is /app.
run_sandboxed() {
	"$CORDON_RUN" --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" "$@"
}

# Scopes of this test's app id anywhere in the cgroup tree.
leftover_scopes() {
	[[ -n "$CGROUP_MOUNT" ]] || return 0
	# find fails when a cgroup of a test running beside this one goes while it walks the
	# tree; what it prints is the answer, so its status must not end the test (set -e).
	find "$CGROUP_MOUNT" -maxdepth 4 -type d -name "app-cordon-$APP_ID-*.scope" 2>/dev/null ||
		true
}

# The host's mount points, one a line, without those of other tests running beside this
# one (a private runtime dir's document portal, a FUSE image): what this test could leave.
host_mounts() {
	awk -v own="$TEST_TMP/" -v others="${TMPDIR:-/tmp}/cordon-test." '
		index($5, others) == 1 && index($5 "/", own) != 1 { next }
		{ print $5 }' /proc/self/mountinfo | sort
}

assert_nothing_left() {
	local what=$1 scopes mounts
	scopes=$(leftover_scopes)
	[[ -z "$scopes" ]] || fail "$what left a cgroup behind: $scopes"
	if compgen -G "$XDG_RUNTIME_DIR/cordon-run-*" >/dev/null; then
		fail "$what left a socket dir behind: $(echo "$XDG_RUNTIME_DIR"/cordon-run-*)"
	fi
	mounts=$(host_mounts)
	assert_eq "$MOUNTS_BEFORE" "$mounts" "$what: mounts in the host's namespace"
}

# A cgroup an unprivileged user may use, as systemd would delegate it: the user owns it and
# its cgroup.procs, and the test moves the caller into it first (a move needs write access
# to the common ancestor). Sets DELEGATED; removed at teardown.
make_delegated_cgroup() {
	local uid=$1
	DELEGATED=$(mktemp -d "$CGROUP_MOUNT/cordon-test-user-$$-XXXXXX.slice") || return 1
	chmod 0755 "$DELEGATED" || return 1
	chown "$uid" "$DELEGATED" "$DELEGATED/cgroup.procs" || return 1
	on_teardown remove_delegated_cgroup
}

remove_delegated_cgroup() {
	local d
	[[ -n "${DELEGATED:-}" && -d "$DELEGATED" ]] || return 0
	# Processes still in it (there should be none) go back to the root first.
	for d in "$DELEGATED"/*/ "$DELEGATED"/; do
		[[ -d "$d" ]] || continue
		while read -r pid; do
			echo "$pid" >"$CGROUP_MOUNT/cgroup.procs" 2>/dev/null || true
		done <"$d/cgroup.procs"
	done
	rmdir "$DELEGATED"/*/ 2>/dev/null || true
	rmdir "$DELEGATED" 2>/dev/null || true
}

# as_user UID CMD...: runs CMD as UID inside the delegated cgroup, with its own HOME.
as_user() {
	local uid=$1
	shift
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' as_user "$DELEGATED" \
		setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		env HOME="$TEST_TMP/user-home" XDG_DATA_HOME="$TEST_TMP/user-home/data" \
		XDG_CONFIG_HOME="$TEST_TMP/user-home/config" \
		XDG_RUNTIME_DIR="$TEST_TMP/user-runtime" "$@"
}

setup_user_home() {
	local uid=$1
	mkdir -p "$TEST_TMP/user-home" "$TEST_TMP/user-runtime"
	chown "$uid" "$TEST_TMP/user-home" "$TEST_TMP/user-runtime"
	chmod 0700 "$TEST_TMP/user-runtime"
	# The test dir itself must be reachable for the unprivileged user.
	chmod 0755 "$TEST_TMP"
	reachable_programs "$uid"
}

# The build tree may lie where another user cannot reach it: a checkout under /root (mode
# 0700), as root clones one. So what a test runs as UID (cordon-run, cordon-app) and the
# programs its sandboxes run as /app (the probe dir, the attack dir) are run from copies in
# the test's dir, root's and mode 0755, and the variables name the copies. Copied on every
# run, not only where the tree is out of reach, so that CI runs this path too. If UID still
# cannot reach a copy (TMPDIR out of its reach), the test stops here and says so.
reachable_programs() {
	local uid=$1 dir="$TEST_TMP/programs" var from to
	mkdir -p "$dir"
	chmod 0755 "$dir"
	for var in CORDON_RUN CORDON_APP; do
		[[ -n "${!var:-}" ]] || continue
		install -m 0755 "${!var}" "$dir/"
		printf -v "$var" '%s' "$dir/${!var##*/}"
		export "${var?}"
	done
	for var in PROBE_DIR ATTACK_DIR; do
		[[ -n "${!var:-}" ]] || continue
		from=${!var}
		to="$dir/${var,,}"
		mkdir -p "$to"
		chmod 0755 "$to"
		find "$from" -maxdepth 1 -type f -perm -u+x -exec install -m 0755 {} "$to/" \;
		printf -v "$var" '%s' "$to"
	done
	for to in "$dir"/* "$dir"/*/*; do
		[[ -f "$to" ]] || continue
		setpriv --reuid="$uid" --regid="$uid" --clear-groups test -x "$to" ||
			fail "uid $uid cannot run $to: every directory above it must be searchable" \
				"by it (set TMPDIR to such a directory)"
	done
}
