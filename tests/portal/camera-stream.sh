#!/usr/bin/env bash
# Camera streams through a sandboxed cordon-portal and the auto UI, from the
# test-pattern provider in its own cordon-run sandbox: frames arrive whole, of the
# asked size, with the pattern's bars; revoking the camera (cordonctl permissions)
# closes the app's fd at once and stops the provider; the camera-in-use indicator is
# on screen while a stream is open and clicking its close button ends the stream;
# an app that disconnects stops its provider; five streams from one client get four
# and a busy refusal, and a reader that never reads costs dropped frames, not a stalled
# compositor; a version 3 manager is refused; a provider that sends garbage, stops or
# stalls ends the stream with a reason; cordon's fd count returns to where it was.
# CORDON_PORTAL_SCREENSHOT_INDICATOR=FILE keeps a screenshot of the indicator (docs/).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}" "${CORDON_RUN:?}" "${CORDON_TEST_CAMERA_CLIENT:?}"

app=org.example.Stream
camera_providers_init "Stream = true"
# stream_config LAUNCHER: cordon's config, with providers run through LAUNCHER.
stream_config() {
	portal_auto_ini >"$TEST_TMP/cordon.ini"
	printf 'camera-timeout-ms = 1500\ncamera-launcher = %s\n' "$1" >>"$TEST_TMP/cordon.ini"
}
stream_config "$CORDON_RUN"
portal_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init "$app"
frame="$TEST_TMP/out/frame.ppm"
fds_before=$(fd_count)

# ppm_pixel FILE X Y: "R G B" of a binary PPM (P6, maxval 255) as cordon-portal saves it.
ppm_pixel() {
	local file=$1 x=$2 y=$3 header width
	header=$(head -c 64 "$file" | head -n 3)
	width=$(sed -n 2p <<<"$header" | cut -d' ' -f1)
	local offset=$((${#header} + 1 + (y * width + x) * 3))
	od -A n -t u1 -j "$offset" -N 3 "$file" | xargs
}
streams_json() {
	ctl --json camera-streams
}
stream_count() {
	streams_json | jq '.streams | length'
}
no_streams() {
	[[ "$(stream_count)" == 0 ]]
}
# provider_pid N: the pid of the Nth stream provider cordon started (cordon-run's).
provider_pid() {
	grep -o "Camera provider pattern streams as pid [0-9]*" "$CORDON_LOG" | sed -n "$1p" |
		grep -o "[0-9]*$"
}
provider_count() {
	grep -c "Camera provider pattern streams as pid" "$CORDON_LOG" || true
}
# client_exit NAME: waits for the client (a child of this shell) and sets status.
client_exit() {
	wait_for "$1 to finish" not client_alive "$1"
	status=0
	wait "$(client_pid "$1")" || status=$?
}
frames_in() {
	grep -c "^frame " "$TEST_TMP/$1.log" || true
}
# has_frames NAME N: the client has printed at least N frames.
has_frames() {
	(($(frames_in "$1") >= $2))
}

# Frames, after consent through a dialog: whole, of the asked size, the pattern's bars.
answer "camera-stream=allow"
portal camera-stream --width 320 --height 240 --frames 5 --save-frame "$frame"
assert_eq 0 "$rc" "five frames ($err)"
assert_eq stream "$(head -n 1 <<<"$out")" "the stream event first"
assert_eq 5 "$(grep -c '^frame [0-9]* 320x240$' <<<"$out")" "five 320x240 frames: $out"
# A reader slower than the provider (a sanitized build) sees gaps, never stale frames.
[[ "$err" =~ "5 frames, "[0-9]+" dropped" ]] || fail "the summary says: $err"
# The bars, 40 pixels each over the top 160 rows: white first, red sixth.
assert_eq "255 255 255" "$(ppm_pixel "$frame" 20 30)" "the white bar"
assert_eq "255 0 0" "$(ppm_pixel "$frame" 220 30)" "the red bar"
assert_eq "0 0 255" "$(ppm_pixel "$frame" 260 30)" "the blue bar"
grep -q "auto: request .* camera stream$" "$CORDON_LOG" || fail "no dialog for the stream"
wait_for "the stream to close when the app let go" no_streams
wait_for "the first provider to stop" not _alive "$(provider_pid 1)"

# Revoking the camera closes the open stream at once, and stops its provider.
start_client watch "${in_sandbox[@]}" "$CORDON_PORTAL" camera-stream
wait_for "frames of watch" has_frames watch 3
assert_eq 1 "$(stream_count)" "cordonctl lists the open stream"
assert_eq "$app pattern" "$(streams_json | jq -r '.streams[0] | "\(.app_id) \(.provider)"')" \
	"the stream's app and provider"
(($(streams_json | jq '.streams[0].bytes') > 0)) || fail "no bytes counted"
provider=$(provider_pid 2)
_alive "$provider" || fail "the provider is not running while the app watches"
start=$(date +%s%N)
ctl permissions revoke "$app" camera >/dev/null
client_exit watch
assert_eq 5 "$status" "the app's exit status after the revoke"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
grep -q "^ended revoked " "$TEST_TMP/watch.log" || fail "no ended event: $(cat "$TEST_TMP/watch.log")"
echo "revoke to the app's end of file: $elapsed_ms ms"
assert_eq 0 "$(stream_count)" "streams after the revoke"
wait_for "the revoked stream's provider to stop" not _alive "$provider"
# Deny works the same way, and then asks no more.
start_client watch2 "${in_sandbox[@]}" "$CORDON_PORTAL" camera-stream
wait_for "frames of watch2" has_frames watch2 1
ctl permissions deny "$app" camera >/dev/null
client_exit watch2
assert_eq 5 "$status" "the app's exit status after the deny"
portal camera-stream --frames 1
assert_eq 3 "$rc" "a denied stream"
[[ "$err" == "cordon-portal: denied: "* ]] || fail "the denial says: $err"
ctl permissions revoke "$app" camera >/dev/null

# The indicator: on screen while a stream is open; its close button ends the stream.
assert_eq null "$(streams_json | jq -c .indicator_close)" "the indicator while no stream is open"
start_client eye "${in_sandbox[@]}" "$CORDON_PORTAL" camera-stream
wait_for "frames of eye" has_frames eye 1
box=$(streams_json | jq -r '.indicator_close | "\(.x) \(.y) \(.width) \(.height)"')
read -r bx by bw bh <<<"$box"
[[ "$bx" =~ ^[0-9]+$ ]] || fail "no indicator: $box"
# Top right of the 1280x720 output, above every app; its border is red.
((bx > 1000 && by < 60)) || fail "the indicator is not in the top right corner: $box"
screenshot HEADLESS-1 "$TEST_TMP/indicator.png"
(($(png_probe "$TEST_TMP/indicator.png" count-color 208 48 48 8 900 0 380 60) > 200)) ||
	fail "the indicator is not on screen"
if [[ -n "${CORDON_PORTAL_SCREENSHOT_INDICATOR:-}" ]]; then
	# For the picture only: an app window under the indicator.
	start_client simple-shm "${in_sandbox[@]}" weston-simple-shm
	wait_for_window org.freedesktop.weston.simple-shm
	sleep 0.3
	screenshot HEADLESS-1 "$CORDON_PORTAL_SCREENSHOT_INDICATOR"
	stop_client simple-shm
fi
ctl pointer move $((bx + bw / 2)) $((by + bh / 2)) >/dev/null
ctl pointer button left click >/dev/null
client_exit eye
assert_eq 5 "$status" "the app's exit status after the indicator closed"
grep -q "^ended revoked " "$TEST_TMP/eye.log" || fail "no ended event: $(cat "$TEST_TMP/eye.log")"
assert_eq null "$(streams_json | jq -c .indicator_close)" "the indicator after it closed"
screenshot HEADLESS-1 "$TEST_TMP/no-indicator.png"
assert_eq 0 "$(png_probe "$TEST_TMP/no-indicator.png" count-color 208 48 48 8 900 0 380 60)" \
	"indicator pixels after it closed"
grep -q "Camera indicator closed: 1 streams ended" "$CORDON_LOG" || fail "no log of the close"

# An app that disconnects mid-stream: its provider is stopped, nothing stays open.
start_client gone "${in_sandbox[@]}" "$CORDON_PORTAL" camera-stream
wait_for "frames of gone" has_frames gone 1
provider=$(provider_pid "$(provider_count)")
kill -9 "$(client_pid gone)"
client_exit gone
wait_for "the disconnected app's stream to close" no_streams
wait_for "the disconnected app's provider to stop" not _alive "$provider"

# Five streams from one client, never read: four open, the fifth is busy. The readers
# that fall behind cost dropped frames; cordon goes on serving others meanwhile.
answer "camera-stream=allow"
start_client five "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" streams
wait_for "four streams and a refusal" grep -q "^failed 1 " "$TEST_TMP/five.log"
four_streams() {
	[[ "$(grep -c '^stream$' "$TEST_TMP/five.log")" == 4 ]]
}
wait_for "four streams" four_streams
assert_eq 4 "$(stream_count)" "open streams of the client"
dropping() {
	(($(streams_json | jq '[.streams[].dropped] | add') > 10))
}
wait_for "frames dropped for readers that do not read" dropping
portal camera-stream --frames 3
assert_eq 0 "$rc" "another app's stream while four readers stall ($err)"
stop_client five
wait_for "the stalled client's streams to close" no_streams

# A version 3 manager gets no stream (its stream was a device fd cordon cannot take back).
start_client old "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" old-stream
wait_for "the old stream's refusal" grep -q \
	"^failed 3 camera streams need cordon_portal_manager_v1 version 4$" "$TEST_TMP/old.log"
stop_client old
start_client size "${in_sandbox[@]}" "$CORDON_TEST_CAMERA_CLIENT" stream-size
wait_for "the size error" grep -qx "protocol-error cordon_portal_camera_stream_v1 1" \
	"$TEST_TMP/size.log"

# Every pipe, pidfd and event source of the streams is gone.
fds_back() {
	(($(fd_count) <= fds_before))
}
wait_for "cordon's fds back to $fds_before (now $(fd_count))" fds_back

# Providers that misbehave, run directly (camera-launcher = none) so that they can
# reach the pattern program: the stream ends with a reason, cordon goes on.
cordon_stop
stream_config none
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
bin="$TEST_TMP/bin"
mkdir -p "$bin"
bad() {
	local name=$1 script=$2
	printf '#!/bin/sh\n%s\n' "$script" >"$bin/$name"
	chmod +x "$bin/$name"
	printf '[Camera Provider]\nName = %s\nMimeTypes = image/png\nExec = %s\nStream = true\n' \
		"$name" "$bin/$name" >"$providers/$name.provider"
}
bad garbage 'echo "not a frame at all, not even close to one header"; exec sleep 60'
bad short "exec $CORDON_CAMERA_PATTERN \"\$@\" --frames=2"
bad stall "$CORDON_CAMERA_PATTERN \"\$@\" --frames=2; exec sleep 60"
check_ended() {
	local name=$1 reason=$2
	answer "camera-provider=$name" "camera-stream=allow"
	portal camera-stream
	assert_eq 6 "$rc" "the $name provider's stream ($err)"
	[[ "$out" == *"ended provider $reason"* ]] || fail "the $name provider's stream: $out"
}
check_ended garbage "the camera provider sent what is not a frame"
check_ended short "the camera provider stopped"
[[ "$(grep -c '^frame ' <<<"$out")" == 2 ]] || fail "the short provider's frames: $out"
check_ended stall "the camera provider stalled"
answer "camera-provider=pattern" "camera-stream=allow"
portal camera-stream --frames 2
assert_eq 0 "$rc" "a stream after the misbehaving providers ($err)"
kill -0 "$CORDON_PID" || fail "cordon died"
