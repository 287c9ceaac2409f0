#!/usr/bin/env bash
# The globals of a current desktop, each used by a client and checked where the user
# would see it. A window drawn as toolkits do now: at 50% opacity (alpha-modifier) it
# blends with the background; a single-pixel buffer stretched by the viewporter over its
# left half blends with it in turn; the window is told to draw at scale 1 (fractional-scale: 120)
# and cordonctl reports its content type. grim captures the screen through
# ext-image-copy-capture, and one window by its ext-foreign-toplevel-list handle. A sandboxed client draws the same way,
# but finds neither the window list nor any capture global.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"

# pixel_near FILE X Y "R G B" TOLERANCE: the pixel is that colour, give or take.
pixel_near() {
	local got want
	read -r -a got <<<"$(png_probe "$1" pixel "$2" "$3")"
	read -r -a want <<<"$4"
	for i in 0 1 2; do
		((got[i] - want[i] <= $5 && want[i] - got[i] <= $5)) || return 1
	done
}

cordon_start
# A blue window at half opacity; over its left half a single pixel of red at half
# opacity (premultiplied: 80 00 00 80), stretched.
start_client surface "$TC/surface-client" --app-id org.example.Surface --width 300 --height 200 \
	--color ff0000ff --alpha 50 --pixel 80000080 --content-type game
wait_for_window org.example.Surface
wait_log surface '^preferred-scale 120$'
assert_eq game "$(window_json org.example.Surface | jq -r .content_type)" \
	"the content type cordonctl reports"
read -r x y w h <<<"$(geometry org.example.Surface)"
assert_eq "300 200" "$w $h" "the window's size"
timeout 20 grim "$TEST_TMP/screen.png" || fail "grim failed"
read -r -a bg <<<"$(png_probe "$TEST_TMP/screen.png" pixel $((x - 20)) $((y - 20)))"
# The right half: blue over the background, half and half.
right=$(((bg[0] + 1) / 2)):$((bg[1] / 2)):$(((bg[2] + 255) / 2))
read -r -a r <<<"${right//:/ }"
pixel_near "$TEST_TMP/screen.png" $((x + 3 * w / 4)) $((y + h / 2)) "${r[*]}" 3 ||
	fail "the right half is $(png_probe "$TEST_TMP/screen.png" pixel $((x + 3 * w / 4)) \
		$((y + h / 2))), not blue at 50% over the background (${bg[*]})"
# The left half: the red pixel over that.
pixel_near "$TEST_TMP/screen.png" $((x + w / 4)) $((y + h / 2)) \
	"$((128 + r[0] / 2)) $((r[1] / 2)) $((r[2] / 2))" 3 ||
	fail "the left half is $(png_probe "$TEST_TMP/screen.png" pixel $((x + w / 4)) \
		$((y + h / 2))), not red at 50% over the right half's colour (${r[*]})"

# A green window, captured by its ext-foreign-toplevel-list handle.
start_client below "$TC/focus-client" --app-id org.example.Below --width 200 --height 100 \
	--color ff00ff00
wait_for_window org.example.Below
wait_for_focus org.example.Below
"$TC/toplevel-list-client" >"$TEST_TMP/toplevels.log" || fail "toplevel-list-client failed"
for app_id in org.example.Surface org.example.Below; do
	grep -q "^toplevel app_id=$app_id " "$TEST_TMP/toplevels.log" ||
		fail "the window list misses $app_id: $(cat "$TEST_TMP/toplevels.log")"
done
below_id=$(sed -n 's/^toplevel app_id=org.example.Below .*identifier=//p' "$TEST_TMP/toplevels.log")
[[ -n "$below_id" ]] || fail "no identifier for the green window"
timeout 20 grim -T "$below_id" "$TEST_TMP/below.png" || fail "grim -T $below_id failed"
assert_eq "200 100" "$(png_probe "$TEST_TMP/below.png" size)" "the size of the window's capture"
assert_eq 1000 "$(color_permille "$TEST_TMP/below.png" "0 255 0" 0 0 0 200 100)" \
	"permille of green in the capture of the green window"

# wlroots 0.20 captures a window as the screen shows it in the window's place: a window
# over it is in the capture (docs/protocols.md).
start_client above "$TC/focus-client" --app-id org.example.Above --width 700 --height 500 \
	--color ff808080
wait_for_window org.example.Above
wait_for_focus org.example.Above
timeout 20 grim -T "$below_id" "$TEST_TMP/covered.png" || fail "grim -T $below_id failed"
assert_eq 1000 "$(color_permille "$TEST_TMP/covered.png" "128 128 128" 0 0 0 200 100)" \
	"permille of the covering grey in the capture of the covered window"
stop_client above
stop_client below

# Sandboxed: the drawing globals are there, the window list and capture are not.
start_client launcher "$TC/security-context-client" --listen "$TEST_TMP/sandbox.sock" \
	--engine cordon --app-id org.example.Sandboxed --commit
wait_log launcher '^ready$'
start_client sandboxed env WAYLAND_DISPLAY="$TEST_TMP/sandbox.sock" "$TC/surface-client" \
	--app-id org.example.InSandbox --content-type video
wait_for_window org.example.InSandbox
wait_log sandboxed '^preferred-scale 120$'
assert_eq "true video" "$(window_json org.example.InSandbox | jq -r '"\(.sandboxed) \(.content_type)"')" \
	"the sandboxed window's tag and content type"
out=$(WAYLAND_DISPLAY="$TEST_TMP/sandbox.sock" "$TC/toplevel-list-client" 2>&1) &&
	fail "a sandboxed client listed the windows: $out"
grep -q "offers no ext_foreign_toplevel_list_v1" <<<"$out" || fail "unexpected failure: $out"
out=$(WAYLAND_DISPLAY="$TEST_TMP/sandbox.sock" timeout 20 grim "$TEST_TMP/stolen.png" 2>&1) &&
	fail "a sandboxed grim captured the screen"
[[ ! -s "$TEST_TMP/stolen.png" ]] || fail "a sandboxed grim wrote an image: $out"
echo "surface drawn and captured; window $below_id captured"
