#!/usr/bin/env bash
# Attack: a sandboxed app covers the label cordon draws around its window, with a
# subsurface and with a popup placed over the strip and frame, each in a colour of its
# own (magenta); or it says its window is a small part of its buffer, so that the rest
# shows outside the frame as a second, unlabelled window. The label stays whole, in the
# sandbox's colour, with no magenta on it; nothing of the lying buffer shows outside the
# geometry cordon frames; the popup is framed in the app's colour (docs/security.md,
# "Labels").
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"
SPOOFER=${CORDON_LABEL_SPOOFER:?CORDON_LABEL_SPOOFER is not set}

test_cgroup app-flatpak-org.example.Cover-1.scope
cordon_start
magenta="255 0 255"

start_client cover "${IN_CGROUP[@]}" "$TEST_CGROUP" "$SPOOFER" --app-id cover \
	--color ff404040 --subsurface-over-label ffff00ff --popup-over-label ffff00ff
wait_for_window cover
wait_for "the subsurface" grep -q '^subsurface-mapped$' "$TEST_TMP/cover.log"
wait_for "the popup" grep -q '^popup-configured$' "$TEST_TMP/cover.log"
color=$(window_json cover | jq -r .label.color)
[[ "$color" =~ ^#[0-9a-f]{6}$ ]] || fail "no label colour: $(window_json cover)"
read -r x y w h < <(window_box cover)
shot="$TEST_TMP/cover.png"

# Both coverings are drawn (magenta above the strip, where the label does not reach), yet
# the strip and frame are the label's colour with no magenta on them.
label_intact() {
	local strip left right above over
	screenshot HEADLESS-1 "$shot"
	read -r strip left right < <(label_permille "$shot" "$x" "$y" "$w" "$h" "$color")
	above=$(png_probe "$shot" count-color $magenta 2 "$x" $((y - 40)) "$w" 14)
	over=$(png_probe "$shot" count-color $magenta 2 $((x - 4)) $((y - 26)) $((w + 8)) 26)
	echo "label $color: strip $strip left $left right $right per mille;" \
		"magenta above it $above px, on it $over px"
	((above > 0 && over == 0 && strip >= 500 && left >= 990 && right >= 990))
}
wait_for "the label to be drawn over the app's subsurface and popup" label_intact
# The popup wears the app's colour too: a 2 px frame around it (it starts 8 px left of
# the window and 40 px above it).
popup_framed() {
	local side top
	screenshot HEADLESS-1 "$shot"
	side=$(color_permille "$shot" "$(rgb "$color")" 2 $((x - 10)) $((y - 40)) 2 40)
	top=$(color_permille "$shot" "$(rgb "$color")" 2 $((x - 8)) $((y - 42)) $((w + 16)) 2)
	echo "popup frame: side $side, top $top per mille"
	((side >= 990 && top >= 990))
}
wait_for "the popup's frame in the label colour" popup_framed
stop_client cover

# The geometry lie: a 400x300 magenta buffer whose window is its 100x100 top-left corner.
start_client liar "${IN_CGROUP[@]}" "$TEST_CGROUP" "$SPOOFER" --app-id liar \
	--color ffff00ff --geometry-lie
wait_for_window liar
wait_for "the lie to be applied" window_is liar '.width == 100 and .height == 100'
read -r x y w h < <(window_box liar)
nothing_outside() {
	local inside outside
	screenshot HEADLESS-1 "$shot"
	inside=$(png_probe "$shot" count-color $magenta 2 "$x" "$y" 100 100)
	outside=$(png_probe "$shot" count-color $magenta 2 $((x + 104)) "$y" 296 300)
	outside=$((outside + $(png_probe "$shot" count-color $magenta 2 "$x" $((y + 104)) 100 196)))
	echo "magenta inside the frame $inside px, outside it $outside px"
	((inside >= 9900 && outside == 0))
}
wait_for "nothing of the buffer outside the window it claims" nothing_outside
echo "label cover: subsurface, popup and geometry lie leave the label whole"
