#!/usr/bin/env bash
# Attack: a sandboxed app opens a save dialog and the session is locked before the user
# answers it. A dialog is cordon's own trusted UI, drawn above every app: unless the lock
# covers it too and takes its keys, whoever sits at the locked machine (or a key typed
# into the locker's password field) answers it, and its pixels show over the lock.
# Checked: while locked the dialog is not on the screen, a Return (and a typed name) does
# not answer it, the request stays pending, not refused; after the unlock it is shown
# again and answers as before (positive control).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
LOCKER="$CORDON_TEST_CLIENTS/lock-client"

builtin_ui_init
cordon_start --verbose
portal_sandbox_init org.example.Hostile

# The 720x520 chooser is centred on the 1280x720 output: its header band at 280,100.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
locker_covers() {
	screenshot HEADLESS-1 "$TEST_TMP/locked.png"
	(($(color_permille "$TEST_TMP/locked.png" "255 255 0" 8 0 0 1280 720) == 1000))
}

start_client save sh -c 'echo "$0" | "${@}"' "the app's data" "${in_sandbox[@]}" \
	"$CORDON_PORTAL" save-file --name saved.txt
dialog_ready
assert "the dialog is on the screen" header_shown

# F12 (evdev 88) is the test locker's "password": Return is the key under attack.
start_client locker "$LOCKER" --color ffffff00 --unlock-key 88
wait_log() {
	wait_for "$1 to print /$2/" grep -Eq -- "$2" "$TEST_TMP/$1.log"
}
wait_log locker '^locked$'
wait_for "the locker to cover the output, dialog included" locker_covers
wait_log locker '^keyboard-enter$'
# The pointer over the dialog's buttons, a click, keys and Returns: all the locker's.
ctl pointer move 640 360 >/dev/null
ctl pointer button left click >/dev/null
type_text "x"
ctl key click Return >/dev/null
ctl key click Return >/dev/null
wait_log locker '^key code=28 state=released$'
assert "the request is still pending while locked" pending 1
[[ ! -e "$HOME/saved.txt" && ! -e "$HOME/x" ]] || fail "a key typed into the lock answered the dialog"
! header_shown || fail "the dialog shows over the lock"
client_alive save || fail "the app's request ended while locked"

# Unlocked: the dialog is back and answers (after its grace) as the user wishes.
ctl key click F12 >/dev/null
wait_log locker '^unlocked$'
wait_for "the dialog to show again" header_shown
dialog_ready
ctl key click Return >/dev/null
wait_for "the save to be answered" pending 0
wait_for "the saved file" grep -qx "the app's data" "$HOME/saved.txt"
echo "dialog under the lock: hidden, not answered while locked, pending; answers after unlock"
