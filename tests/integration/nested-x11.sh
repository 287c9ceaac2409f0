#!/usr/bin/env bash
# cordon on the X11 backend, as a window on an X server (Xvfb), runs a Wayland client.
set -euo pipefail
: "${CORDON_TEST_TIMEOUT:=20}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v Xvfb >/dev/null || skip "Xvfb not found (Debian package xvfb)"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

cordon_test_init
# -displayfd lets Xvfb pick a free display number itself: no race with other tests.
start_client xvfb bash -c 'exec Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$1"' \
	Xvfb "$TEST_TMP/xvfb.display"
wait_for "Xvfb to choose a display number" test -s "$TEST_TMP/xvfb.display"
display=":$(head -n 1 "$TEST_TMP/xvfb.display")"

x11="wayland-x11-$$"
cordon_spawn_extra "$x11" WLR_BACKENDS=x11 DISPLAY="$display" "$(nested_lsan_env)"
outputs=$(ctl_at "$x11" --json outputs)
output=$(jq -r '.[0].name' <<<"$outputs")
assert_eq 1 "$(jq length <<<"$outputs")" "outputs of cordon on the X11 backend"
[[ "$output" == X11-* ]] || fail "the output of cordon on X11 is named '$output', not X11-N"
read -r ow oh < <(jq -r '.[0] | "\(.width) \(.height)"' <<<"$outputs")

start_client shm env WAYLAND_DISPLAY="$x11" weston-simple-shm
shm_pid=$CLIENT_PID
wait_for "weston-simple-shm's window in cordon on X11" _has_window_pid_at "$x11" "$shm_pid"
read -r x y w h < <(window_json_by_pid_at "$x11" "$shm_pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
((x >= 0 && y >= 0 && x + w <= ow && y + h <= oh)) ||
	fail "the window ($x,$y ${w}x$h) is not inside the ${ow}x$oh output"

shot="$TEST_TMP/x11.png"
screenshot_at "$x11" "$output" "$shot"
if ((x + w / 2 < ow / 2)); then bx=$((ow - 5)); else bx=4; fi
if ((y + h / 2 < oh / 2)); then by=$((oh - 5)); else by=4; fi
bg=$(png_probe "$shot" pixel "$bx" "$by" | cut -d' ' -f1-3)
shm_drawn() {
	screenshot_at "$x11" "$output" "$shot"
	(($(color_permille "$shot" "$bg" 2 "$x" "$y" "$w" "$h") <= 100))
}
wait_for "simple-shm's pixels on cordon's X11 output" shm_drawn
echo "cordon on X11 display $display ($output ${ow}x$oh) shows simple-shm at $x,$y"
