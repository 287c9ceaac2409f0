#!/usr/bin/env bash
# weston-simple-shm, the smallest real xdg-shell client, maps; its pixels reach the
# output inside the window's geometry and nowhere else; closing it ends it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

cordon_start
start_client shm weston-simple-shm
shm_pid=$CLIENT_PID

# The app_id is the client's word, so the window is found by the pid cordon reads from
# the socket; weston 10 also names itself.
wait_for "a window from weston-simple-shm" _has_window_pid "$shm_pid"
win=$(window_json_by_pid "$shm_pid")
assert_eq org.freedesktop.weston.simple-shm "$(jq -r .app_id <<<"$win")" "app_id of simple-shm"
read -r id x y w h < <(jq -r '"\(.id) \(.x) \(.y) \(.width) \(.height)"' <<<"$win")
# weston 16 draws a 256x256 window (earlier ones 250x250).
assert_eq "256 256" "$w $h" "simple-shm's window size"
((x >= 0 && y >= 0 && x + w <= 1280 && y + h <= 720)) ||
	fail "the window ($x,$y ${w}x$h) is not inside the 1280x720 output"

shot="$TEST_TMP/shot.png"
result=$(ctl --json screenshot HEADLESS-1 "$shot")
assert_eq "1280 720" "$(jq -r '"\(.width) \(.height)"' <<<"$result")" "screenshot result size"
assert_eq "1280 720" "$(png_probe "$shot" size)" "screenshot PNG size"

# The background colour, read at the output corner farthest from the window.
if ((x + w / 2 < 640)); then bx=1275; else bx=4; fi
if ((y + h / 2 < 360)); then by=715; else by=4; fi
read -r r g b _ < <(png_probe "$shot" pixel "$bx" "$by")
bg="$r $g $b"

# Until the first frame with the client's buffer is composited the window area may
# still show the background: wait for it to fill (at most 10% background inside).
shm_drawn() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$bg" 2 "$x" "$y" "$w" "$h") <= 100))
}
wait_for "simple-shm's pixels inside its window geometry" shm_drawn

# Outside the window (with a margin for any border cordon draws) is background. The
# pointer may be drawn, hence 99% and not 100%.
m=8
outside_ok() {
	local file=$1 left right top bottom
	left=$(color_permille "$file" "$bg" 2 0 0 $((x > m ? x - m : 0)) 720)
	right=$(color_permille "$file" "$bg" 2 $((x + w + m)) 0 $((1280 - x - w - m)) 720)
	top=$(color_permille "$file" "$bg" 2 "$x" 0 "$w" $((y > m ? y - m : 0)))
	bottom=$(color_permille "$file" "$bg" 2 "$x" $((y + h + m)) "$w" $((720 - y - h - m)))
	echo "background per mille outside the window: left $left right $right top $top bottom $bottom"
	((left >= 990 && right >= 990 && top >= 990 && bottom >= 990))
}
outside_ok "$shot" || fail "pixels outside simple-shm's window are not the background ($bg)"

# simple-shm exits when asked to close; its pixels go with it.
ctl close "$id"
wait_for "weston-simple-shm to exit after close" not client_alive shm
rc=0
wait "$shm_pid" || rc=$?
assert_eq 0 "$rc" "weston-simple-shm's exit status after close"
wait_for "the window to leave the list" not _has_window_pid "$shm_pid"
shm_gone() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$bg" 2 "$x" "$y" "$w" "$h") >= 990))
}
wait_for "the window's area to show the background again" shm_gone
echo "simple-shm mapped at $x,$y ${w}x$h over background $bg, drawn, closed"
