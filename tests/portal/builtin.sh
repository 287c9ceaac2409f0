#!/usr/bin/env bash
# The built-in file chooser, driven like a user would: it shows above the app windows
# and names the app from its tag, lists the folder through the app's filter, moves
# with the keyboard, marks several files, walks into folders (and remembers the last
# one), saves under a typed name, asks before replacing a file, answers the pointer,
# keeps typed keys from the app below, and cannot be captured from inside a sandbox.
# CORDON_PORTAL_SCREENSHOT=FILE keeps a screenshot of the dialog (docs/).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
mkdir -p "$HOME/Documents" "$HOME/Pictures" "$TEST_TMP/out"
echo "notes" >"$HOME/notes.txt"
echo "photo" >"$HOME/photo.png"
echo "report" >"$HOME/report.pdf"
echo "inner" >"$HOME/Documents/inner.txt"
cordon_start --verbose
portal_sandbox_init org.example.Builtin
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI is not in use"

start_client app "$CORDON_TEST_CLIENTS/key-client" --app-id under --width 1280 --height 720
wait_for_window under
wait_for_focus under

# The 720x520 dialog is centred on the 1280x720 output: its header band at 280,100.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
# chooser NAME ARGS...: cordon-portal in the sandbox, its dialog shown.
chooser() {
	local name=$1
	shift
	start_client "$name" "${in_sandbox[@]}" "$CORDON_PORTAL" "$@"
	wait_for "the $name dialog" header_shown
	dialog_ready
}
finished() {
	wait_for "$1 to finish" not client_alive "$1"
}

# Open through the "Text" filter: .., Documents/, Pictures/, notes.txt.
chooser open1 open-file --filter "Text:*.txt" --title "Open some notes" --output "$TEST_TMP/out"
if [[ -n "${CORDON_PORTAL_SCREENSHOT:-}" ]]; then
	cp "$TEST_TMP/dialog.png" "$CORDON_PORTAL_SCREENSHOT"
fi
! "${in_sandbox[@]}" grim "$TEST_TMP/sandbox-grab.png" 2>/dev/null ||
	fail "a sandboxed client captured the screen with the dialog on it"
ctl key click End Return >/dev/null
finished open1
assert_eq "notes.txt" "$(cat "$TEST_TMP/open1.log")" "the file chosen with End, Return"
assert_eq "notes" "$(cat "$TEST_TMP/out/notes.txt")" "its content"
! grep -q "key sym=\(End\|Return\)" "$TEST_TMP/app.log" ||
	fail "the app under the dialog saw the keys typed into it"

# Tab changes the filter to "All files": report.pdf, last in the list, can be chosen.
rm -f "$TEST_TMP/out"/*
chooser open1b open-file --filter "Text:*.txt" --output "$TEST_TMP/out"
ctl key click Tab End Return >/dev/null
finished open1b
assert_eq "report.pdf" "$(cat "$TEST_TMP/open1b.log")" "the last file with All files"

# Several files: Space marks, Return takes the marked ones (sorted: notes, photo, report).
rm -f "$TEST_TMP/out"/*
chooser open2 open-file --multiple --output "$TEST_TMP/out"
ctl key click Down Down space space Return >/dev/null
finished open2
assert_eq "notes.txt photo.png" "$(echo $(cat "$TEST_TMP/open2.log"))" "the marked files"

# Into a folder with Right; the next dialog starts in the folder chosen from last.
chooser open3 open-file --output "$TEST_TMP/out"
ctl key click Right >/dev/null
ctl key click Return >/dev/null
finished open3
assert_eq "inner.txt" "$(cat "$TEST_TMP/open3.log")" "the file inside Documents"
assert_eq "\"$HOME/Documents\"" "$(ctl --json permissions list | jq -c \
	'first(.[] | select(.app_id == "org.example.Builtin")).folders[0]')" "the remembered folder"

# Save under the suggested name, in the remembered folder.
start_client save1 sh -c 'echo first | "$@"' sh "${in_sandbox[@]}" "$CORDON_PORTAL" save-file \
	--name draft.txt
wait_for "the save dialog" header_shown
dialog_ready
ctl key click Return >/dev/null
finished save1
assert_eq "first" "$(cat "$HOME/Documents/draft.txt")" "the saved file"

# The same name again: Return asks (and the question has its own grace period), Escape
# goes back, Return asks again, Return goes back too; only Alt+R replaces.
start_client save2 sh -c 'echo second | "$@"' sh "${in_sandbox[@]}" "$CORDON_PORTAL" save-file \
	--name draft.txt
wait_for "the second save dialog" header_shown
dialog_ready
ctl key click Return >/dev/null
dialog_ready
ctl key click Escape >/dev/null
ctl key click Return >/dev/null
dialog_ready
ctl key click Return >/dev/null
assert "the save waits for the confirmation" pending 1
assert_eq "first" "$(cat "$HOME/Documents/draft.txt")" "the file after Return in the confirmation"
ctl key click Return >/dev/null
dialog_ready
ctl key click alt+r >/dev/null
finished save2
assert_eq "second" "$(cat "$HOME/Documents/draft.txt")" "the replaced file"

# A typed name.
start_client save3 sh -c 'echo typed | "$@"' sh "${in_sandbox[@]}" "$CORDON_PORTAL" save-file \
	--name x
wait_for "the third save dialog" header_shown
dialog_ready
ctl key click BackSpace >/dev/null
type_text "typed-name.txt"
ctl key click Return >/dev/null
finished save3
assert_eq "typed" "$(cat "$HOME/Documents/typed-name.txt")" "the file saved under a typed name"
! grep -q "key sym=t " "$TEST_TMP/app.log" || fail "the app saw the typed file name"

# The pointer: Cancel is the left button at the bottom right (dialog 476..586, ~493).
chooser open4 open-file --output "$TEST_TMP/out"
ctl pointer move 810 593 >/dev/null
ctl pointer button left click >/dev/null
finished open4
assert_eq "cordon-portal: cancelled" "$(cat "$TEST_TMP/open4.log")" "a click on Cancel"
wait_for "the dialog to go" not header_shown

# The app going away takes its dialog off the screen.
chooser open5 open-file --output "$TEST_TMP/out"
stop_client open5
wait_for "the dialog of the killed app to go" not header_shown
wait_for "no request left" pending 0

# cordon quitting with a dialog up unwinds cleanly (the harness checks the exit and ASan).
chooser open6 open-file --output "$TEST_TMP/out"
cordon_stop
