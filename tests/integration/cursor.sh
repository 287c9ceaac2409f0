#!/usr/bin/env bash
# The cursor: none is drawn until a pointer first moves (so a fullscreen client can be
# scanned out directly), and the theme, read only then, draws one where it went.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"

cordon_start --output 640x480
# grim -c copies the output's own frames with the cursor overlaid (cordonctl
# screenshot renders the scene alone; without -c, wlroots 0.20 leaves the software
# cursor out of screencopy frames, as the protocol asks).
timeout 20 grim -c "$TEST_TMP/before.png" 2>"$TEST_TMP/grim.log" || fail "grim failed"
assert_eq 1000 "$(color_permille "$TEST_TMP/before.png" "0 0 0" 0 0 0 640 480)" \
	"black background everywhere before the pointer moved (permille)"

ctl pointer move 300 200
# cursor_drawn: the 32x32 square below and right of the hotspot is no longer all
# background.
cursor_drawn() {
	timeout 20 grim -c "$TEST_TMP/after.png" 2>>"$TEST_TMP/grim.log" &&
		(($(color_permille "$TEST_TMP/after.png" "0 0 0" 0 300 200 32 32) < 990))
}
wait_for "a cursor image at 300,200" cursor_drawn
# ... and only there: the rest of the output is still background.
assert_eq 1000 "$(color_permille "$TEST_TMP/after.png" "0 0 0" 0 0 0 280 480)" \
	"background left of the cursor (permille)"
echo "no cursor before the pointer moved; a cursor image at the pointer after"
