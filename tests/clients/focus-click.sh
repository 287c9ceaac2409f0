#!/bin/bash
# Clicking a window gives it the keyboard: the client sees keyboard-enter, the
# one it replaces keyboard-leave, and `windows` marks it focused.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start --output 1280x720

# A wide and a tall window: however cordon places and stacks them, each keeps
# a part the other does not cover (both centred, they form a cross).
start_client wide "$TC/focus-client" --app-id focus-wide --width 700 --height 150
wait_for_window focus-wide
start_client tall "$TC/focus-client" --app-id focus-tall --width 150 --height 500
wait_for_window focus-tall

# focused_one APP_ID: APP_ID is focused and no other window is.
focused_one() {
	windows_json | jq -e --arg app "$1" \
		'(map(select(.focused)) | map(.app_id)) == [$app]' >/dev/null
}

# keyboard_is LOG EVENT: the client's last keyboard focus event was EVENT.
keyboard_is() {
	[ "$(last_keyboard_event "$1")" = "$2" ]
}

# click_and_check CLICKED LOG OTHER OTHER_LOG
click_and_check() {
	local app=$1 log=$2 other=$3 other_log=$4
	local presses
	presses=$(log_count "$log" '^button name=left .*state=pressed')
	click_window "$app"
	wait_for "$app to get the click" log_count_above "$log" '^button name=left .*state=pressed' "$presses"
	wait_for "$app to be the only focused window" focused_one "$app"
	wait_for "$app to get keyboard focus" keyboard_is "$log" keyboard-enter
	wait_for "$other to lose keyboard focus" keyboard_is "$other_log" keyboard-leave
}

click_and_check focus-wide wide focus-tall tall
click_and_check focus-tall tall focus-wide wide
click_and_check focus-wide wide focus-tall tall
