#!/usr/bin/env bash
# Attack: a sandboxed app locks the pointer (zwp_pointer_constraints_v1) to keep it: a
# user who merely moves across its window could no longer leave it, and a trusted dialog
# that comes up could not be reached with the pointer. Refused (docs/security.md): a
# lock holds only on the window that has both the pointer and the keyboard focus the
# user gave it, and never while a portal dialog has the keyboard. Positive control:
# after a click in the window the lock holds: motion no longer moves the pointer, and
# the app still hears it as relative motion (zwp_relative_pointer_manager_v1), as a game
# does.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}

builtin_ui_init
mkdir -p "$TEST_TMP/out"
cordon_start --verbose
portal_sandbox_init org.example.Trap

start_client trap "${in_sandbox[@]}" "$THIEF" --app-id trap --width 1280 --height 720 \
	--lock-pointer
wait_for_window trap
wait_log trap '^lock-requested$'

# The user moves across the window without clicking it: the pointer moves on. (Where the
# window is: cordon keeps a sandboxed window's label on the output, so not at 0,0.)
read -r wx wy < <(window_json trap | jq -r '"\(.x) \(.y)"')
ctl pointer move 100 100 >/dev/null
wait_log trap '^pointer-enter$'
ctl pointer motion 40 0 >/dev/null
wait_log trap "^motion x=$((140 - wx)) y=$((100 - wy))\$"
! log_has trap '^pointer-locked$' || fail "the lock took a pointer that only passed over the app"
! log_has trap '^keyboard-enter$' || fail "the app got the keyboard without a click"

# Positive control: the user clicks into the window (shown for the consent delay first).
sleep_until_consent() {
	[[ "$(window_json trap | jq -r .input_trusted)" == true ]]
}
wait_for "the window to count as shown" sleep_until_consent
ctl pointer button left click >/dev/null
wait_log trap '^keyboard-enter$'
wait_log trap '^pointer-locked$'
motions=$(log_count trap '^motion ')
ctl pointer motion 40 0 >/dev/null
wait_log trap '^relative dx=40 dy=0$'
assert_eq "$motions" "$(log_count trap '^motion ')" "pointer motions seen while locked"

# A dialog comes up (the app's own file chooser): the lock lets go at once, so that the
# user can reach the dialog's buttons.
start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
dialog_shown_now
ctl pointer motion 0 40 >/dev/null
wait_log trap '^pointer-unlocked$'
dialog_ready
ctl key click Escape >/dev/null
echo "pointer lock: not on a window passed over, held after a click, let go for a dialog"
