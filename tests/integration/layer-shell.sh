#!/usr/bin/env bash
# wlr-layer-shell through a real client: swaybg's background surface fills the
# output below the windows, and goes away with its client.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v swaybg >/dev/null || skip "swaybg not found (Debian package swaybg)"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

cordon_start
shot="$TEST_TMP/shot.png"
blue="51 102 153"

start_client swaybg swaybg -c '#336699'
# An anchored, zero-sized background surface is stretched over the whole output.
background_drawn() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$blue" 2 0 0 1280 720) >= 990))
}
wait_for "swaybg's colour over the whole output" background_drawn

start_client shm weston-simple-shm
shm_pid=$CLIENT_PID
wait_for "a window from weston-simple-shm" _has_window_pid "$shm_pid"
read -r x y w h < <(window_json_by_pid "$shm_pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
# The window is above the background layer: its area is no longer blue.
window_on_top() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$blue" 2 "$x" "$y" "$w" "$h") <= 100))
}
wait_for "simple-shm drawn above the background" window_on_top
assert_eq "$blue" "$(png_probe "$shot" pixel 4 4 | cut -d' ' -f1-3)" "background beside the window"

# When its client goes, so does the layer surface.
stop_client swaybg
background_gone() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$blue" 2 0 0 1280 720) == 0))
}
wait_for "the background to go with swaybg" background_gone
ctl --json windows | jq -e 'length == 1' >/dev/null || fail "simple-shm's window went too"

# A monitor unplugged under a layer surface: the surface is closed with its output, and
# cordon, the window and the other output carry on (it once crashed here, damaging a scene
# output whose damage tracker had gone first).
name=$(ctl --json output-add 800x600 | jq -r .name)
start_client swaybg2 swaybg -o "$name" -c "#$(printf '%02x%02x%02x' $blue)"
on_new_output() {
	screenshot "$name" "$shot"
	(($(color_permille "$shot" "$blue" 2 0 0 800 600) >= 990))
}
wait_for "swaybg's colour on $name" on_new_output
ctl output-remove "$name" >/dev/null
assert_eq '["HEADLESS-1"]' "$(ctl --json outputs | jq -c '[.[].name]')" "outputs after the unplug"
ctl --json windows | jq -e 'length == 1' >/dev/null || fail "simple-shm's window went with the output"
