#!/usr/bin/env bash
# Attack: a sandboxed app reads what the user types into another app through the input
# method. It enables a text input at once and keeps it enabled without ever being told
# enter, hoping the relay hands it the text the input method commits for the field the
# user is typing into; and it tries to be the input method itself (every key typed into
# any field). Refused: the input method global is host-only, and the input method is
# activated for, and writes into, only the text input of the window with the keyboard
# (compositor/text_input.c). Positive control: once the user clicks into the sandboxed
# window, the same input method writes into it, so the probe does see a commit when one
# is sent to it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
THIEF=${CORDON_TEXT_INPUT_THIEF:?CORDON_TEXT_INPUT_THIEF is not set}
IME="$TC/input-method-client"

test_cgroup app-flatpak-org.example.TextThief-1.scope
in_sandbox=("${IN_CGROUP[@]}" "$TEST_CGROUP")
cordon_start

# Being the input method: the global is not there.
start_client fake-ime "${in_sandbox[@]}" "$IME"
wait_log fake-ime '^no-input-method-manager$'

start_client thief "${in_sandbox[@]}" "$THIEF" --app-id org.example.TextThief
wait_log thief '^ready$'
wait_for_window org.example.TextThief
python3 -c 'import gi; gi.require_version("Gtk", "4.0")' 2>/dev/null ||
	skip "GTK 4 for python3 is not installed (Debian packages python3-gi, gir1.2-gtk-4.0)"
start_client victim env GDK_BACKEND=wayland \
	python3 "$CORDON_SOURCE_ROOT/tests/integration/gtk4-entry.py" org.example.Victim
wait_log victim '^mapped$'
wait_for_focus org.example.Victim

# The user types a secret through the input method into the victim's entry, which has the
# keyboard: the victim gets it (the commit did happen).
start_client ime "$IME" --commit "s3cret-typed-elsewhere"
wait_log ime '^activate$'
wait_log victim '^text s3cret-typed-elsewhere$'
# A barrier: the pointer enters the thief's window (no click). cordon sends that enter
# after whatever it sent with the commit, on the same connection, so once the thief has
# printed it, a relayed commit would already be in its log.
point=$(visible_point org.example.TextThief)
# shellcheck disable=SC2086 # "X Y" is two arguments
ctl pointer move $point >/dev/null
wait_log thief '^enter x='
if log_has thief '^commit-string' || log_has thief '^enter$'; then
	fail "the thief got the input method's text or an enter: $(grep -E 'commit-string|^enter$' "$TEST_TMP/thief.log")"
fi
assert_eq 1 "$(log_count ime '^activate$')" "activations of the input method"
echo "unfocused: the thief's always-enabled text input got no enter and none of the text typed into the victim"

# Positive control: the user clicks into the thief's window; now it is its field.
wait_input_trusted org.example.TextThief
click_window org.example.TextThief
wait_for_focus org.example.TextThief
wait_log thief '^enter$'
wait_for "a second activation" log_count_above ime '^activate$' 1
wait_log thief '^commit-string s3cret-typed-elsewhere$'
echo "focused by the user: the same input method writes into it (the probe works)"
