#!/usr/bin/env bash
# Which output a dialog is drawn on, with two side by side: its parent window's (even
# with the pointer on the other output), else the pointer's. The built-in UI draws
# it; each output's screenshot says where it is.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
cordon_start --verbose --output 800x600 --output 800x600
portal_sandbox_init org.example.DialogOutput
assert_eq "HEADLESS-1 0 HEADLESS-2 800" \
	"$(ctl --json outputs | jq -r '[.[] | "\(.name) \(.x)"] | join(" ")')" "the outputs"

# The 720x520 dialog centred on an 800x600 output: its header band at 40,40 there.
header_on() {
	screenshot "$1" "$TEST_TMP/$1.png"
	(($(color_permille "$TEST_TMP/$1.png" "31 58 95" 4 40 40 720 8) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}

# A window on the second output (new windows go on the pointer's), then the pointer
# back on the first before the window asks.
ctl pointer move 1200 300 >/dev/null
start_client win "${in_sandbox[@]}" "$CORDON_TEST_PORTAL_CLIENT" window
wait_for_window portal-window
x=$(window_json portal-window | jq .x)
((x >= 800)) || fail "the window is not on the second output (x=$x)"
ctl pointer move 400 300 >/dev/null
kill -USR1 "$(client_pid win)"
wait_for "the request to be pending" pending 1
wait_for "the dialog on the parent window's output" header_on HEADLESS-2
dialog_ready
! header_on HEADLESS-1 || fail "the dialog is also on the first output"
echo "parent window on HEADLESS-2, pointer on HEADLESS-1: the dialog on HEADLESS-2"
stop_client win
wait_for "the dialog to go with its window" not header_on HEADLESS-2
wait_for "no request left" pending 0

# No parent: the pointer's output.
ctl pointer move 1200 300 >/dev/null
start_client open "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP"
wait_for "the dialog on the pointer's output" header_on HEADLESS-2
dialog_ready
! header_on HEADLESS-1 || fail "the parentless dialog is also on the first output"
echo "no parent, pointer on HEADLESS-2: the dialog on HEADLESS-2"
stop_client open
wait_for "no request left" pending 0

# The output a dialog and a window are on is unplugged: cordon goes on, and the dialog
# is drawn on what is left at its next redraw (a key moves its selection).
start_client win2 "${in_sandbox[@]}" "$CORDON_TEST_PORTAL_CLIENT" window
wait_for_window portal-window
start_client open2 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP"
wait_for "the dialog on HEADLESS-2 again" header_on HEADLESS-2
dialog_ready
ctl output-remove HEADLESS-2 >/dev/null
assert_eq '["HEADLESS-1"]' "$(ctl --json outputs | jq -c '[.[].name]')" "outputs after the unplug"
ctl key click Down >/dev/null
wait_for "the dialog on the output that is left" header_on HEADLESS-1
dialog_ready
window_json portal-window >/dev/null || fail "the window on the unplugged output is gone"
ctl key click Escape >/dev/null
wait_for "no request left" pending 0
echo "HEADLESS-2 unplugged under a dialog and a window: the dialog moved to HEADLESS-1"
stop_client open2
stop_client win2
cordon_stop
