#!/usr/bin/env bash
# Attack: a sandboxed app keeps the serial of a click the user once made in it and, after
# the user has moved to a host window, makes an xdg-activation token with that old serial
# to take the keyboard back. Refused: a token must carry the seat's last press (nothing
# pressed anywhere since), at most 30 s old; the host window keeps the focus and cordon
# logs the refusal. Positive control: a launcher's token, passed to the app it starts in
# XDG_ACTIVATION_TOKEN, still focuses the new sandboxed window (and a sandboxed window
# that maps without such a token is not focused).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}

test_cgroup app-flatpak-org.example.Thief-1.scope
in_thief=("${IN_CGROUP[@]}" "$TEST_CGROUP")
cordon_start

start_client editor "$TC/focus-client" --app-id editor --width 400 --height 300
wait_for_window editor
wait_for_focus editor

# The user clicks the (visible) sandboxed window: that focuses it, a real press. (Wider
# than the editor and lower, so that each always shows a part to click.)
start_client thief "${in_thief[@]}" "$THIEF" --app-id thief --width 600 --height 120 \
	--activate-later 1500
wait_for_window thief
window_is editor '.focused' || fail "the sandboxed window took the focus as it mapped"
wait_input_trusted thief
click_window thief
wait_log thief '^keyboard-enter$'
wait_for_focus thief
# Then the user goes back to the editor with a click of their own.
click_window editor
wait_for_focus editor
enters=$(log_count thief '^keyboard-enter$')
# The app waits, then asks for a token with its old press serial and activates itself.
wait_log thief '^activation-requested$'
wait_for "cordon to refuse the stale activation" \
	grep -q "Refusing activation of view .*: token not from the seat's last press" "$CORDON_LOG"
window_is editor '.focused' || fail "the stale activation took the focus: $(windows_json)"
assert_eq "$enters" "$(log_count thief '^keyboard-enter$')" "keyboard-enters of the thief"
stop_client thief

# Positive control: a launcher (a host app) makes a token from the key the user pressed
# in it and starts a sandboxed app with it; the app's window gets the focus.
start_client launcher "$THIEF" --app-id launcher --token-on-key
wait_for_window launcher
ctl focus launcher >/dev/null
wait_for_focus launcher
ctl key click Return >/dev/null
wait_log launcher '^token='
token=$(log_last launcher '^token=' | cut -d= -f2-)
XDG_ACTIVATION_TOKEN=$token start_client launched "${in_thief[@]}" "$THIEF" \
	--app-id launched --activate-env
wait_log launched '^activation-requested token='
wait_for_focus launched
wait_log launched '^keyboard-enter$'
echo "activation: a stale press serial is refused, a launcher's fresh token still focuses"
