#!/usr/bin/env bash
# Freezing hidden apps (docs/freeze.md): a sandboxed app whose window is minimized is
# frozen through its cgroup once the delay has passed, stops running, and is thawed
# when its window is focused again, before any input reaches it; it renders again.
# A host app is never frozen; an idle inhibitor on a hidden window exempts nothing; cordon
# refuses to freeze its own cgroup; manual freeze and thaw work; a missing cpu.weight
# (no cpu controller on the v2 hierarchy) is logged once and changes nothing else.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

test_cgroup app-flatpak-org.example.Freeze-$$.scope
shm_scope=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Inhibit-$$.scope
inhibit_scope=$TEST_CGROUP
test_cgroup app-gnome-org.example.Host-$$.scope
host_scope=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Off-$$.scope
off_scope=$TEST_CGROUP
mount=$CORDON_CGROUP_MOUNT
[[ -e "$shm_scope/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"

# The global default delay comes from cordon.ini; policy.ini gives the sandboxed
# app a longer one of its own and switches freezing off for a profile.
cordon_test_init
delay_ms=1000 shm_delay_ms=1500
cat >"$TEST_TMP/cordon.ini" <<INI
[freeze]
delay = ${delay_ms}ms
boost-weight = 500
INI
cat >"$TEST_TMP/policy.ini" <<INI
[profile awake]
freeze = false
[app org.example.Freeze]
freeze-delay = ${shm_delay_ms}ms
[app org.example.Off]
profile = awake
INI
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"

# "${in_shm[@]}" CMD...: runs CMD in the sandboxed app's cgroup; in_inhibit, in_host likewise.
in_shm=("${IN_CGROUP[@]}" "$shm_scope")
in_inhibit=("${IN_CGROUP[@]}" "$inhibit_scope")
in_host=("${IN_CGROUP[@]}" "$host_scope")
in_off=("${IN_CGROUP[@]}" "$off_scope")
frozen() {
	grep -qx 'frozen 1' "$1/cgroup.events"
}
app_json() {
	ctl --json apps | jq -c --arg a "$1" 'first(.[] | select(.app_id == $a))'
}
app_state() {
	app_json "$1" | jq -r .state
}
# For wait_for, which runs its command again each time: app_in_state APP STATE.
app_in_state() {
	[[ "$(app_state "$1")" == "$2" ]]
}
file_is() {
	[[ "$(cat "$1")" == "$2" ]]
}
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}
usage_usec() {
	awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"
}

# The sandboxed app: weston-simple-shm, and a background worker in the same cgroup
# that stamps a file twenty times a second, as an app's own threads would run.
shm_app=org.example.Freeze
shm_window=org.freedesktop.weston.simple-shm
tick="$TEST_TMP/tick"
start_client worker "${in_shm[@]}" sh -c 'while :; do date +%s%N >"$1"; sleep 0.05; done' \
	worker "$tick"
start_client shm "${in_shm[@]}" weston-simple-shm
wait_for_window "$shm_window"
wait_for "the worker to run" test -s "$tick"
json=$(app_json "$shm_app")
assert_eq "flatpak $$ true thawed true" \
	"$(jq -r '"\(.engine) \(.instance) \(.sandboxed) \(.state) \(.policy)"' <<<"$json")" \
	"the sandboxed app as cordonctl apps lists it"
assert_eq "${shm_scope#"$mount"}" "$(jq -r .cgroup <<<"$json")" "the app's cgroup"
ctl apps | grep -q "^flatpak/$shm_app/$$ " || fail "cordonctl apps does not list flatpak/$shm_app/$$"

# Focused and visible: never frozen, however long it runs.
# A sandboxed window is not focused when it maps (docs/security.md): the user gives it.
ctl focus "$shm_window" >/dev/null
wait_for_focus "$shm_window"
sleep $((2 * delay_ms / 1000))
! frozen "$shm_scope" || fail "a visible, focused app was frozen"

# Minimized: frozen once the delay has passed, not before.
minimized_at=$(now_ms)
ctl minimize "$shm_window"
wait_for "cgroup.events to say frozen 1" frozen "$shm_scope"
frozen_after=$(($(now_ms) - minimized_at))
((frozen_after >= shm_delay_ms)) ||
	fail "frozen after ${frozen_after} ms, before the app's ${shm_delay_ms} ms delay"
wait_for "cordonctl apps to say frozen" app_in_state "$shm_app" frozen
assert_eq true "$(app_json "$shm_app" | jq -r .frozen)" "the frozen flag"
ctl apps | grep "^flatpak/$shm_app/$$ " | grep -q " frozen " || fail "cordonctl apps text says not frozen"
# It does not run: neither its CPU time nor its worker's stamp moves.
before_usage=$(usage_usec "$shm_scope") before_tick=$(cat "$tick")
sleep 1
assert_eq "$before_usage" "$(usage_usec "$shm_scope")" "cpu.stat usage_usec while frozen"
assert_eq "$before_tick" "$(cat "$tick")" "the worker's stamp while frozen"

# Focused again: thawed by the time the command returns, so before its input.
ctl focus "$shm_window"
! frozen "$shm_scope" || fail "still frozen once focus was given"
assert_eq thawed "$(app_state "$shm_app")" "state after focus"
wait_for_focus "$shm_window"
wait_for "the worker to run again" not file_is "$tick" "$before_tick"
# It renders again: its animation changes between two screenshots of its window.
read -r x y w h < <(window_json "$shm_window" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
# Pixels at a grid of points inside the window, one per line.
window_pixels() {
	local i j
	for i in 1 2 3 4; do
		for j in 1 2 3 4; do
			png_probe "$1" pixel $((x + w * i / 5)) $((y + h * j / 5))
		done
	done
}
frames_differ() {
	screenshot HEADLESS-1 "$TEST_TMP/a.png"
	sleep 0.1
	screenshot HEADLESS-1 "$TEST_TMP/b.png"
	[[ "$(window_pixels "$TEST_TMP/a.png")" != "$(window_pixels "$TEST_TMP/b.png")" ]]
}
wait_for "weston-simple-shm to render new frames" frames_differ
client_alive shm || fail "weston-simple-shm died"
# cordon timed the first buffer its window committed after the activation that thawed it.
wake_us=$(app_json "$shm_app" | jq -r .wake_frame_us)
((wake_us >= 0)) || fail "no first frame was timed after the thaw"
echo "activation to first frame after thaw: $wake_us us" >&2

start_client host "${in_host[@]}" "$CORDON_TEST_CLIENTS/focus-client" --app-id host-client
wait_for_window host-client
host_app=org.example.Host
assert_eq "systemd-app false false" \
	"$(app_json "$host_app" | jq -r '"\(.engine) \(.sandboxed) \(.policy)"')" "the host app"

# A host app is never frozen by default, minimized for well over the delay.
ctl minimize host-client
sleep $((3 * delay_ms / 1000))
! frozen "$host_scope" || fail "a host app was frozen"
assert_eq thawed "$(app_state "$host_app")" "the host app's state"

# An idle inhibitor counts only on a shown surface (idle_inhibit.c): minimized, the app
# holding one is frozen like any other (tests/attack/mediation/idle-hidden-inhibitor.sh
# has the variants, and the visible video player that stays awake).
start_client inhibitor "${in_inhibit[@]}" "$CORDON_TEST_CLIENTS/focus-client" \
	--app-id inhibit-client --inhibit-idle
wait_for_window inhibit-client
wait_for "the inhibitor" grep -q '^idle-inhibited$' "$TEST_TMP/inhibitor.log"
ctl minimize inhibit-client
wait_for "the minimized inhibiting app to be frozen" frozen "$inhibit_scope"

# An app whose profile switches freezing off stays running, minimized.
start_client off "${in_off[@]}" "$CORDON_TEST_CLIENTS/focus-client" --app-id off-client
wait_for_window off-client
assert_eq false "$(app_json org.example.Off | jq -r .policy)" "the policy of the app with freeze = false"
ctl minimize off-client
sleep $((3 * delay_ms / 1000))
! frozen "$off_scope" || fail "an app whose profile says freeze = false was frozen"

# Manual freeze of a visible app, and thaw; the host app too when asked explicitly.
ctl focus "$shm_window"
ctl freeze "$shm_app" >/dev/null
wait_for "the manual freeze" frozen "$shm_scope"
wait_for "cordon to see the manual freeze" app_in_state "$shm_app" frozen
assert_eq "frozen true" "$(app_json "$shm_app" | jq -r '"\(.state) \(.manual)"')" "manual freeze"
ctl thaw "flatpak/$shm_app/$$" >/dev/null
! frozen "$shm_scope" || fail "still frozen after cordonctl thaw"
assert_eq thawed "$(app_state "$shm_app")" "state after cordonctl thaw"
ctl freeze "systemd-app/$host_app/$(app_json "$host_app" | jq -r .instance)" >/dev/null
wait_for "the host app's manual freeze" frozen "$host_scope"
ctl thaw "$host_app" >/dev/null
! frozen "$host_scope" || fail "the host app is still frozen after thaw"

# cordon never freezes its own cgroup, here the root where it and this test run: an
# unconfined host client there is an app that cannot be frozen, even when asked.
start_client plain "$CORDON_TEST_CLIENTS/focus-client" --app-id plain-host
wait_for_window plain-host
assert_eq "host// /" \
	"$(ctl --json apps | jq -r 'first(.[] | select(.engine == "host")) | "\(.app) \(.cgroup)"')" \
	"the unconfined host client's app"
! ctl freeze host// 2>"$TEST_TMP/refused" || fail "cordon froze its own cgroup"
grep -q "cordon itself runs in its cgroup" "$TEST_TMP/refused" ||
	fail "unexpected refusal: $(cat "$TEST_TMP/refused")"
! ctl freeze org.example.NoSuchApp 2>/dev/null || fail "froze an app that does not exist"

# No cpu.weight on this hierarchy (cgroup v1 controllers): logged once, not per focus.
if [[ ! -e "$shm_scope/cpu.weight" ]]; then
	ctl focus host-client
	ctl focus "$shm_window"
	ctl focus host-client
	assert_eq 1 "$(grep -c 'No cpu.weight in' "$CORDON_LOG")" "the missing cpu.weight log lines"
	assert_eq false "$(app_json "$shm_app" | jq -r .boosted)" "boosted without cpu.weight"
else
	ctl focus "$shm_window"
	wait_for "the boost" file_is "$shm_scope/cpu.weight" 500
	assert_eq true "$(app_json "$shm_app" | jq -r .boosted)" "boosted"
	ctl focus host-client
	wait_for "the boost to end" not file_is "$shm_scope/cpu.weight" 500
fi
client_alive shm || fail "weston-simple-shm died"
client_alive worker || fail "the worker died"

# When the last client of a frozen app goes away, the app's other processes are not
# left frozen: killing weston-simple-shm (SIGKILL works on frozen tasks) thaws the
# worker beside it.
ctl freeze "$shm_app" >/dev/null
wait_for "the freeze before the kill" frozen "$shm_scope"
before_tick=$(cat "$tick")
kill -KILL "$(client_pid shm)"
app_gone() {
	ctl --json apps | jq -e --arg a "$1" 'all(.[]; .app_id != $a)' >/dev/null
}
wait_for "the app to go with its last client" app_gone "$shm_app"
wait_for "the worker to run once its app is gone" not file_is "$tick" "$before_tick"
! frozen "$shm_scope" || fail "the cgroup stayed frozen after its app went away"

# Nor at shutdown: cordon thaws what it froze before it exits.
ctl freeze "org.example.Inhibit" >/dev/null
wait_for "the freeze before shutdown" frozen "$inhibit_scope"
cordon_stop
! frozen "$inhibit_scope" || fail "cordon left an app frozen behind it"
