#!/usr/bin/env bash
# cordon on the Wayland backend inside a headless cordon: the inner one is a window of
# the outer, a client of the inner maps, and its pixels reach the outer's output.
set -euo pipefail
: "${CORDON_TEST_TIMEOUT:=20}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

cordon_start
inner="wayland-inner-$$"
cordon_spawn_extra "$inner" WLR_BACKENDS=wayland "$(nested_lsan_env)"
inner_pid=$(extra_pid "$inner")

wait_for "the inner cordon's window in the outer cordon" _has_window_pid "$inner_pid"
read -r ox oy ow oh < <(window_json_by_pid "$inner_pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')
outputs=$(ctl_at "$inner" --json outputs)
inner_output=$(jq -r '.[0].name' <<<"$outputs")
[[ "$inner_output" == WL-* ]] || fail "the inner cordon's output is named '$inner_output', not WL-N"

start_client shm env WAYLAND_DISPLAY="$inner" weston-simple-shm
shm_pid=$CLIENT_PID
wait_for "weston-simple-shm's window in the inner cordon" _has_window_pid_at "$inner" "$shm_pid"
read -r ix iy iw ih < <(window_json_by_pid_at "$inner" "$shm_pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')

# The background, from a corner of the outer output away from everything.
shot="$TEST_TMP/outer.png"
screenshot HEADLESS-1 "$shot"
bg=$(png_probe "$shot" pixel 1275 715 | cut -d' ' -f1-3)

inner_shot="$TEST_TMP/inner.png"
inner_drawn() {
	screenshot_at "$inner" "$inner_output" "$inner_shot"
	(($(color_permille "$inner_shot" "$bg" 2 "$ix" "$iy" "$iw" "$ih") <= 100))
}
wait_for "simple-shm's pixels on the inner cordon's output" inner_drawn

# The same pixels on the outer output, where the inner window puts them (clipped to
# the 1280x720 output).
sx=$((ox + ix)) sy=$((oy + iy))
x0=$((sx > 0 ? sx : 0)) y0=$((sy > 0 ? sy : 0))
x1=$((sx + iw < 1280 ? sx + iw : 1280)) y1=$((sy + ih < 720 ? sy + ih : 720))
((x1 - x0 >= 50 && y1 - y0 >= 50)) ||
	fail "simple-shm (inner $ix,$iy) in the inner window ($ox,$oy ${ow}x$oh) is off the outer output"
outer_drawn() {
	screenshot HEADLESS-1 "$shot"
	(($(color_permille "$shot" "$bg" 2 "$x0" "$y0" $((x1 - x0)) $((y1 - y0))) <= 100))
}
wait_for "simple-shm's pixels on the outer output" outer_drawn
echo "inner cordon as window at $ox,$oy ${ow}x$oh; simple-shm inside at $ix,$iy reached both outputs"
