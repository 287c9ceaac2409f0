#!/usr/bin/env bash
# Attack: an XI2 raw-event listener (xinput test-xi2 --root), the X11 keylogger: on a shared
# X server it sees every key typed into any X window, focused or not. Sandbox A runs one while
# the user types into a window of sandbox B, into a host X window and into a host Wayland
# window: it must receive nothing, because A's X server only hears the keys cordon gives it
# (its Wayland client has the keyboard only while one of A's windows is focused). The keys
# did arrive where the user typed (B's own listener and the host's Wayland client saw them),
# and once the user types into A's own window, A's listener does receive them: the probe works.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"

x_cordon_start
app_a="$APP_ID.A"
app_b="$APP_ID.B"
x_sandbox a "$app_a"
x_sandbox b "$app_b"
x_bg a 'xlogo -title window-a'
x_bg b 'xlogo -title window-b'
start_client host-logo env DISPLAY="$HOST_X_DISPLAY" xlogo -title window-host
start_client host-wayland "$TC/key-client" --app-id host-wayland
wait_x_window "$app_a" window-a
wait_x_window "$app_b" window-b
wait_x_window host window-host
wait_for_window host-wayland

# The keyloggers: raw events on the root window of A's and B's X servers (and the host's).
x_bg a 'xinput test-xi2 --root > /tmp/keys 2>&1'
x_bg b 'xinput test-xi2 --root > /tmp/keys 2>&1'
start_client host-keys env DISPLAY="$HOST_X_DISPLAY" xinput test-xi2 --root
# raw_presses SANDBOX: how many raw key presses its listener has seen.
raw_presses() {
	x_run "$1" 'grep -c RawKeyPress /tmp/keys || true' | head -n 1
}
listening() {
	x_run "$1" 'grep -q "Virtual core keyboard" /tmp/keys' | grep -qx "status 0"
}
wait_for "A's listener to run" listening a
wait_for "B's listener to run" listening b
wait_log host-keys 'Virtual core keyboard'

# type_into WINDOW-ID WORD: the user focuses the window and types the word.
type_into() {
	ctl focus "$1" >/dev/null
	wait_for "window $1 to have focus" _x_focused "$1"
	type_text "$2"
}
id_b=$(x_window_of "$app_b" window-b | jq -r .id)
id_host=$(x_window_of host window-host | jq -r .id)
id_wayland=$(window_json host-wayland | jq -r .id)

type_into "$id_b" secretb
b_seen() {
	(($(raw_presses b) >= 7))
}
wait_for "B's own listener to see the keys typed into B" b_seen
type_into "$id_host" secrethost
host_seen() {
	(($(grep -c RawKeyPress "$TEST_TMP/host-keys.log" || true) >= 10))
}
wait_for "the host's X listener to see the keys typed into the host's X window" host_seen
type_into "$id_wayland" secretwayland
wait_log host-wayland 'key sym=d .*state=pressed'
# Every key above reached its target; A's X server got none of them.
assert_eq 0 "$(raw_presses a)" "raw key presses A's listener saw while the user typed elsewhere"

# Control: typed into A's own window, the same listener sees the keys.
id_a=$(x_window_of "$app_a" window-a | jq -r .id)
type_into "$id_a" mine
a_seen() {
	(($(raw_presses a) >= 4))
}
wait_for "A's listener to see the keys typed into A's own window" a_seen
echo "ok: an XI2 raw-key listener in sandbox A hears only what is typed into A's windows"
