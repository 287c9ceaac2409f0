#!/usr/bin/env bash
# The parent window of a D-Bus request: a sandboxed app exports its toplevel with
# xdg-foreign-v2 (the exporter is on the sandbox allow-list) and passes
# "wayland:HANDLE". The dialog belongs to that window (a second one for it is busy, the
# window going cancels it) and the caller is that window's client, by the tag cordon
# took at connect. A handle of another app's window (or a host window) does not match
# the app id xdg-desktop-portal names: refused with response 2, logged.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"
exporter="$CORDON_TEST_CLIENTS/export-client"

app=org.example.Flat
dbus_portal_start "$app" --verbose
host="$TEST_TMP/host"
mkdir -p "$host"
echo content >"$host/file.txt"

# window_handle NAME: the handle the client NAME printed.
_printed_handle() {
	grep -q "^handle " "$TEST_TMP/$1.log" 2>/dev/null
}
window_handle() {
	wait_for "$1's handle" _printed_handle "$1"
	sed -n 's/^handle //p' "$TEST_TMP/$1.log" | head -n 1
}

# A sandboxed client sees the exporter (to name its window), not the importer.
if command -v wayland-info >/dev/null; then
	globals=$("${in_sandbox[@]}" wayland-info | sed -n "s/^interface: '\([^']*\)'.*/\1/p")
	grep -qx zxdg_exporter_v2 <<<"$globals" || fail "the sandbox does not see the exporter"
	! grep -qx zxdg_importer_v2 <<<"$globals" || fail "the sandbox sees the importer"
	grep -qx zxdg_importer_v2 <<<"$(wayland-info | sed -n "s/^interface: '\([^']*\)'.*/\1/p")" ||
		fail "the host does not see the importer"
	echo "globals: the sandbox sees the exporter, not the importer"
fi

# The app's own window, in its cgroup: tagged flatpak org.example.Flat by cordon.
start_client appwin "${in_sandbox[@]}" "$exporter" --app-id "$app"
handle=$(window_handle appwin)
answer "$host/file.txt"
portal_request OpenFile --parent "wayland:$handle"
assert_eq 0 "$RESPONSE_CODE" "OpenFile over the app's window ($OUT)"
grep -q "auto: request .* from '$app' (flatpak): $host/file.txt" "$CORDON_LOG" ||
	fail "the dialog did not know the caller by the window's tag"
grep -q "'$app' asks over its window wayland:$handle" "$CORDON_LOG" ||
	fail "the parent window was not used"
echo "parent window: the caller known by its window's tag (flatpak $app)"

# A dialog open over the window: a second request for it is busy; the window going
# cancels the first.
rm -f "$ANSWER"
start_client first "${IN_FLATPAK[@]}" "$CORDON_TEST_DBUS_PORTAL_CLIENT" OpenFile \
	--parent "wayland:$handle"
wait_for "the first request to be pending" pending 1
portal_request OpenFile --parent "wayland:$handle"
assert_eq 2 "$RESPONSE_CODE" "a second dialog for the same window"
stop_client appwin
_first_answered() {
	grep -q "^response " "$TEST_TMP/first.log"
}
wait_for "the first request to end with its window" _first_answered
assert_eq "response 1" "$(grep "^response" "$TEST_TMP/first.log")" "the first request"
echo "parent window: busy while its dialog is open, cancelled when it goes"

# Another app's window: the frontend says org.example.Flat, the window is not its.
test_cgroup "app-flatpak-org.example.Other-$$.scope"
start_client otherwin "${IN_CGROUP[@]}" "$TEST_CGROUP" "$exporter" --app-id org.example.Other
handle=$(window_handle otherwin)
answer "$host/file.txt"
before=$(grep -c "auto: request" "$CORDON_LOG")
portal_request OpenFile --parent "wayland:$handle"
assert_eq 2 "$RESPONSE_CODE" "a request over another app's window"
assert_eq "" "$URIS" "URIs of the refused request"
assert_eq "$before" "$(grep -c "auto: request" "$CORDON_LOG")" "dialogs shown"
grep -q "refused: the frontend says app '$app', the parent window wayland:$handle belongs to .* tagged 'org.example.Other' (flatpak)" \
	"$CORDON_LOG" || fail "the mismatch was not logged"
echo "another app's window: refused (response 2), logged"

# A host window: its tag has no app id, the app's does.
start_client hostwin "$exporter" --app-id "$app"
handle=$(window_handle hostwin)
portal_request OpenFile --parent "wayland:$handle"
assert_eq 2 "$RESPONSE_CODE" "a request over a host window"
echo "a host window: refused (response 2)"

# An unknown handle is no window: the app id alone names the app.
portal_request OpenFile --parent "wayland:not-a-handle"
assert_eq 0 "$RESPONSE_CODE" "a request with an unknown handle"
echo "an unknown handle: no parent, the frontend's app id"
