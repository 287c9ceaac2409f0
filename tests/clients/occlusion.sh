#!/usr/bin/env bash
# Occlusion culling: a window that an opaque window covers entirely is not drawn and
# gets no frame callbacks; uncovered, it is drawn again (cordonctl screenshot and grim
# show its pixels) and its frame callbacks resume. A window above that is not declared
# opaque hides nothing from the compositor's point of view: the one below keeps its
# frame callbacks.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start --output 1280x720

frames() {
	log_count "$1" '^frame '
}

# frames_grow NAME BY: waits until NAME has had BY more frame callbacks than now.
frames_grow() {
	local start
	start=$(frames "$1")
	wait_for "$2 more frame callbacks for $1" log_count_above "$1" '^frame ' $((start + $2 - 1))
}

# no_frames_while NAME OTHER: NAME gets no frame callback while OTHER gets 30 (half a
# second at 60 Hz; OTHER's count is the clock, so no fixed sleep).
no_frames_while() {
	local before
	before=$(frames "$1")
	frames_grow "$2" 30
	assert_eq "$before" "$(frames "$1")" "frame callbacks of $1 while $2 got 30"
}

# red_permille FILE: how much of the bottom window's area is its red.
red_permille() {
	# shellcheck disable=SC2086 # geometry prints four numbers
	color_permille "$1" "255 0 0" 8 $(geometry occ-bottom)
}

# A red 200x200 window, then a blue 400x400 one: both centred, the blue one covers it.
start_client bottom "$TC/frame-client" --app-id occ-bottom --width 200 --height 200 \
	--color ffff0000
wait_for_window occ-bottom
frames_grow bottom 10
start_client top "$TC/frame-client" --app-id occ-top --width 400 --height 400 \
	--color ff0000ff
wait_for_window occ-top
read -r bx by bw bh <<<"$(geometry occ-bottom)"
read -r tx ty tw th <<<"$(geometry occ-top)"
((tx <= bx && ty <= by && tx + tw >= bx + bw && ty + th >= by + bh)) ||
	fail "the 400x400 window ($tx $ty $tw $th) covers the 200x200 one ($bx $by $bw $bh)"
# Once the top window has drawn 20 frames, the bottom one's last callback is long
# delivered: from here on it must get none.
frames_grow top 20
no_frames_while bottom top

screenshot HEADLESS-1 "$TEST_TMP/covered.png"
assert_eq 0 "$(red_permille "$TEST_TMP/covered.png")" "red visible through the opaque window"

# Uncovered: drawn again at once (the screenshot comes before any new frame of it) ...
ctl minimize occ-top
screenshot HEADLESS-1 "$TEST_TMP/uncovered.png"
red=$(red_permille "$TEST_TMP/uncovered.png")
((red >= 990)) || fail "the uncovered window's area is red ($red/1000)"
# ... and animating again.
frames_grow bottom 20
if command -v grim >/dev/null; then
	timeout 20 grim "$TEST_TMP/grim.png" 2>"$TEST_TMP/grim.log" || fail "grim failed"
	red=$(red_permille "$TEST_TMP/grim.png")
	((red >= 990)) || fail "grim's capture of the uncovered window is red ($red/1000)"
fi

# Covered again by restoring the top window.
ctl restore occ-top
frames_grow top 20
no_frames_while bottom top
screenshot HEADLESS-1 "$TEST_TMP/covered-again.png"
assert_eq 0 "$(red_permille "$TEST_TMP/covered-again.png")" "red visible after the restore"

# Closing the cover works as well as minimizing it.
ctl close occ-top
wait_for_window_gone occ-top
frames_grow bottom 20
screenshot HEADLESS-1 "$TEST_TMP/closed.png"
red=$(red_permille "$TEST_TMP/closed.png")
((red >= 990)) || fail "the window is red again after its cover closed ($red/1000)"

# A cover without an opaque region may be translucent: the window below stays live.
start_client glass "$TC/frame-client" --app-id occ-glass --width 400 --height 400 \
	--color ff00ff00 --no-opaque-region
wait_for_window occ-glass
frames_grow glass 10
frames_grow bottom 30
echo "covered: no frame callbacks and not drawn; uncovered: drawn and animating again"
