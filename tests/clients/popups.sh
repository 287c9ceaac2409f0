#!/bin/bash
# A menu opened at a window's bottom-right corner near the output's corner
# would hang off the screen; the compositor must move it back (xdg_positioner
# constraint adjustments), for a popup and for a popup of a popup.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

OUTPUT_W=1280
OUTPUT_H=720
POPUP_W=300
POPUP_H=200

cordon_start --output "${OUTPUT_W}x${OUTPUT_H}"

# popup_geometry NAME DEPTH: "X Y W H" from the client's last configure of that popup.
popup_geometry() {
	log_last "$1" "^popup-configure .* depth=$2\$" |
		sed -E 's/^popup-configure x=(-?[0-9]+) y=(-?[0-9]+) w=([0-9]+) h=([0-9]+) .*/\1 \2 \3 \4/'
}

# assert_on_output WHAT X Y W H: the rectangle lies fully on the output.
assert_on_output() {
	local what=$1 x=$2 y=$3 w=$4 h=$5
	if [ "$x" -lt 0 ] || [ "$y" -lt 0 ] ||
		[ $((x + w)) -gt "$OUTPUT_W" ] || [ $((y + h)) -gt "$OUTPUT_H" ]; then
		fail "$what at ${x},${y} ${w}x${h} is not within the ${OUTPUT_W}x${OUTPUT_H} output"
	fi
	assert_eq "$POPUP_W $POPUP_H" "$w $h" "$what keeps the size it asked for"
}

# check_case NAME DEPTH CLIENT-ARGS...: starts a popup-client and checks its popups.
check_case() {
	local name=$1 depth=$2
	shift 2
	start_client "$name" "$TC/popup-client" --app-id "$name" --width 1000 --height 600 \
		--popup-width "$POPUP_W" --popup-height "$POPUP_H" "$@"
	wait_for_window "$name"
	wait_log "$name" "^popup-configure .* depth=$depth\$"

	local wx wy ww wh
	read -r wx wy ww wh < <(geometry "$name")
	# Without this the test would pass with no unconstraining at all.
	if [ $((wx + ww + POPUP_W)) -le "$OUTPUT_W" ] && [ $((wy + wh + POPUP_H)) -le "$OUTPUT_H" ]; then
		fail "test setup: window $name at ${wx},${wy} ${ww}x${wh} leaves room for the popup"
	fi

	local px=$wx py=$wy level x y w h
	for level in $(seq 1 "$depth"); do
		read -r x y w h < <(popup_geometry "$name" "$level")
		# Each popup's position is relative to its parent's window geometry.
		px=$((px + x))
		py=$((py + y))
		assert_on_output "$name popup $level" "$px" "$py" "$w" "$h"
	done
	ctl close "$name"
	wait_for_window_gone "$name"
	expect_clean_exit "$name"
}

check_case popup-flip-slide 1
check_case popup-slide-only 1 --adjust slide
check_case popup-nested 2 --nested
