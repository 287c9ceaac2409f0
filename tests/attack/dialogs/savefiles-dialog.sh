#!/usr/bin/env bash
# Attack: a Flatpak app calls SaveFiles (real xdg-desktop-portal) naming a file that
# exists in the folder the user will pick, and counts on Returns: before, the built-in
# dialog said the app "wants to open a folder", showed no names and replaced
# Documents/report.odt. Checked: the dialog ignores the Returns typed as it shows,
# lists the app's names on a page of their own (which has its grace too), and Return
# there saves the existing name under a new one ("report (2).odt"); the original is
# unchanged after the app writes. Positive control: Alt+R on the row replaces it.
# CORDON_PORTAL_SCREENSHOT=FILE keeps a screenshot of the page of names.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"

# The built-in dialog instead of dbus-lib's auto UI, in a home of the test's own.
portal_start() {
	cordon_test_init
	export XDG_STATE_HOME="$TEST_TMP/state"
	cordon_start "$@"
}
app=org.example.Hostile
cordon_test_init
export HOME="$TEST_TMP/home"
mkdir -p "$HOME/Documents"
echo "the user's report" >"$HOME/Documents/report.odt"
dbus_portal_start "$app" --verbose
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI is not in use"

# The 720x520 chooser is centred on the 1280x720 output: its header band at 280,100.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
# save_files NAME FILES: the app's SaveFiles, its dialog shown.
save_files() {
	start_client "$1" "${IN_FLATPAK[@]}" "$CORDON_TEST_DBUS_PORTAL_CLIENT" SaveFiles \
		--files "$2"
	dialog_shown_now
}
# answered NAME: the client's response; sets RESPONSE_CODE and URIS.
answered() {
	wait_for "$1 to finish" not client_alive "$1"
	RESPONSE_CODE=$(sed -n 's/^response //p' "$TEST_TMP/$1.log")
	URIS=$(sed -n 's/^uri //p' "$TEST_TMP/$1.log")
}
# write_all: the app writes through every document it got; prints the saved names.
write_all() {
	local uri path
	while read -r uri; do
		path=$(uri_path "$uri")
		in_flatpak sh -c 'echo "written by the app" >"$1"' sh "$(app_view "$path")"
		basename "$path"
	done <<<"$URIS"
}

save_files save1 report.odt,new.txt
ctl key click Return Return >/dev/null
assert "the dialog is on the screen" header_shown
assert "the immediate Returns did not answer" pending 1
grep -q "ignored a key press within" "$CORDON_LOG" || fail "no ignored key logged"
dialog_ready
# Return enters Documents; Alt+S shows the app's names for it; Return at once is
# ignored (the page has its own grace), Return after it saves.
ctl key click Return alt+s Return >/dev/null
assert "the page's immediate Return did not answer" pending 1
dialog_ready
if [[ -n "${CORDON_PORTAL_SCREENSHOT:-}" ]]; then
	screenshot HEADLESS-1 "$CORDON_PORTAL_SCREENSHOT"
fi
ctl key click Return >/dev/null
answered save1
assert_eq 0 "$RESPONSE_CODE" "SaveFiles' response"
assert_eq "report (2).odt|new.txt" "$(write_all | paste -sd'|')" "the names saved under"
assert_eq "the user's report" "$(cat "$HOME/Documents/report.odt")" "report.odt after the app"
assert_eq "written by the app" "$(cat "$HOME/Documents/report (2).odt")" "the app's copy"
echo "dialog: the existing report.odt kept, the app's data in 'report (2).odt'"

# Positive control: the user turns replacing on for that file alone (Alt+R on its row).
save_files save2 report.odt
dialog_ready
ctl key click alt+s >/dev/null
dialog_ready
ctl key click alt+r Return >/dev/null
answered save2
assert_eq 0 "$RESPONSE_CODE" "SaveFiles' response with the replacement confirmed"
assert_eq "report.odt" "$(write_all)" "the confirmed name"
assert_eq "written by the app" "$(cat "$HOME/Documents/report.odt")" "the replaced report.odt"
echo "positive: Alt+R on the row replaces that file"
