#!/usr/bin/env bash
# The life of a D-Bus request through the real xdg-desktop-portal: the app closing its
# pending request dismisses cordon's dialog; the frontend killed mid-request leaves
# cordon serving (Wayland clients, its control socket), its requests dismissed, and the
# restarted frontend is served again. A D-Bus caller that is not the frontend cannot
# use the backend (it could name any app id), malformed options get a D-Bus error, and
# one app has at most 8 unanswered requests.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info is not installed"

app=org.example.Flat
dbus_portal_start "$app" --verbose
host="$TEST_TMP/host"
mkdir -p "$host"
echo content >"$host/file.txt"

# No answer file: the auto UI leaves the dialog open, as a user who has not answered.
rm -f "$ANSWER"
portal_request OpenFile --close
assert_eq "closed" "$OUT" "the client's Close"
wait_for "the closed request to be dismissed" grep -q "closed by the frontend" "$CORDON_LOG"
grep -q "auto: request .* from '$app' waits" "$CORDON_LOG" || fail "no dialog was shown"
wait_for "no request pending" pending 0
echo "Close: the pending dialog is dismissed"

# The frontend killed while a dialog waits.
start_client waiting "${IN_FLATPAK[@]}" "$CORDON_TEST_DBUS_PORTAL_CLIENT" OpenFile
wait_for "the request to be pending" pending 1
kill -9 "$FRONTEND_PID"
wait_for "cordon to see the frontend go" grep -q "the frontend .* left: dismissing its 1" \
	"$CORDON_LOG"
wait_for "no request pending" pending 0
stop_client waiting
wayland-info >/dev/null || fail "cordon does not serve Wayland clients after the frontend died"
ctl outputs >/dev/null
echo "frontend killed: its request dismissed, cordon serves"

# The bus starts a new frontend on the next call; cordon serves it.
answer "$host/file.txt"
frontend_start
portal_request OpenFile
assert_eq 0 "$RESPONSE_CODE" "a request through the restarted frontend ($OUT)"
assert_eq content "$(cat "$(app_view "$(uri_path "$URIS")")")" "the document"
echo "frontend restarted: served again"

# Another bus peer calling the backend directly, claiming an app id: refused.
out=$(gdbus call --session --dest org.freedesktop.impl.portal.desktop.cordon \
	--object-path /org/freedesktop/portal/desktop \
	--method org.freedesktop.impl.portal.FileChooser.OpenFile \
	/org/freedesktop/portal/desktop/request/1_1/x org.other.App "" "Open" "{}" 2>&1) &&
	fail "a direct call to the backend was served: $out"
grep -q "AccessDenied" <<<"$out" || fail "not AccessDenied: $out"
echo "a caller that is not the frontend: AccessDenied"

# Malformed options through the frontend: an error for the app, cordon goes on.
portal_request OpenFile --bad-option
[[ -n "$DBUS_ERROR" ]] || fail "a malformed option got no D-Bus error: $OUT"
portal_request OpenFile
assert_eq 0 "$RESPONSE_CODE" "a request after the malformed one"
echo "malformed options through the frontend: $DBUS_ERROR"

# The per-app cap (SECURITY-NOTES): 8 unanswered requests of one app, the 9th refused.
rm -f "$ANSWER"
for i in 1 2 3 4 5 6 7 8; do
	start_client "held$i" "${IN_FLATPAK[@]}" "$CORDON_TEST_DBUS_PORTAL_CLIENT" OpenFile
done
wait_for "eight pending requests" pending 8
portal_request OpenFile
[[ "$RESPONSE_CODE" == 2 || -n "$DBUS_ERROR" ]] ||
	fail "the ninth request was not refused: $OUT"
grep -q "D-Bus portal: OpenFile from '$app' refused: more than 8$" "$CORDON_LOG" ||
	fail "the refusal was not logged"
pending 8 || fail "the refused request is pending"
for i in 1 2 3 4 5 6 7 8; do
	stop_client "held$i"
done
wait_for "the held requests to go with their callers" pending 0
echo "per-app cap: the ninth of one app refused, the held ones go with their callers"
