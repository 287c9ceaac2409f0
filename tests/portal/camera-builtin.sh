#!/usr/bin/env bash
# The built-in camera dialog, driven like a user would: it names the app from its
# tag, lists the two registered providers, Down and Return choose the second one
# (here the V4L2 provider, which fails for want of a device), no provider runs while a
# dialog waits, P on the first shows its live preview and Return takes the photo, Escape
# cancels, and a stream is consented to with Return and refused with Escape.
# CORDON_PORTAL_SCREENSHOT=FILE keeps a screenshot of the provider choice (docs/).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}" "${CORDON_CAMERA_V4L2:?}"

cordon_test_init
export XDG_STATE_HOME="$TEST_TMP/state"
providers="$XDG_DATA_HOME/cordon/camera-providers"
mkdir -p "$providers" "$TEST_TMP/out"
printf '[Camera Provider]\nName = Test pattern\nMimeTypes = image/png\nExec = %s\nAppId = true\nStream = true\n' \
	"$CORDON_CAMERA_PATTERN" >"$providers/pattern.provider"
printf '[Camera Provider]\nName = Camera\nMimeTypes = image/png, image/jpeg\nExec = %s\n' \
	"$CORDON_CAMERA_V4L2" >"$providers/v4l2.provider"
printf '[portal]\ncamera-launcher = %s\n' "${CORDON_RUN:?}" >"$TEST_TMP/cordon.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init org.example.Builtin
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI is not in use"

# The dialog is 560 pixels wide, centred on the 1280x720 output: header rows at x 360.
header_rows() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	png_probe "$TEST_TMP/dialog.png" count-color 31 58 95 4 360 0 560 720
}
header_shown() {
	(($(header_rows) > 560 * 20))
}
header_gone() {
	(($(header_rows) == 0))
}
ask() {
	local name=$1
	shift
	start_client "$name" "${in_sandbox[@]}" "$CORDON_PORTAL" "$@"
	wait_for "the $name dialog" header_shown
	dialog_ready
}
finished() {
	wait_for "$1 to finish" not client_alive "$1"
	wait "$(client_pid "$1")" || rc=$?
}

ask photo1 take-photo --width 160 --height 120 --output "$TEST_TMP/out/1.png"
if [[ -n "${CORDON_PORTAL_SCREENSHOT:-}" ]]; then
	cp "$TEST_TMP/dialog.png" "$CORDON_PORTAL_SCREENSHOT"
fi
# The selected row (the first provider) is highlighted.
(($(png_probe "$TEST_TMP/dialog.png" count-color 61 123 217 4 360 0 560 720) > 500 * 10)) ||
	fail "no selected provider row"
ctl key click Down Return >/dev/null
rc=0
finished photo1
assert_eq 3 "$rc" "the second provider chosen with Down, Return"
grep -q "i/o error: the camera provider failed" "$TEST_TMP/photo1.log" ||
	fail "photo1 says: $(cat "$TEST_TMP/photo1.log")"
grep -q "Camera provider v4l2 started" "$CORDON_LOG" || fail "the V4L2 provider did not run"
wait_for "the dialog to go" header_gone

# The pattern can stream: the dialog offers Preview, and starts nothing until the user
# asks (the camera is the user's to turn on). P shows the live preview; Return is then the
# shutter: the preview's provider stops and the photo is taken in photo mode.
ask photo2 take-photo --width 160 --height 120 --output "$TEST_TMP/out/2.png"
! grep -q "preview of pattern started" "$CORDON_LOG" || fail "a preview before the user asked"
ctl key click p >/dev/null
preview_yellow() {
	screenshot HEADLESS-1 "$TEST_TMP/preview.png"
	# The 320x240 preview is centred in the dialog: its yellow bar is 40x160 pixels.
	(($(png_probe "$TEST_TMP/preview.png" count-color 255 255 0 4 480 0 320 720) > 5000))
}
wait_for "the live preview" preview_yellow
dialog_ready
if [[ -n "${CORDON_PORTAL_SCREENSHOT_PREVIEW:-}" ]]; then
	cp "$TEST_TMP/preview.png" "$CORDON_PORTAL_SCREENSHOT_PREVIEW"
fi
grep -q "preview of pattern started" "$CORDON_LOG" || fail "no preview logged"
preview_pid=$(grep -o "Camera provider pattern streams as pid [0-9]*" "$CORDON_LOG" | tail -1 |
	grep -o "[0-9]*$")
_alive "$preview_pid" || fail "the preview's provider is not running"
[[ ! -e "$TEST_TMP/out/2.png" ]] || fail "a photo before the shutter"
ctl key click Return >/dev/null
rc=0
finished photo2
wait_for "the preview's provider to stop" not _alive "$preview_pid"
assert_eq 0 "$rc" "the first provider chosen with Return ($(cat "$TEST_TMP/photo2.log"))"
assert_eq "160 120" "$(png_probe "$TEST_TMP/out/2.png" size)" "the photo's size"
assert_eq "255 255 0 255" "$(png_probe "$TEST_TMP/out/2.png" pixel 30 10)" "the yellow bar"

ask photo3 take-photo --output "$TEST_TMP/out/3.png"
ctl key click Escape >/dev/null
rc=0
finished photo3
assert_eq 1 "$rc" "Escape cancels"

# Only the pattern streams here (Stream = true): Return allows, the frames come.
ask stream camera-stream --frames 3
ctl key click Return >/dev/null
rc=0
finished stream
assert_eq 0 "$rc" "a consented stream ($(cat "$TEST_TMP/stream.log"))"
assert_eq 3 "$(grep -c "^frame [0-9]* 640x480$" "$TEST_TMP/stream.log")" "the stream's frames"
ask stream2 camera-stream --frames 3
ctl key click Escape >/dev/null
rc=0
finished stream2
assert_eq 1 "$rc" "Escape refuses a stream"
