#!/usr/bin/env bash
# A locked session, as the user of a terminal and a drawing app sees it: while a locker
# (tests/clients/lock-client) holds the lock, neither foot nor weston-simple-shm shows a
# pixel (cordonctl screenshot, grim), a command typed while locked never reaches foot's
# shell, and both apps are still running; after the unlock both show again and foot takes
# the next command.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v foot >/dev/null || skip "foot not found (Debian package foot)"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"
[[ -n "$(fc-list "DejaVu Sans Mono" 2>/dev/null)" ]] || skip "no DejaVu Sans Mono (Debian package fonts-dejavu-core)"
LOCKER="${CORDON_TEST_CLIENTS:?}/lock-client"

cordon_start
start_client shm weston-simple-shm
wait_for "a window from weston-simple-shm" _has_window_pid "$CLIENT_PID"
start_client foot env LC_ALL=C.UTF-8 foot --font="DejaVu Sans Mono:size=10" sh
wait_for_window foot
wait_for_focus foot

# all_yellow FILE W H: every pixel is the locker's colour.
all_yellow() {
	(($(color_permille "$1" "255 255 0" 8 0 0 "$2" "$3") == 1000))
}
locked_shot() {
	screenshot HEADLESS-1 "$TEST_TMP/locked.png"
	all_yellow "$TEST_TMP/locked.png" 1280 720
}
unlocked_shot() {
	screenshot HEADLESS-1 "$TEST_TMP/unlocked.png"
	(($(color_permille "$TEST_TMP/unlocked.png" "255 255 0" 8 0 0 1280 720) == 0))
}
log_has() {
	grep -Eq -- "$2" "$TEST_TMP/$1.log"
}

# F12 (evdev 88) unlocks the test locker.
start_client locker "$LOCKER" --color ffffff00 --unlock-key 88
wait_for "the locker to lock" log_has locker '^locked$'
wait_for "the locker to cover the output" locked_shot
timeout 20 grim "$TEST_TMP/grim.png" 2>"$TEST_TMP/grim.log" || fail "grim failed while locked"
all_yellow "$TEST_TMP/grim.png" 1280 720 || fail "grim's capture shows more than the lock"

leak="$TEST_TMP/typed-while-locked"
wait_for "the locker to get the keyboard" log_has locker '^keyboard-enter$'
type_text "echo Leaked > $leak"
ctl key Return
wait_for "the locker to get the Return" log_has locker '^key code=28 state=released$'
[[ ! -e "$leak" ]] || fail "a command typed while locked ran in foot's shell"
client_alive shm || fail "weston-simple-shm ended while locked"
client_alive foot || fail "foot ended while locked"

ctl key click F12 >/dev/null
wait_for "the locker to unlock" log_has locker '^unlocked$'
wait_for "the apps to show again" unlocked_shot
wait_for_focus foot
marker="$TEST_TMP/typed-after-unlock"
type_text "echo Typed_OK > $marker"
ctl key Return
wait_for "the typed command to run in foot's shell" test -s "$marker"
assert_eq Typed_OK "$(cat "$marker")" "what the shell wrote after the unlock"
[[ ! -e "$leak" ]] || fail "the keys typed while locked reached foot after the unlock"
echo "locked: no foot or simple-shm pixels, no keys to foot; unlocked: both back, foot types"
