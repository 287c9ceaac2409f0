#!/usr/bin/env bash
# A sandboxed window across two outputs carries its label on both: the strip and frame in
# its colour on each, and the label's text on each (it starts again where the strip enters
# the second output), on screenshots of each output.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"

test_cgroup app-flatpak-org.example.Wide-1.scope
cordon_start --output 1280x720 --output 1280x720
start_client shm "${IN_CGROUP[@]}" "$TEST_CGROUP" weston-simple-shm
pid=$CLIENT_PID
wait_for "the sandboxed window" _has_window_pid "$pid"
read -r x y color < <(window_json_by_pid "$pid" | jq -r '"\(.x) \(.y) \(.label.color)"')

# Logo+drag it across the outputs' edge at x=1280.
ctl pointer move $((x + 30)) $((y + 30)) >/dev/null
ctl key press super >/dev/null
ctl pointer button left press >/dev/null
ctl pointer move $((1150 + 30)) $((y + 30)) >/dev/null
ctl pointer button left release >/dev/null
ctl key release super >/dev/null
wait_for "the window across both outputs" sh -c "$(printf '%q ' "$CORDONCTL") --json windows |
	jq -e --argjson p $pid 'any(.[]; .pid == \$p and .x == 1150)'"
read -r x y w h < <(window_json_by_pid "$pid" | jq -r '"\(.x) \(.y) \(.width) \(.height)"')

# The text is white or black, whichever reads on the colour: count the pixels of both.
text_pixels() {
	local file=$1 x=$2 w=$3
	echo $(($(png_probe "$file" count-color 255 255 255 60 "$x" $((y - 26)) "$w" 22) +
		$(png_probe "$file" count-color 0 0 0 60 "$x" $((y - 26)) "$w" 22)))
}
both_outputs() {
	local one="$TEST_TMP/one.png" two="$TEST_TMP/two.png" strip1 strip2 text1 text2 left right
	screenshot HEADLESS-1 "$one"
	screenshot HEADLESS-2 "$two"
	# Left output: from the window's left edge to x=1280; right output: from 0.
	strip1=$(color_permille "$one" "$(rgb "$color")" 2 "$x" $((y - 26)) $((1280 - x)) 22)
	strip2=$(color_permille "$two" "$(rgb "$color")" 2 0 $((y - 26)) $((x + w - 1280)) 22)
	left=$(color_permille "$one" "$(rgb "$color")" 2 $((x - 4)) "$y" 4 "$h")
	right=$(color_permille "$two" "$(rgb "$color")" 2 $((x + w - 1280)) "$y" 4 "$h")
	text1=$(text_pixels "$one" "$x" $((1280 - x)))
	# (Short of the strip's right end, where the focus mark is drawn in the text's colour.)
	text2=$(text_pixels "$two" 0 $((x + w - 1280 - 20)))
	echo "strip $strip1/$strip2 per mille, frame $left/$right, text $text1/$text2 px"
	((strip1 >= 500 && strip2 >= 500 && left >= 990 && right >= 990 && text1 > 20 && text2 > 20))
}
wait_for "the label on both outputs" both_outputs
echo "labels: across two outputs, in $color with its text on each"
