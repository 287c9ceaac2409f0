#!/usr/bin/env bash
# A monitor unplugged under windows: they come onto an output that is left, in the state
# they were in (a fullscreen one fills it, a plain one is centred on it, a minimized one is
# there when restored), rather than staying where no output shows them and the pointer
# cannot reach. The same when the monitor on the left goes and the one on its right slides
# over in the layout, leaving its windows behind.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start

geometry() {
	window_json "$1" | jq -r '"\(.x) \(.y) \(.width) \(.height)"'
}
# Whether the window's geometry lies within the box X Y W H.
inside() {
	local x y w h
	read -r x y w h < <(geometry "$1")
	((x >= $2 && y >= $3 && x + w <= $2 + $4 && y + h <= $3 + $5))
}
fills() {
	[[ "$(geometry "$1")" == "$2" ]]
}
is_fullscreen() {
	[[ "$(window_json "$1" | jq -r .fullscreen)" == true ]]
}

# A second monitor, right of HEADLESS-1; new windows map where the pointer is.
second=$(ctl --json output-add 800x600 | jq -r .name)
ctl pointer move 1600 300 >/dev/null
start_client plain "$TC/focus-client" --app-id plain-window
wait_for_window plain-window
start_client full "$TC/focus-client" --app-id full-window
wait_for_window full-window
start_client hidden "$TC/focus-client" --app-id hidden-window --width 120 --height 90
wait_for_window hidden-window
ctl focus full-window >/dev/null
ctl key click super+f >/dev/null
wait_for "full-window fullscreen on $second" fills full-window "1280 0 800 600"
ctl minimize hidden-window >/dev/null
for window in plain-window hidden-window; do
	inside "$window" 1280 0 800 600 || fail "$window is not on $second: $(geometry "$window")"
done

ctl output-remove "$second" >/dev/null
assert_eq '["HEADLESS-1"]' "$(ctl --json outputs | jq -c '[.[].name]')" "outputs after the unplug"
wait_for "plain-window on HEADLESS-1" inside plain-window 0 0 1280 720
wait_for "full-window fullscreen over HEADLESS-1" fills full-window "0 0 1280 720"
is_fullscreen full-window || fail "full-window is no longer fullscreen"
ctl restore hidden-window >/dev/null
wait_for "hidden-window, restored, on HEADLESS-1" inside hidden-window 0 0 1280 720
# Out of fullscreen it goes back to a size and place on the output that is left.
ctl focus full-window >/dev/null
ctl key click super+f >/dev/null
wait_for "full-window back to 300x200 on HEADLESS-1" inside full-window 0 0 1280 720
echo "$second unplugged: its windows are on HEADLESS-1, as they were"

# Two monitors again; the left one goes, and the right one (auto-placed) slides to x 0:
# the windows on it are where it was, and come onto it where it is now.
third=$(ctl --json output-add 800x600 | jq -r .name)
ctl pointer move 1600 300 >/dev/null
start_client right "$TC/focus-client" --app-id right-window
wait_for_window right-window
inside right-window 1280 0 800 600 || fail "right-window is not on $third: $(geometry right-window)"
ctl output-remove HEADLESS-1 >/dev/null
assert_eq "[\"$third\"]" "$(ctl --json outputs | jq -c '[.[].name]')" "outputs after the unplug"
assert_eq "0 0" "$(ctl --json outputs | jq -r '.[0] | "\(.x) \(.y)"')" "$third's place"
for window in right-window plain-window full-window hidden-window; do
	wait_for "$window on $third" inside "$window" 0 0 800 600
done
echo "HEADLESS-1 unplugged: $third moved to 0,0 and every window with it"
cordon_stop
