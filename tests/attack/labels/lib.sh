# Helpers of the label attacks; sourced after tests/lib/harness.sh.

# rgb "#rrggbb": prints "R G B" for png-probe.
rgb() {
	printf '%d %d %d' "0x${1:1:2}" "0x${1:3:2}" "0x${1:5:2}"
}

# window_box APP_ID: "X Y W H" of the window geometry.
window_box() {
	window_json "$1" | jq -r '"\(.x) \(.y) \(.width) \(.height)"'
}

# label_permille FILE X Y W H COLOUR: per mille of the strip above and of the frame's
# left and right sides of the window at X Y W H that are COLOUR, as "STRIP LEFT RIGHT".
label_permille() {
	local file=$1 x=$2 y=$3 w=$4 h=$5 color
	color=$(rgb "$6")
	echo "$(color_permille "$file" "$color" 2 "$x" $((y - 26)) "$w" 22)" \
		"$(color_permille "$file" "$color" 2 $((x - 4)) "$y" 4 "$h")" \
		"$(color_permille "$file" "$color" 2 $((x + w)) "$y" 4 "$h")"
}
