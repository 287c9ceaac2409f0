#!/usr/bin/env bash
# A frozen app is not disconnected (SECURITY-NOTES, "The compositor's own robustness"):
# libwayland 1.21 drops a client whose 4 KiB output buffer fills, and a frozen client
# reads nothing. Here a sandboxed app, visible and under the pointer, is frozen while
# the pointer moves over it a thousand times a second for 25 s and another client
# renders frames, then another window is resized a thousand times a second for 5 s, and
# keys are typed; then it is thawed: it is still connected, saw none of those keys, gets
# input again, and renders.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[[ -n "$mount" ]] || skip "no cgroup v2 mount"
slice="$mount/cordon-test-$$.slice"
scope="$slice/app-flatpak-org.example.Flood-$$.scope"
remove_cgroups() {
	if [[ -e "$scope/cgroup.freeze" ]]; then
		echo 0 >"$scope/cgroup.freeze" 2>/dev/null
		echo 1 >"$scope/cgroup.kill" 2>/dev/null
		for _ in $(seq 50); do
			rmdir "$scope" 2>/dev/null && break
			sleep 0.05
		done
	fi
	rmdir "$slice" 2>/dev/null || true
}
mkdir "$slice" 2>/dev/null || skip "cannot create cgroups under $mount (needs root)"
on_teardown remove_cgroups
mkdir "$scope"
[[ -e "$scope/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"

cordon_start --verbose
in_scope=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' in_scope "$scope")
app=org.example.Flood
frozen() {
	grep -qx 'frozen 1' "$scope/cgroup.events"
}
enters() {
	grep -c "^$1\$\|^$1 " "$TEST_TMP/target.log" || true
}
# more_enters_than EVENT N: the target logged EVENT (enter, keyboard-enter) more than N times.
more_enters_than() {
	(($(enters "$1") > $2))
}

# The app: weston-simple-shm below, and a client that logs its pointer input on top.
start_client shm "${in_scope[@]}" weston-simple-shm
wait_for_window org.freedesktop.weston.simple-shm
start_client target "${in_scope[@]}" "$CORDON_TEST_CLIENTS/focus-client" --app-id flood-target \
	--width 500 --height 400 --timeout 300
wait_for_window flood-target
# Another client, not frozen, renders its frames all along.
start_client other weston-simple-shm
two_shm_windows() {
	windows_json | jq -e '[.[] | select(.app_id == "org.freedesktop.weston.simple-shm")] | length == 2'
}
wait_for "the second weston-simple-shm" two_shm_windows
ctl focus flood-target
# Every window is centred: the target's top-left corner is the part no other window
# covers, now or later. The pointer stays there.
read -r x y w h < <(window_json flood-target | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
cx=$((x + 2)) cy=$((y + 2)) cw=80 ch=80
ctl pointer move $((cx + cw / 2)) $((cy + ch / 2))
wait_for "the pointer to enter the target" more_enters_than enter 0

ctl freeze "$app" >/dev/null
wait_for "the app to be frozen" frozen
enters_before=$(enters enter)
# Keys typed now reach nobody: the frozen window lost the keyboard with the freeze.
ctl key a b c

# The flood: a thousand motions a second over the frozen window. Each would be a
# wl_pointer.motion and a frame (28 bytes): it goes on until that is at least twice
# what the socket buffer and libwayland's 4 KiB hold (a loaded machine may not keep
# 1000 Hz up, so it runs in rounds of 25 s, at most four).
sndbuf=$(cat /proc/sys/net/core/wmem_default 2>/dev/null || echo 212992)
needed=$((2 * (sndbuf + 4096) / 28 + 1)) sent=0 rounds=0
while ((sent < needed && rounds < 4)); do
	"$CORDON_TEST_TOOLS/ipc-flood" "$CORDON_SOCKET" 1000 25 "$cx" "$cy" "$cw" "$ch" \
		>"$TEST_TMP/flood.out" || fail "the flood failed: $(cat "$TEST_TMP/flood.out")"
	read -r round_sent rate < <(sed -E 's/sent=([0-9]+) .* rate=([0-9]+)/\1 \2/' "$TEST_TMP/flood.out")
	echo "flood: $round_sent motions at $rate Hz" >&2
	sent=$((sent + round_sent)) rounds=$((rounds + 1))
done
((sent >= needed)) || fail "only $sent motions: not enough to overflow a client that reads nothing"
frozen || fail "the app thawed during the flood"
client_alive target || fail "the frozen client died during the flood"

# Then resizes elsewhere: a host window is resized interactively a thousand times
# (200 a second for five seconds: the test client makes a buffer for each), while
# the frozen app sits beneath it.
start_client sizer "$CORDON_TEST_CLIENTS/move-resize-client" --app-id sizer --width 300 \
	--height 200 --resize bottom_right
wait_for_window sizer
read -r sx sy sw sh < <(window_json sizer | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
ctl pointer move $((sx + sw - 5)) $((sy + sh - 5))
wait_for "the pointer over the sizer" grep -q '^enter ' "$TEST_TMP/sizer.log"
ctl pointer button left press
wait_for "the sizer's resize request" grep -q '^resize-sent$' "$TEST_TMP/sizer.log"
"$CORDON_TEST_TOOLS/ipc-flood" "$CORDON_SOCKET" 200 5 $((sx + sw)) $((sy + sh)) 200 150 \
	>"$TEST_TMP/resize-flood.out" || fail "the resize flood failed: $(cat "$TEST_TMP/resize-flood.out")"
ctl pointer button left release
configures=$(grep -c '^configure ' "$TEST_TMP/sizer.log" || true)
echo "resize flood: $(cat "$TEST_TMP/resize-flood.out"), $configures configures to the sizer" >&2
((configures > 500)) || fail "the sizer was hardly resized ($configures configures)"
frozen || fail "the app thawed during the resizes"
client_alive target || fail "the frozen client died during the resizes"
# Focus goes to the other app first: when the focused window closes, the window
# below it gets focus, which would thaw the target (an activation).
ctl focus "$(window_json_by_pid "$(client_pid other)" | jq -r .id)"
ctl close sizer
wait_for_window_gone sizer
frozen || fail "the app thawed when the sizer closed"
# Back over the frozen window: no enter while it is frozen.
ctl pointer move $((cx + cw / 2)) $((cy + ch / 2))

ctl thaw "$app" >/dev/null
! frozen || fail "still frozen after cordonctl thaw"
# libwayland drops an overflowed client only once its socket drains, after the thaw:
# so the proof is a round trip now. Focus goes elsewhere and back, and the pointer,
# still over it, enters it again.
keyboard_before=$(enters keyboard-enter)
ctl focus "$(window_json_by_pid "$(client_pid other)" | jq -r .id)"
ctl focus flood-target || fail "the thawed client's window is gone: $(tail -n 1 "$TEST_TMP/target.log")"
wait_for "the thawed client to get keyboard focus again" \
	more_enters_than keyboard-enter "$keyboard_before"
wait_for "the thawed client to get pointer focus again" more_enters_than enter "$enters_before"
! grep -q '^disconnected' "$TEST_TMP/target.log" || fail "the client was disconnected"
! grep -q '^key ' "$TEST_TMP/target.log" || fail "keys typed while it was frozen reached it"
# And typing works again.
ctl key x
wait_for "a key to reach the thawed client" grep -q '^key ' "$TEST_TMP/target.log"
client_alive target || fail "the thawed client died"
ctl --json clients | jq -e --argjson p "$(client_pid target)" 'any(.[]; .pid == $p)' >/dev/null ||
	fail "cordon disconnected the client"
# Its other client renders again once it is on screen.
ctl minimize flood-target
read -r x y w h < <(ctl --json windows | jq -r --argjson p "$(client_pid shm)" \
	'first(.[] | select(.pid == $p)) | "\(.x) \(.y) \(.width) \(.height)"')
window_pixels() {
	local i j
	for i in 1 2 3; do
		for j in 1 2 3; do
			png_probe "$1" pixel $((x + w * i / 4)) $((y + h * j / 4))
		done
	done
}
frames_differ() {
	screenshot HEADLESS-1 "$TEST_TMP/a.png"
	sleep 0.1
	screenshot HEADLESS-1 "$TEST_TMP/b.png"
	[[ "$(window_pixels "$TEST_TMP/a.png")" != "$(window_pixels "$TEST_TMP/b.png")" ]]
}
wait_for "the thawed weston-simple-shm to render" frames_differ
client_alive shm || fail "the thawed weston-simple-shm died"
