#!/usr/bin/env bash
# cordon-run and the systemd user manager (docs/sandbox.md, "cgroup placement"): with no user
# bus, or a real dbus-daemon with no org.freedesktop.systemd1 on it, the scope is made in the
# cgroup tree; under a real `systemd --user` (run by hand here: PID 1 is not systemd) the
# scope is a transient unit systemd made, the app runs in it, cordon tags it from it, and
# systemd collects it when the app ends, also when cordon-run is killed.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
cordon_test_init
for tool in dbus-daemon busctl systemctl unshare jq weston-simple-shm wayland-info; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done
# A dash in the app id: the unit name carries it as it is and the tag parser must still
# find the app id (it splits at the last dash; the instance is hex).
APP_ID="org.cordon.Sd-Test$$"
MOUNTS_BEFORE=$(host_mounts)

# cgroup_line OUTPUT: the "cgroup scope ... (made by ...)" line of cordon-run --verbose.
made_by() {
	sed -n 's/^cordon-run: cgroup scope .* (made by \(.*\))$/\1/p' <<<"$1"
}

# 1. No user bus at all: the cgroup tree, and --verbose says why.
mkdir -m 0700 "$TEST_TMP/no-bus"
out=$(env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$TEST_TMP/no-bus" \
	"$CORDON_RUN" --verbose --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" -- true 2>&1) ||
	fail "cordon-run without a user bus: $out"
grep -q "no systemd user manager: no user bus" <<<"$out" || fail "no reason given: $out"
assert_eq "cordon-run in the cgroup tree" "$(made_by "$out")" "the scope without a user bus"
assert_nothing_left "a run without a user bus"

# 2. A real session bus with no systemd on it (the bus could activate one from its service
# files; cordon-run asks NameHasOwner, so none is started and the fallback is immediate).
mkdir -m 0700 "$TEST_TMP/plain-bus"
dbus-daemon --session --nofork --address="unix:path=$TEST_TMP/plain-bus/bus" \
	>"$TEST_TMP/plain-bus.log" 2>&1 &
PLAIN_BUS_PID=$!
stop_plain_bus() {
	kill "$PLAIN_BUS_PID" 2>/dev/null || true
	wait "$PLAIN_BUS_PID" 2>/dev/null || true
}
on_teardown stop_plain_bus
wait_for "the plain dbus-daemon" busctl --address="unix:path=$TEST_TMP/plain-bus/bus" status
out=$(DBUS_SESSION_BUS_ADDRESS="unix:path=$TEST_TMP/plain-bus/bus" \
	"$CORDON_RUN" --verbose --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" -- \
	sh -c 'grep "^0::" /proc/self/cgroup' 2>&1) || fail "cordon-run on a bus without systemd: $out"
grep -q "org.freedesktop.systemd1 is not on the user bus" <<<"$out" || fail "no reason: $out"
assert_eq "cordon-run in the cgroup tree" "$(made_by "$out")" "the scope on a bus without systemd"
grep -qx "0::/" <<<"$out" || fail "the app's cgroup namespace is not its scope: $out"
assert_nothing_left "a run on a bus without systemd"
stop_plain_bus

# 3. A real systemd user manager. systemd refuses to run as a user instance unless the system
# was booted with it (it checks for /run/systemd/system/); here PID 1 is not systemd, so the
# manager gets a private mount namespace with a tmpfs on /run/systemd holding that directory.
# That is its only difference from a session's manager: it owns $XDG_RUNTIME_DIR/bus
# (dbus.socket), starts the session's dbus-daemon on demand, and is the real systemd 252.
[[ $(id -u) == 0 ]] ||
	skip "running a user manager by hand needs root here (a mount namespace for /run/systemd)"
SYSTEMD=/lib/systemd/systemd
[[ -x "$SYSTEMD" ]] || skip "no $SYSTEMD"
[[ -d /run/systemd ]] || skip "no /run/systemd to cover"
SD_CGROUP=$(mktemp -d "$CGROUP_MOUNT/cordon-test-sd-$$-XXXXXX.slice")
chmod 0755 "$SD_CGROUP"
SD_RUNTIME="$TEST_TMP/sd-runtime"
mkdir -m 0700 "$SD_RUNTIME"
# stop_manager_in CGROUP PID: kills the manager PID and whatever it started (the session's
# dbus-daemon) through the test's own CGROUP tree, reaps it, and removes that tree.
stop_manager_in() {
	local cgroup=$1 pid=$2 d i
	[[ -d "$cgroup" ]] || return 0
	# The manager is in the tree too: one cgroup.kill ends it and its services at once.
	echo 1 >"$cgroup/cgroup.kill" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
	if [[ -n "$pid" ]]; then
		wait "$pid" 2>/dev/null || true
	fi
	for ((i = 0; i < 200; i++)); do
		grep -qx "populated 0" "$cgroup/cgroup.events" && break
		sleep 0.01
	done
	for d in $(find "$cgroup" -mindepth 1 -depth -type d 2>/dev/null); do
		rmdir "$d" 2>/dev/null || true
	done
}
stop_manager() {
	stop_manager_in "$SD_CGROUP" "${SD_PID:-}"
	rmdir "$SD_CGROUP" 2>/dev/null || true
}
on_teardown stop_manager
# run_manager CGROUP CMD...: CMD (which ends in systemd --user) in CGROUP, with a private mount
# namespace in which /run/systemd/system exists. Execs, so $! of `run_manager ... &` is the
# manager itself.
run_manager() {
	local cgroup=$1
	shift
	exec sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec unshare --mount --propagation private \
		sh -c "mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system && exec \"\$@\"" \
		sh "$@"' sh "$cgroup" "$@"
}
XDG_RUNTIME_DIR="$SD_RUNTIME" DBUS_SESSION_BUS_ADDRESS="unix:path=$SD_RUNTIME/bus" \
	run_manager "$SD_CGROUP" "$SYSTEMD" --user --log-target=console >"$TEST_TMP/systemd.log" 2>&1 &
SD_PID=$!
# cordon-run finds the manager through the bus address; systemctl through its runtime dir.
export DBUS_SESSION_BUS_ADDRESS="unix:path=$SD_RUNTIME/bus"
sdctl() {
	XDG_RUNTIME_DIR="$SD_RUNTIME" systemctl --user "$@"
}
deadline=$(($(date +%s) + 15))
until busctl --user status org.freedesktop.systemd1 >/dev/null 2>&1; do
	_alive "$SD_PID" ||
		skip "systemd --user could not start here: $(tail -5 "$TEST_TMP/systemd.log")"
	(($(date +%s) < deadline)) ||
		skip "systemd --user is not on its bus after 15 s: $(tail -5 "$TEST_TMP/systemd.log")"
	sleep 0.1
done

# scope_units: the app's transient scopes the manager knows of, loaded or not.
scope_units() {
	sdctl list-units --all --no-legend --plain "app-cordon-$APP_ID-*.scope" |
		awk '{ print $1 }'
}

scope_running() {
	sdctl list-units --no-legend --plain "app-cordon-$APP_ID-*.scope" | grep -q running
}

no_scope_units() {
	[[ -z "$(scope_units)" ]]
}

# A run in the scope systemd made, seen from outside while it runs.
start_client held "$CORDON_RUN" --verbose --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" \
	-- sh -c 'grep "^0::" /proc/self/cgroup; [ -e /sys ] && echo "sys is visible"; sleep 60'
wait_for "the scope unit" scope_running
unit=$(scope_units)
[[ "$unit" =~ ^app-cordon-$APP_ID-[0-9a-f]{16}\.scope$ ]] || fail "the unit is '$unit'"
instance=${unit#app-cordon-$APP_ID-}
instance=${instance%.scope}
wait_for "cordon-run's verbose lines" grep -q "started, init is pid" "$TEST_TMP/held.log"
grep -q "systemd user manager made the scope $unit" "$TEST_TMP/held.log" ||
	fail "--verbose does not say systemd made it: $(cat "$TEST_TMP/held.log")"
assert_eq "the systemd user manager" "$(made_by "$(cat "$TEST_TMP/held.log")")" "who made the scope"
props=$(sdctl show -p ControlGroup -p CollectMode -p Delegate -p Description "$unit")
cgroup=$(sed -n 's/^ControlGroup=//p' <<<"$props")
assert_eq "${SD_CGROUP#"$CGROUP_MOUNT"}/app.slice/$unit" "$cgroup" "the scope's ControlGroup"
grep -qx "CollectMode=inactive-or-failed" <<<"$props" || fail "CollectMode: $props"
grep -qx "Delegate=no" <<<"$props" || fail "Delegate: $props"
init=$(sed -n 's/.*started, init is pid \([0-9]*\)$/\1/p' "$TEST_TMP/held.log")
assert_eq "0::$cgroup" "$(grep '^0::' "/proc/$init/cgroup")" "the sandbox init's cgroup"
# Only the sandbox is in it: the placeholder systemd was given is gone.
for pid in $(cat "$CGROUP_MOUNT$cgroup/cgroup.procs"); do
	[[ "$(readlink "/proc/$pid/ns/pid")" != "$(readlink /proc/self/ns/pid)" ]] ||
		[[ "$pid" == "$init" ]] || fail "pid $pid ($(cat "/proc/$pid/comm")) of the host is in the scope"
done
wait_for "the app's output" grep -qx "0::/" "$TEST_TMP/held.log"
not grep -q "sys is visible" "$TEST_TMP/held.log" || fail "the app sees /sys"
stop_client held
wait_for "systemd to collect the scope" no_scope_units
wait_for "the scope's cgroup to go" not test -d "$CGROUP_MOUNT$cgroup"
assert_nothing_left "a run in a systemd scope"

# cordon-run killed outright: the sandbox dies with it (PDEATHSIG) and systemd collects the
# scope that nothing else could remove. (--no-dbus: the bus proxy's socket dir stays after a
# SIGKILL, as the Wayland one does, docs/sandbox.md; what is checked here is the scope.)
start_client killed "$CORDON_RUN" --no-wayland --no-dbus --app-id "$APP_ID" --app "$PROBE_DIR" -- sleep 60
wait_for "the scope unit" scope_running
kill -KILL "$(client_pid killed)"
wait_for "systemd to collect the killed launch's scope" no_scope_units
stop_client killed
assert_nothing_left "a killed cordon-run in a systemd scope"

# Under cordon: the sandbox's clients are cordon/ID/INSTANCE, and cordon reads the same tag
# from the systemd-made scope: a host client moved into the scope (as a process systemd put
# there would be) connects to the host socket and is tagged from its cgroup alone.
cordon_start
start_client shm "$CORDON_RUN" --verbose --app-id "$APP_ID" -- weston-simple-shm
wait_for_window org.freedesktop.weston.simple-shm
shm_pid=$(window_json org.freedesktop.weston.simple-shm | jq -r .pid)
client=$(ctl --json clients | jq -c --argjson pid "$shm_pid" 'first(.[] | select(.pid == $pid))')
assert_eq "true cordon $APP_ID security-context" \
	"$(jq -r '"\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"' <<<"$client")" \
	"the sandboxed client's tag"
instance=$(jq -r .instance <<<"$client")
unit="app-cordon-$APP_ID-$instance.scope"
assert_eq "running" "$(sdctl show -p SubState --value "$unit")" "the unit of $instance"
cgroup=$(sdctl show -p ControlGroup --value "$unit")
assert_eq "$cgroup" "$(jq -r .cgroup <<<"$client")" "the cgroup cordon read for the client"
start_client joined sh -c 'echo $$ >"$1/cgroup.procs" && exec weston-simple-shm' sh \
	"$CGROUP_MOUNT$cgroup"
joined=$(client_pid joined)
wait_for "cordon to list the client that joined the scope" \
	sh -c "$CORDONCTL --socket $CORDON_SOCKET --json clients | jq -e 'any(.[]; .pid == $joined)'"
assert_eq "true cordon $APP_ID $instance cgroup" \
	"$(ctl --json clients | jq -r --argjson pid "$joined" \
		'first(.[] | select(.pid == $pid))
		| "\(.sandboxed) \(.engine) \(.app_id) \(.instance) \(.tag_source)"')" \
	"the tag cordon reads from the systemd-made scope"
stop_client joined
stop_client shm
wait_for "systemd to collect the scope of the Wayland app" not test -d "$CGROUP_MOUNT$cgroup"
assert_nothing_left "a Wayland app in a systemd scope"

# 4. The same as an unprivileged user (nobody) with its own manager, as in a session: the
# manager runs as the user in a cgroup delegated to it, cordon-run as the user beside it.
NOBODY=65534
setup_user_home "$NOBODY"
make_delegated_cgroup "$NOBODY" || fail "cannot make a delegated cgroup"
mkdir "$DELEGATED/caller"
chown "$NOBODY" "$DELEGATED/caller" "$DELEGATED/caller/cgroup.procs"
USER_RUNTIME="$TEST_TMP/user-runtime"
user_env=(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups env
	HOME="$TEST_TMP/user-home" XDG_DATA_HOME="$TEST_TMP/user-home/data"
	XDG_CONFIG_HOME="$TEST_TMP/user-home/config" XDG_RUNTIME_DIR="$USER_RUNTIME"
	DBUS_SESSION_BUS_ADDRESS="unix:path=$USER_RUNTIME/bus")
stop_user_manager() {
	stop_manager_in "$DELEGATED" "${USER_SD_PID:-}"
}
on_teardown stop_user_manager
run_manager "$DELEGATED" "${user_env[@]}" "$SYSTEMD" --user --log-target=console \
	>"$TEST_TMP/systemd-user.log" 2>&1 &
USER_SD_PID=$!
deadline=$(($(date +%s) + 15))
until "${user_env[@]}" busctl --user status org.freedesktop.systemd1 >/dev/null 2>&1; do
	_alive "$USER_SD_PID" ||
		fail "systemd --user as nobody died: $(tail -5 "$TEST_TMP/systemd-user.log")"
	(($(date +%s) < deadline)) || fail "systemd --user as nobody is not on its bus after 15 s"
	sleep 0.1
done
out=$(sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$DELEGATED/caller" \
	"${user_env[@]}" "$CORDON_RUN" --verbose --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" \
	-- sh -c 'echo "uid $(id -u)"; grep "^0::" /proc/self/cgroup' 2>&1) ||
	fail "cordon-run as nobody under its manager: $out"
assert_eq "the systemd user manager" "$(made_by "$out")" "who made nobody's scope"
grep -q "cgroup scope $DELEGATED/app.slice/app-cordon-$APP_ID-[0-9a-f]*.scope " <<<"$out" ||
	fail "nobody's scope is not in its manager's app.slice: $out"
grep -qx "uid $NOBODY" <<<"$out" || fail "the app's uid: $out"
grep -qx "0::/" <<<"$out" || fail "the app's cgroup: $out"
nobody_collected() {
	[[ -z "$("${user_env[@]}" systemctl --user list-units --all --no-legend --plain \
		"app-cordon-$APP_ID-*.scope")" ]] && ! compgen -G "$DELEGATED/app.slice/app-cordon-*"
}
wait_for "nobody's manager to collect the scope" nobody_collected
assert_nothing_left "a run as nobody in a systemd scope"

# 5. A manager that answers but cannot make the scope: nobody's manager may not move a process
# out of a cgroup of root's (the common ancestor is the cgroup root). cordon-run warns, kills
# its placeholder, and falls back; the fallback cannot write beside a root-owned cgroup either,
# so the launch stops with 125, and nothing stays: no unit, no placeholder, no cgroup.
ROOT_CALLER=$(mktemp -d "$CGROUP_MOUNT/cordon-test-rootcaller-$$-XXXXXX.slice")
chmod 0755 "$ROOT_CALLER"
remove_root_caller() {
	rmdir "$ROOT_CALLER" 2>/dev/null || true
}
on_teardown remove_root_caller
rc=0
out=$(sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$ROOT_CALLER" \
	"${user_env[@]}" "$CORDON_RUN" --verbose --no-wayland --app-id "$APP_ID" --app "$PROBE_DIR" \
	-- true 2>&1) || rc=$?
assert_eq 125 "$rc" "exit status when the manager cannot make the scope and the tree is not writable"
grep -q "the systemd user manager did not make the scope app-cordon-$APP_ID-[0-9a-f]*.scope (" \
	<<<"$out" || fail "no warning that systemd failed: $out"
grep -q "making it in the cgroup tree instead" <<<"$out" || fail "no fallback said: $out"
wait_for "nobody's manager to forget the failed scope" nobody_collected
[[ -z "$(cat "$ROOT_CALLER/cgroup.procs")" ]] ||
	fail "something stayed in the caller's cgroup: $(cat "$ROOT_CALLER/cgroup.procs")"
assert_nothing_left "a launch the manager could not place"
