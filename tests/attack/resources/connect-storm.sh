#!/usr/bin/env bash
# A sandboxed app opens thousands of connections to exhaust cordon's fds (SECURITY-NOTES:
# about 6,800 connections through one sandbox's socket used all 20,000 of cordon's fds in
# 2 s, and host clients timed out). The attacker runs in a flatpak scope's cgroup and also
# connects through a security-context listener tagged as the same app: both paths charge
# one budget. cordon keeps at most CORDON_APP_MAX_CONNECTIONS of them, closes the rest right
# after accept, logs one line naming the app, holds no pidfd per client, stays answering a
# host client during and after the storm and a new cordon-run launch at the cap, and its fds
# go back to the baseline afterwards.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/resources/lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (wayland-utils)"

cap=128 # CORDON_APP_MAX_CONNECTIONS
storm=2000
app=org.example.Storm

cordon_start
test_cgroup "app-flatpak-$app-1.scope"
sock="$TEST_TMP/ctx.sock"
start_client launcher "$TC/security-context-client" --listen "$sock" --engine org.flatpak \
	--app-id "$app" --instance 2 --commit
wait_log launcher '^ready$'
host_answers 10 || fail "wayland-info failed before the attack"
base=$(fd_count)

flood_alive() {
	log_last "$1" '^alive ' | cut -d' ' -f2
}
opened() {
	log_has "$1" '^opened '
}

# The storm through the cgroup, with a host client asked while it runs.
since=$SECONDS
start_client flood "${IN_CGROUP[@]}" "$TEST_CGROUP" "$ATTACK/conn-flood" \
	"$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" "$storm"
during=0
while ! opened flood; do
	_check_cordons_alive
	start=$(date +%s%N)
	host_answers 5 || fail "a host client got no answer within 5 s during the storm"
	during=$((during + 1))
	echo "host client answered in $((($(date +%s%N) - start) / 1000000)) ms during the storm" >&2
	client_alive flood || break
done
wait_log flood '^opened '
assert_eq "opened $storm" "$(log_last flood '^opened ')" "the storm's connects (the probe ran)"
wait_for "cordon to close the connections over the app's cap" \
	eval '(( $(flood_alive flood) <= cap ))'
# Then the same app through its security-context listener: the budget is the app's.
start_client flood-ctx "$ATTACK/conn-flood" "$sock" 500
wait_log flood-ctx '^opened '
assert_eq "opened 500" "$(log_last flood-ctx '^opened ')" "the listener storm's connects"
wait_for "cordon to close the listener's connections over the cap" \
	eval '(( $(flood_alive flood) + $(flood_alive flood-ctx) <= cap ))'

held=$(($(flood_alive flood) + $(flood_alive flood-ctx)))
assert_eq "$cap" "$held" "connections the app keeps (exactly its cap: what it may have, it gets)"
fds=$(fd_count)
echo "cordon fds: $base before, $fds with the app at its cap of $cap ($storm + 500 tried)" >&2
# Each client: its socket and the event loop's copy. Slack for cordon's own.
((fds <= base + 2 * cap + 16)) || fail "cordon holds $fds fds (baseline $base) with $held clients"
assert_eq 0 "$(pidfd_count)" "pidfds cordon keeps once its clients are identified"
start=$(date +%s%N)
host_answers 5 || fail "a host client got no answer within 5 s after the storm"
echo "host client answered in $((($(date +%s%N) - start) / 1000000)) ms at the cap" >&2
# A new launch of another app is served while this one sits at its cap.
start=$(date +%s%N)
timeout 30 "$CORDON_RUN" --app-id "org.example.Other$$" -- wayland-info >"$TEST_TMP/launch.log" 2>&1 ||
	fail "a new cordon-run launch failed while the app was at its cap: $(tail -n 3 "$TEST_TMP/launch.log")"
grep -q "interface: 'wl_compositor'" "$TEST_TMP/launch.log" ||
	fail "the new launch's wayland-info listed nothing: $(tail -n 3 "$TEST_TMP/launch.log")"
echo "a new launch answered in $((($(date +%s%N) - start) / 1000000)) ms at the cap" >&2

lines=$(grep -c "App flatpak/$app reached its cap of $cap connections" "$CORDON_LOG" || true)
assert_log_lines "$lines" "$since" "the app at its cap (not a line per refusal)"

stop_client flood
stop_client flood-ctx
wait_for "cordon's fds to go back to the baseline ($base)" eval '(( $(fd_count) <= base ))'
# The app may connect again once it let go.
host_answers 5 || fail "wayland-info failed after the storm"
timeout 5 "${IN_CGROUP[@]}" "$TEST_CGROUP" wayland-info >/dev/null ||
	fail "the app could not connect again after closing its connections"
