#!/usr/bin/env bash
# Attack: a sandboxed app asks for the camera while the user types; the camera dialog
# takes the keyboard at once and Return allows. Checked: a Return typed the moment the
# dialog shows is ignored (the grace period): no photo, no stream, no frame. Positive
# control: after the grace, Return allows the stream and its frames come.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}"

cordon_test_init
export XDG_STATE_HOME="$TEST_TMP/state"
providers="$XDG_DATA_HOME/cordon/camera-providers"
mkdir -p "$providers" "$TEST_TMP/out"
printf '[Camera Provider]\nName = Test pattern\nMimeTypes = image/png\nExec = %s\nAppId = true\nStream = true\n' \
	"$CORDON_CAMERA_PATTERN" >"$providers/pattern.provider"
printf '[portal]\ncamera-launcher = %s\n' "${CORDON_RUN:?}" >"$TEST_TMP/cordon.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init org.example.Hostile

# The dialog is 560 pixels wide, centred on the 1280x720 output.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(png_probe "$TEST_TMP/dialog.png" count-color 31 58 95 4 360 0 560 720) > 560 * 20))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
streams() {
	ctl --json camera-streams | jq '.streams | length'
}
ignored_count() {
	grep -c "ignored a key press within" "$CORDON_LOG" || true
}
ask() {
	local name=$1
	shift
	start_client "$name" "${in_sandbox[@]}" "$CORDON_PORTAL" "$@"
	dialog_shown_now
}
finished() {
	wait_for "$1 to finish" not client_alive "$1"
	rc=0
	wait "$(client_pid "$1")" || rc=$?
}

# A photo: Return at once takes none.
before=$(ignored_count)
ask photo take-photo --output "$TEST_TMP/out/photo.png"
ctl key click Return Return >/dev/null
assert "the photo dialog is on the screen" header_shown
assert "the photo request still waits" pending 1
(($(ignored_count) > before)) || fail "cordon did not log the Returns it ignored"
[[ ! -e "$TEST_TMP/out/photo.png" ]] || fail "a stray Return took a photo"
dialog_ready
ctl key click Escape >/dev/null
finished photo
assert_eq 1 "$rc" "the photo, cancelled after the grace"
[[ ! -e "$TEST_TMP/out/photo.png" ]] || fail "a photo after all"
echo "photo: the immediate Returns took none"

# A stream: Return at once allows nothing.
before=$(ignored_count)
ask stream camera-stream --frames 3
ctl key click Return Return >/dev/null
assert "the stream dialog is on the screen" header_shown
assert "the stream request still waits" pending 1
(($(ignored_count) > before)) || fail "cordon did not log the Returns it ignored"
assert_eq 0 "$(streams)" "streams after the immediate Returns"
dialog_ready
ctl key click Escape >/dev/null
finished stream
assert_eq 1 "$rc" "the stream, refused after the grace"
! grep -q "^frame " "$TEST_TMP/stream.log" || fail "the app got frames"
echo "stream: the immediate Returns granted nothing"

# Positive control: after the grace, Return allows and the frames come.
ask stream2 camera-stream --frames 3
dialog_ready
ctl key click Return >/dev/null
finished stream2
assert_eq 0 "$rc" "a stream allowed after the grace ($(cat "$TEST_TMP/stream2.log"))"
assert_eq 3 "$(grep -c "^frame " "$TEST_TMP/stream2.log")" "the allowed stream's frames"
echo "positive: Return after the grace allows the stream"
