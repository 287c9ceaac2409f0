#!/usr/bin/env bash
# The session lock (ext-session-lock-v1) with swaylock: while locked no app content is
# shown, no app gets input and no binding runs, swaylock gets the input; a second locker
# is refused; a locker that crashes leaves the screen locked (no app content, no app
# input) until another locker takes over.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v swaylock >/dev/null || skip "swaylock not found (Debian package swaylock)"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"

cordon_start
# A magenta app with the keyboard, filling the output.
start_client app "$TC/focus-client" --app-id app --width 1280 --height 720 --color ffff00ff
wait_for_window app
wait_for_focus app
magenta() {
	screenshot HEADLESS-1 "$TEST_TMP/shot.png"
	png_probe "$TEST_TMP/shot.png" count-color 255 0 255 8
}
app_shown() {
	(($(magenta) > 0))
}
wait_for "the app on screen" app_shown
# typed KEY: the app's count of presses of evdev code CODE.
presses() {
	log_count app "^key code=$1 state=pressed"
}

# Locked: swaylock's colour everywhere, none of the app's; keys go to swaylock only.
start_client locker swaylock --color 00ff00
locked_green() {
	screenshot HEADLESS-1 "$TEST_TMP/locked.png"
	(($(png_probe "$TEST_TMP/locked.png" count-color 0 255 0 8) > 1280 * 720 * 9 / 10))
}
wait_for "swaylock's surface over the session" locked_green
assert_eq 0 "$(magenta)" "app pixels while locked"
wait_log app '^keyboard-leave$'
before=$(presses 30)
ctl key click a >/dev/null
ctl pointer move 640 360 >/dev/null
ctl pointer button left click >/dev/null
assert_eq "$before" "$(presses 30)" "keys the app got while locked"
! log_has app '^button ' || fail "the app got a click while locked"
# Nor do cordon's bindings run behind the lock: Logo+Shift+q would close the app.
ctl key super+shift+q >/dev/null
window_json app >/dev/null

# A second locker is refused; the first keeps the lock.
start_client locker2 swaylock --color 0000ff
wait_for "the second locker to be refused" grep -q "Refusing a second session locker" "$CORDON_LOG"
wait_for "the second locker to give up" not client_alive locker2
locked_green

# The locker crashes: the session stays locked, with nothing of it shown.
kill -KILL "$(client_pid locker)"
wait_for "cordon to see the locker gone" grep -q "locker went away without unlocking" "$CORDON_LOG"
ctl key click a >/dev/null
assert_eq 0 "$(magenta)" "app pixels after the locker crashed"
# The output's own frame too, as a screen capture tool (host-only) reads it.
timeout 20 grim "$TEST_TMP/output.png" || fail "grim failed"
assert_eq 0 "$(png_probe "$TEST_TMP/output.png" count-color 255 0 255 8)" \
	"app pixels in the output's frame after the locker crashed"
assert_eq "$before" "$(presses 30)" "keys the app got after the locker crashed"
assert_eq 1 "$(log_count app '^keyboard-enter$')" "keyboard enters of the app (none since the lock)"

# Another locker may take over.
start_client locker3 swaylock --color 00ff00
wait_for "the new locker's surface" locked_green
echo "locked: no app pixels, no app input; a second locker refused; a crashed locker leaves it locked"
