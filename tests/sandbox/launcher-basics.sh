#!/usr/bin/env bash
# cordon-run without a compositor (--no-wayland): the command line, the app layout, what the
# app cannot see or do, the cgroup scope, exit statuses, data that persists, and that a
# failed or finished launch leaves nothing behind. As root, everything again as an
# unprivileged user in a delegated cgroup.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init
MOUNTS_BEFORE=$(host_mounts)

# --help names every option cordon-run accepts: the list comes from main.c's option table, so
# an option added without its help line fails here.
help=$("$CORDON_RUN" --help)
options=$(sed -n '/long_options\[\] = {/,/^};/s/.*{"\([a-z-]*\)".*/\1/p' \
	"$CORDON_SOURCE_ROOT/sandbox/launcher/main.c")
(($(wc -w <<<"$options") >= 15)) || fail "could not read the option table: '$options'"
for option in $options; do
	grep -q -- "--$option" <<<"$help" || fail "--help does not document --$option"
done

# Refused command lines: exit 2, a message naming the problem, nothing left.
expect_refusal() {
	local status=$1 pattern=$2 rc=0 err
	shift 2
	err=$("$CORDON_RUN" "$@" 2>&1 >/dev/null) || rc=$?
	assert_eq "$status" "$rc" "exit status of cordon-run $*"
	grep -q -- "$pattern" <<<"$err" || fail "cordon-run $* said '$err', expected '$pattern'"
	assert_nothing_left "cordon-run $*"
}
expect_refusal 2 "unknown option '--bogus'" --bogus --app-id "$APP_ID" -- true
expect_refusal 2 "--app-id ID is required" -- true
expect_refusal 2 "no command given" --app-id "$APP_ID"
expect_refusal 2 "--app-id '../etc'" --app-id ../etc -- true
expect_refusal 2 "--app-id 'x.' ends with '.'" --app-id x. -- true
expect_refusal 2 "--share=ipc" --share=ipc --app-id "$APP_ID" -- true
expect_refusal 2 "--setenv" --setenv NOEQUALS --app-id "$APP_ID" -- true
expect_refusal 125 "--app $TEST_TMP/missing: cannot open" --no-wayland --app-id "$APP_ID" \
	--app "$TEST_TMP/missing" -- true
expect_refusal 125 "WAYLAND_DISPLAY is not set" --app-id "$APP_ID" -- true
WAYLAND_DISPLAY=nope expect_refusal 125 \
	"cannot connect to the compositor at WAYLAND_DISPLAY=nope (is cordon running?)" \
	--app-id "$APP_ID" -- true
# Untrusted words are never options (CVE-2024-32462): after "--" a command that looks like
# an option is the command, and an app id that looks like one is refused as an app id.
expect_refusal 127 "cannot run '--share=network'" --no-wayland --app-id "$APP_ID" -- \
	--share=network
expect_refusal 2 "--app-id '--share=network'" --no-wayland --app-id --share=network -- true
expect_refusal 127 "cannot run '/app/missing'" --no-wayland --app-id "$APP_ID" \
	--app "$PROBE_DIR" -- /app/missing

# The command's status is cordon-run's; a command killed by a signal gives 128+N.
rc=0
run_sandboxed -- sh -c 'exit 7' || rc=$?
assert_eq 7 "$rc" "exit status of the command"
rc=0
run_sandboxed -- sh -c 'kill -9 $$' || rc=$?
assert_eq 137 "$rc" "exit status of a command killed by SIGKILL"
assert_nothing_left "a finished run"

# check_inside LABEL UID [CORDON-RUN...]: the app layout and its walls, as seen from inside.
check_inside() {
	local label=$1 uid=$2
	shift 2
	local secret="$TEST_TMP/host-home/secret"
	local out
	out=$("$@" --app-id "$APP_ID" --app "$PROBE_DIR" --no-wayland -- sh -c '
		set -u
		echo "uid $(id -u)"
		grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):" /proc/self/status
		echo "cgroup $(grep "^0::" /proc/self/cgroup)"
		echo "home $HOME"
		echo "data $XDG_DATA_HOME config $XDG_CONFIG_HOME cache $XDG_CACHE_HOME"
		echo "runtime $XDG_RUNTIME_DIR $(ls -A "$XDG_RUNTIME_DIR" | wc -l)"
		echo "procs $(ls /proc | grep -c "^[0-9]*$")"
		cat "$1" 2>/dev/null && echo "read the host secret"
		ls "$(dirname "$1")" 2>/dev/null && echo "listed the host home"
		[ -e /sys ] && echo "sys is visible"
		touch /usr/cordon-test 2>/dev/null && echo "wrote /usr"
		touch /cordon-test 2>/dev/null && echo "wrote /"
		ls /tmp/cordon-host-tmp-'$$' 2>/dev/null && echo "saw the host /tmp"
		[ -e /etc/shadow ] && echo "saw /etc/shadow"
		[ -e /etc/resolv.conf ] && echo "saw resolv.conf without network"
		echo "passwd $(cut -d: -f1 /etc/passwd | tr "\n" " ")"
		for d in /usr /etc/ld.so.cache /etc/ssl /app/sandbox-probe /dev/null /dev/urandom \
			/dev/pts/ptmx /dev/shm; do [ -e "$d" ] || echo "missing $d"; done
		echo ok > "$XDG_DATA_HOME/note-'"$label"'"
		echo done' sh "$secret") || fail "$label: the sandboxed shell failed: $out"
	grep -q "^uid $uid$" <<<"$out" || fail "$label: uid inside is not $uid: $out"
	for cap in CapInh CapPrm CapEff CapBnd CapAmb; do
		grep -q "^$cap:	0000000000000000$" <<<"$out" || fail "$label: $cap is not zero: $out"
	done
	grep -q "^NoNewPrivs:	1$" <<<"$out" || fail "$label: no_new_privs is not set"
	grep -q "^Seccomp:	2$" <<<"$out" || fail "$label: no seccomp filter"
	grep -q "^cgroup 0::/$" <<<"$out" || fail "$label: /proc/self/cgroup names a host path"
	grep -q "^runtime /run/user/$uid 0$" <<<"$out" ||
		fail "$label: the runtime dir is not private and empty: $out"
	# A new pid namespace: init, the shell, its pipeline; no host process.
	local procs
	procs=$(sed -n 's/^procs //p' <<<"$out")
	((procs <= 6)) || fail "$label: $procs processes visible inside"
	for bad in "read the host secret" "listed the host home" "sys is visible" "wrote /usr" \
		"wrote /" "saw the host /tmp" "saw /etc/shadow" "saw resolv.conf" "missing "; do
		! grep -q "$bad" <<<"$out" || fail "$label: $bad: $out"
	done
	grep -q "^done$" <<<"$out" || fail "$label: the script did not finish: $out"
}

mkdir -p "$TEST_TMP/host-home"
echo "host secret" >"$TEST_TMP/host-home/secret"
touch "/tmp/cordon-host-tmp-$$"
rm_host_tmp() { rm -f "/tmp/cordon-host-tmp-$$"; }
on_teardown rm_host_tmp
check_inside self "$(id -u)" env HOME="$TEST_TMP/host-home" "$CORDON_RUN"
note="$XDG_DATA_HOME/cordon/apps/$APP_ID/data/note-self"
[[ "$(cat "$note" 2>/dev/null)" == ok ]] || fail "the app's data did not reach $note"

# Data persists across runs, and two instances share it but not their instance id.
run_sandboxed -- sh -c 'echo first > "$XDG_DATA_HOME/persist"'
second=$(run_sandboxed -- sh -c 'cat "$XDG_DATA_HOME/persist"')
assert_eq first "$second" "data written by the first run, read by the second"
id1=$(run_sandboxed -- sh -c 'echo $CORDON_INSTANCE_ID')
id2=$(run_sandboxed -- sh -c 'echo $CORDON_INSTANCE_ID')
[[ -n "$id1" && "$id1" != "$id2" ]] || fail "two instances got instance ids '$id1' and '$id2'"

# --setenv reaches the command; the caller's own environment does not.
env_out=$(LD_LIBRARY_PATH=/nonexistent SECRET_TOKEN=x run_sandboxed --setenv FOO=bar -- env)
grep -qx "FOO=bar" <<<"$env_out" || fail "--setenv FOO=bar did not reach the command"
! grep -q "SECRET_TOKEN\|LD_LIBRARY_PATH\|DBUS_SESSION" <<<"$env_out" ||
	fail "the caller's environment leaked in: $env_out"

# With --share=network the host's network and resolv.conf are there; without, only lo.
net_out=$(run_sandboxed -- sh -c 'ls /sys/class/net 2>/dev/null; cat /proc/net/dev | wc -l')
assert_eq 3 "$net_out" "interfaces in a sandbox without network (header lines and lo)"
shared=$(run_sandboxed --share=network -- sh -c 'cat /proc/net/dev | wc -l; [ -e /etc/resolv.conf ] && echo resolv')
host_ifs=$(wc -l </proc/net/dev)
assert_eq "$host_ifs resolv" "$(tr '\n' ' ' <<<"$shared" | sed 's/ $//')" \
	"--share=network: the host's interfaces and resolv.conf"

# While it runs, the sandbox is in app-cordon-ID-INSTANCE.scope; SIGTERM to cordon-run
# reaches the command, and afterwards the scope is gone.
[[ -n "$CGROUP_MOUNT" ]] || skip "no cgroup v2 mount"
# (cordon-run itself, not a function's subshell, so that $! is its pid)
"$CORDON_RUN" --no-wayland --app-id "$APP_ID" -- sh -c 'echo $CORDON_INSTANCE_ID; exec sleep 60' \
	>"$TEST_TMP/running.out" &
run_pid=$!
stop_run() { kill -KILL "$run_pid" 2>/dev/null || true; }
on_teardown stop_run
wait_for "the sandbox to start" test -s "$TEST_TMP/running.out"
instance=$(cat "$TEST_TMP/running.out")
scope=$(leftover_scopes)
[[ "$(basename "$scope")" == "app-cordon-$APP_ID-$instance.scope" ]] ||
	fail "the sandbox's cgroup is '$scope', expected app-cordon-$APP_ID-$instance.scope"
[[ -n "$(cat "$scope/cgroup.procs")" ]] || fail "no process in $scope"
kill -TERM "$run_pid"
rc=0
wait "$run_pid" || rc=$?
assert_eq 143 "$rc" "exit status after SIGTERM"
assert_nothing_left "a run stopped by SIGTERM"

# The command's exit ends the sandbox: what it left running in the background is killed (the
# pid namespace's init exits with the command's status), without waiting for it.
start=$(date +%s)
rc=0
run_sandboxed -- sh -c 'sleep 60 & sleep 60 & exit 5' || rc=$?
assert_eq 5 "$rc" "exit status with background processes left"
(($(date +%s) - start < 30)) || fail "cordon-run waited for the command's background processes"
assert_nothing_left "a run that left background processes"

# PDEATHSIG: the sandbox dies with cordon-run, even by SIGKILL (which leaves cordon-run no
# chance to clean up: its empty scope is removed here).
"$CORDON_RUN" --no-wayland --app-id "$APP_ID" -- sh -c 'echo $CORDON_INSTANCE_ID; exec sleep 60' \
	>"$TEST_TMP/killed.out" &
killed_pid=$!
stop_killed() { kill -KILL "$killed_pid" 2>/dev/null || true; }
on_teardown stop_killed
wait_for "the sandbox to start" test -s "$TEST_TMP/killed.out"
scope=$(leftover_scopes)
inside=$(cat "$scope/cgroup.procs")
[[ -n "$inside" ]] || fail "no process in $scope"
kill -KILL "$killed_pid"
wait "$killed_pid" 2>/dev/null || true
scope_empty() {
	[[ -z "$(cat "$scope/cgroup.procs")" ]]
}
wait_for "the sandbox to die with cordon-run" scope_empty
for pid in $inside; do
	! _alive "$pid" || fail "sandbox process $pid outlived cordon-run"
done
rmdir "$scope"
rm -rf "$XDG_RUNTIME_DIR"/cordon-run-*

# A per-app data dir swapped for a symlink (the app can do that from inside) is refused,
# never followed to the host.
apps="$XDG_DATA_HOME/cordon/apps/$APP_ID"
mv "$apps/cache" "$apps/cache.real"
ln -s "$TEST_TMP/host-home" "$apps/cache"
expect_refusal 125 "'cache' is not a directory (a symlink is refused)" --no-wayland \
	--app-id "$APP_ID" -- true
rm "$apps/cache"
mv "$apps/cache.real" "$apps/cache"

# As root: the same walls for an unprivileged user, in a delegated cgroup, without which the
# launch is refused with a clear message.
if ((EUID == 0)); then
	nobody=65534
	setup_user_home "$nobody"
	make_delegated_cgroup "$nobody" || fail "cannot make a delegated cgroup"
	rc=0
	err=$(setpriv --reuid=$nobody --regid=$nobody --clear-groups env HOME="$TEST_TMP/user-home" \
		XDG_DATA_HOME="$TEST_TMP/user-home/data" "$CORDON_RUN" --no-wayland \
		--app-id "$APP_ID" -- true 2>&1) || rc=$?
	assert_eq 125 "$rc" "an unprivileged launch without a writable cgroup"
	grep -q "pass --cgroup-parent" <<<"$err" || fail "unclear refusal: $err"
	check_inside unprivileged "$nobody" as_user "$nobody" "$CORDON_RUN"
	[[ -f "$TEST_TMP/user-home/data/cordon/apps/$APP_ID/data/note-unprivileged" ]] ||
		fail "the unprivileged app's data did not persist"
	[[ -z "$(find "$DELEGATED" -mindepth 1 -type d)" ]] ||
		fail "a scope was left in the delegated cgroup"
fi
assert_nothing_left "the test"
