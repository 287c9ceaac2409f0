#!/usr/bin/env bash
# Attack: an app's cursor image (wl_pointer.set_cursor) is client content drawn above
# everything. Over a trusted dialog it could draw its arrow away from where the click
# lands, and a large one could hide a dialog or the camera indicator. Refused: over a
# dialog, and wherever the app's image would overlap one, only cordon's own cursor is
# shown; an image larger than 256x256 or with its hotspot outside it is never shown
# (cordon logs the refusal). A cursor shape (wp_cursor_shape_v1) comes from cordon's
# theme but is the app's choice all the same: a crosshair reaching into a dialog is
# replaced by cordon's arrow. Checked on screenshots with the cursor drawn. Positive
# controls: an ordinary cursor image, and a shape, over the app's own window still show.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}


builtin_ui_init
mkdir -p "$TEST_TMP/out"
cordon_start --verbose
portal_sandbox_init org.example.Cursor

# magenta [X Y W H]: magenta pixels (the app's cursor colour) on a screenshot with the cursor.
shot=0
magenta() {
	shot=$((shot + 1))
	ctl screenshot HEADLESS-1 "$TEST_TMP/shot$shot.png" cursor >/dev/null ||
		fail "cordonctl screenshot with the cursor failed"
	png_probe "$TEST_TMP/shot$shot.png" count-color 255 0 255 8 "$@"
}
# start_cursor_app NAME SIZE HOTSPOT X Y: a sandboxed full-output window setting that
# cursor image when the pointer, moved to X Y, enters it.
start_cursor_app() {
	start_client "$1" "${in_sandbox[@]}" "$THIEF" --app-id "$1" --width 1280 --height 720 \
		--cursor "$2" --cursor-hotspot "$3" --cursor-color ffff00ff
	wait_for_window "$1"
	ctl pointer move 10 10 >/dev/null
	ctl pointer move "$4" "$5" >/dev/null
	wait_log "$1" '^cursor-set '
}

# Positive control: a 64x64 image over the app's own window is shown.
start_cursor_app arrow 64x64 0,0 100 600
shown=$(magenta 100 600 64 64)
((shown > 3500)) || fail "the app's own cursor image is not shown over its window ($shown px)"

# A dialog opens; with the pointer over it only cordon's cursor is drawn.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the dialog" header_shown
ctl pointer move 640 300 >/dev/null
assert_eq 0 "$(magenta)" "magenta pixels with the pointer over the dialog"
# Over the app just above the dialog, the app's image would reach into it: cordon's instead.
before=$(log_count arrow '^cursor-set ')
ctl pointer move 640 60 >/dev/null
wait_for "the app to set its image again" log_count_above arrow '^cursor-set ' "$before"
assert_eq 0 "$(magenta)" "magenta pixels with the app's image overlapping the dialog"
# Back away from the dialog: the app's image is shown again (the check above did run).
ctl pointer move 100 600 >/dev/null
shown=$(magenta 100 600 64 64)
((shown > 3500)) || fail "the app's cursor did not come back away from the dialog ($shown px)"
dialog_ready
ctl key click Escape >/dev/null
wait_for "the dialog to close" not header_shown
stop_client arrow

# An oversized image (a 1280x720 one hid the camera indicator) is refused.
start_cursor_app big 300x300 0,0 100 300
assert_eq 0 "$(magenta)" "magenta pixels of a 300x300 cursor image"
wait_for "the refusal to be logged" grep -q "Refusing the cursor image.*larger than 256x256" \
	"$CORDON_LOG"
stop_client big

# A hotspot 142 px away from the image (the arrow drawn over Cancel, the click on Allow).
start_cursor_app liar 32x32 174,0 400 300
assert_eq 0 "$(magenta)" "magenta pixels of a cursor whose hotspot is outside it"
wait_for "the refusal to be logged" grep -q "Refusing the cursor image.*hotspot outside the image" \
	"$CORDON_LOG"
# Shapes. shot_at NAME X Y: a screenshot with the cursor, the pointer moved to X Y first.
shot_at() {
	ctl pointer move "$2" "$3" >/dev/null
	ctl screenshot HEADLESS-1 "$TEST_TMP/$1.png" cursor >/dev/null ||
		fail "cordonctl screenshot with the cursor failed"
}
# differing A B X Y: pixels of the 48x48 square centred on X Y that differ between shots.
differing() {
	png_probe "$TEST_TMP/$1.png" count-differing "$TEST_TMP/$2.png" $(($3 - 24)) $(($4 - 24)) 48 48
}
# start_shape_app NAME SHAPE: a sandboxed full-output window asking for SHAPE on enter.
start_shape_app() {
	start_client "$1" "${in_sandbox[@]}" "$THIEF" --app-id "$1" --width 1280 --height 720 \
		--cursor-shape "$2"
	wait_for_window "$1"
	ctl pointer move 10 10 >/dev/null
	ctl pointer move 100 600 >/dev/null
	wait_log "$1" "^cursor-shape $2$"
}
# Over its own window, far from any dialog, the crosshair is drawn, not an arrow...
start_shape_app shaper crosshair
shot_at shaper-window 300 600
start_client chooser2 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the dialog" header_shown
# ... and 6 px above the dialog, where the crosshair's lower arm would reach into it,
# cordon's arrow is drawn instead.
shot_at shaper-edge 640 94
stop_client shaper
# The same two places with an app asking for the theme's default arrow.
start_shape_app plain default
shot_at plain-window 300 600
shot_at plain-edge 640 94
shown=$(differing shaper-window plain-window 300 600)
((shown > 20)) || fail "the app's crosshair is not shown over its window ($shown px differ from an arrow)"
assert_eq 0 "$(differing shaper-edge plain-edge 640 94)" \
	"pixels by which the shape reaching into a dialog differs from cordon's arrow"
dialog_ready
ctl key click Escape >/dev/null
wait_for "the dialog to close" not header_shown
echo "cursor: the app's image is never over a dialog, and an oversized or lying one is refused"
