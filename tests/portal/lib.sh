# Shared by the portal tests: a flatpak-named cgroup to run sandboxed clients in, and
# cordon started with the auto UI answering from $ANSWER.
: "${CORDON_PORTAL:?CORDON_PORTAL must point to the cordon-portal binary}"

# portal_sandbox_init APP_ID: makes the cgroup (unique per test run, removed at teardown)
# and sets the in_sandbox command prefix.
portal_sandbox_init() {
	local app_id=$1 mount
	mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[[ -n "$mount" ]] || skip "no cgroup v2 mount"
	PORTAL_SLICE="$mount/cordon-portal-test-$$.slice"
	PORTAL_SCOPE="$PORTAL_SLICE/app-flatpak-$app_id-$$.scope"
	mkdir "$PORTAL_SLICE" "$PORTAL_SCOPE" 2>/dev/null ||
		skip "cannot create cgroups under $mount (needs root)"
	on_teardown portal_sandbox_remove
	in_sandbox=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' in_sandbox "$PORTAL_SCOPE")
}

portal_sandbox_remove() {
	rmdir "$PORTAL_SCOPE" "$PORTAL_SLICE" 2>/dev/null || true
}

# portal_start [CORDON ARGS...]: cordon with the auto UI, its permission store in $TEST_TMP.
portal_start() {
	cordon_test_init
	export XDG_STATE_HOME="$TEST_TMP/state"
	export CORDON_PORTAL_UI=auto
	export CORDON_PORTAL_AUTO="$TEST_TMP/answer"
	ANSWER=$CORDON_PORTAL_AUTO
	cordon_start "$@"
}

# answer PATH...: what the "user" chooses for the next request (nothing: cancel).
answer() {
	if (($#)); then
		printf '%s\n' "$@" >"$ANSWER"
	else
		: >"$ANSWER"
	fi
}

# portal CMD ARGS...: runs cordon-portal in the sandbox; sets out, err, rc.
portal() {
	rc=0
	out=$("${in_sandbox[@]}" "$CORDON_PORTAL" "$@" 2>"$TEST_TMP/portal.err") || rc=$?
	err=$(cat "$TEST_TMP/portal.err")
}
