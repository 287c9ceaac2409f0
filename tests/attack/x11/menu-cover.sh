#!/usr/bin/env bash
# Attack: X lets any client put an override-redirect window anywhere, of any size, above
# every window: a sandboxed X app makes one over the window the user is working in (to
# cover its content or its label with pixels of its own, or to sit under the user's next
# click). Refused: a sandbox's override-redirect window is shown only while a window of its
# own X server has the keyboard (compositor/xwayland_view.c), so while the user works in
# another app it covers nothing. Control: once the user gives the sandboxed window the
# keyboard, the same window is drawn where X put it (the probe makes a real one).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"

x_cordon_start --debug
start_client host "$TC/surface-client" --app-id org.example.Working --color ffff0000 \
	--width 400 --height 300
wait_for_window org.example.Working
click_window org.example.Working
wait_for_focus org.example.Working
read -r hx hy hw hh <<<"$(geometry org.example.Working)"

app="$APP_ID.Cover"
x_sandbox a "$app" --app "$CORDON_SOURCE_ROOT/tests/x11"
# A 200 px square of (200,40,40) over the middle of the user's window.
px=$((hx + hw / 2 - 100)) py=$((hy + hh / 2 - 100))
x_bg a "GDK_BACKEND=x11 python3 /app/x11-window.py --title cover --color 30,160,90 --popup $px,$py,200,200,40,40 > /tmp/gtk.log 2>&1"
wait_x_window "$app" cover
# The user goes on working in their window (a click raises it over the sandbox's window).
click_window org.example.Working
wait_for_focus org.example.Working
wait_for "the sandbox's override-redirect window to map" grep -q \
	"X override-redirect window 0x[0-9a-f]* mapped at $px,$py, 200x200" \
	"$CORDON_LOG"
_working_red() {
	screenshot HEADLESS-1 "$TEST_TMP/cover.png"
	(($(color_permille "$TEST_TMP/cover.png" "255 0 0" 2 "$px" "$py" 200 200) >= 990))
}
wait_for "the user's window to be drawn under the square" _working_red
assert_eq 0 "$(color_permille "$TEST_TMP/cover.png" "200 40 40" 8 "$px" "$py" 200 200)" \
	"per mille of the sandbox's square over the user's window"
echo "unfocused: the sandbox's override-redirect square covers nothing of the user's window"

# Control: the user gives the sandboxed window the keyboard; its square shows.
ctl focus "$(x_window_of "$app" cover | jq -r .id)" >/dev/null
_square_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/shown.png"
	(($(color_permille "$TEST_TMP/shown.png" "200 40 40" 8 "$px" "$py" 200 200) >= 990))
}
wait_for "the square once its window has the keyboard" _square_shown
echo "focused: the same square is drawn where X put it (the probe made a real one)"
