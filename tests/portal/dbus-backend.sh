#!/usr/bin/env bash
# The backend's own side of the interface, called as xdg-desktop-portal calls it (the
# test owns the frontend's name): host file:// URIs in the response (the frontend makes
# the documents), malformed options the frontend would filter get InvalidArgs and
# cordon keeps serving, a Request object at the handle while the dialog is open.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info is not installed"

app=org.example.Flat
dbus_backend_start "$app" --verbose
host="$TEST_TMP/host"
mkdir -p "$host"
echo content >"$host/a file.txt"
answer "$host/a file.txt"

# backend ARGS...: the client as the frontend.
backend() {
	portal_request --backend "$app" "$@"
}

backend OpenFile
assert_eq 0 "$RESPONSE_CODE" "OpenFile to the backend ($OUT)"
assert_eq "file://$host/a%20file.txt" "$URIS" "the backend's URI"
echo "the backend answers with the host file's URI, percent-encoded"

for bad in --bad-option --bad-filters; do
	backend OpenFile $bad
	grep -q "InvalidArgs" <<<"$DBUS_ERROR" || fail "$bad: not InvalidArgs: $OUT"
	echo "$bad: $DBUS_ERROR"
done
backend SaveFile --long-name
grep -q "InvalidArgs" <<<"$DBUS_ERROR" || fail "SaveFile --long-name: not InvalidArgs: $OUT"
backend SaveFiles --files "ok.txt,../escape"
grep -q "InvalidArgs" <<<"$DBUS_ERROR" || fail "SaveFiles with a path: not InvalidArgs: $OUT"
backend SaveFiles
grep -q "InvalidArgs" <<<"$DBUS_ERROR" || fail "SaveFiles without files: not InvalidArgs: $OUT"
wayland-info >/dev/null
assert_eq 0 "$(ctl --json portal-requests | jq length)" "requests left by malformed calls"
backend OpenFile
assert_eq 0 "$RESPONSE_CODE" "a call after the malformed ones"
echo "malformed options: InvalidArgs, nothing left pending, cordon serves"

# Access.AccessDialog (what the frontend asks before the camera): cordon's camera consent
# dialog and its "camera" permission. The camera is known by the icon the frontend asks
# with; an AccessDialog for anything else (a microphone) is refused, never answered by
# the camera's "allow".
echo "camera-stream=allow" >"$ANSWER"
backend AccessDialog --icon camera-web-symbolic --title "Allow the camera?"
assert_eq 0 "$RESPONSE_CODE" "AccessDialog granted ($OUT)"
grep -q "auto: request .* from '$app' (xdg-desktop-portal): camera stream$" "$CORDON_LOG" ||
	fail "no camera consent dialog"
: >"$ANSWER"
backend AccessDialog --icon camera-web-symbolic
assert_eq 1 "$RESPONSE_CODE" "AccessDialog refused in the dialog"
ctl permissions deny "$app" camera >/dev/null
before=$(grep -c "camera stream" "$CORDON_LOG")
backend AccessDialog --icon camera-web-symbolic
assert_eq 2 "$RESPONSE_CODE" "AccessDialog for a denied app"
ctl permissions grant "$app" camera >/dev/null
backend AccessDialog --icon camera-web-symbolic
assert_eq 0 "$RESPONSE_CODE" "AccessDialog for an allowed app"
assert_eq "$before" "$(grep -c "camera stream" "$CORDON_LOG")" "dialogs for deny and allow"
backend AccessDialog --icon audio-input-microphone-symbolic --title "Allow the microphone?"
assert_eq 2 "$RESPONSE_CODE" "a microphone AccessDialog after the camera's allow"
backend AccessDialog
assert_eq 2 "$RESPONSE_CODE" "an AccessDialog without an icon"
assert_eq "$before" "$(grep -c "camera stream" "$CORDON_LOG")" "dialogs for other devices"
grep -q "AccessDialog for '$app' with icon 'audio-input-microphone-symbolic' refused" \
	"$CORDON_LOG" || fail "the microphone refusal is not logged"
echo "AccessDialog: the camera consent dialog; deny and allow from the store, no dialog; other devices refused"
