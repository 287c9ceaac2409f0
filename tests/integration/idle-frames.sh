#!/usr/bin/env bash
# An idle compositor sleeps: with nothing to draw, a headless cordon gets no frame events
# (wlroots 0.15's headless backend would tick 60 times a second forever; see
# compositor/headless_pacing.c), yet a client that animates after a quiet spell gets a frame
# callback every refresh, and grim still gets a frame of the idle output.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"

# Context switches of all cordon's threads: each wake-up from its event loop is one.
switches() {
	local total=0 f n
	for f in /proc/"$CORDON_PID"/task/*/status; do
		while read -r n; do
			total=$((total + n))
		done < <(awk '/ctxt_switches:/ { print $2 }' "$f" 2>/dev/null)
	done
	echo "$total"
}
# quiet: cordon woke fewer than 5 times in one second (a ticking output wakes 60 times).
quiet() {
	local before after
	before=$(switches)
	sleep 1
	after=$(switches)
	echo "$((after - before)) wake-ups in 1 s" >>"$TEST_TMP/wakes.log"
	((after - before < 5))
}
# frames_above N: the animating client has had more than N frame callbacks.
frames_above() {
	local n
	n=$(log_last frames '^frames=' | cut -d= -f2)
	((${n:-0} > $1))
}

cordon_start --output 640x480
wait_for "cordon to fall idle with no client" quiet

start_client frames "$TC/clip-client" --app-id frames --frames --width 64 --height 64
wait_for_window frames
wait_log frames '^frames='
start=$(log_last frames '^frames=' | cut -d= -f2)
wait_for "frame callbacks to keep coming after the quiet spell" frames_above $((start + 60))
# While it animates cordon wakes at least once per frame.
not quiet || fail "cordon slept while a client was animating"
stop_client frames
wait_for_window_gone frames
wait_for "cordon to fall idle again once the client has gone" quiet

# Screencopy asks for a frame of an output that has not drawn one for a while.
timeout 20 grim "$TEST_TMP/idle.png" 2>"$TEST_TMP/grim.log" || fail "grim of an idle output failed"
assert_eq 1000 "$(color_permille "$TEST_TMP/idle.png" "0 0 0" 0 0 0 640 480)" \
	"grim's frame of the idle, empty output is its background (permille)"
wait_for "cordon to fall idle after the screencopy" quiet
echo "idle: $(tail -n 1 "$TEST_TMP/wakes.log"); frames resumed after idling; grim got a frame"
