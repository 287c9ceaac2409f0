#!/usr/bin/env bash
# An unmodified GTK4 app (tests/sandbox/gtk-file-dialog.py: GTK's own file dialog, nothing
# of cordon) in cordon-run opens a file and saves one. GTK finds /.flatpak-info and goes
# through the portal on the bus cordon-run gave it (xdg-dbus-proxy), the real
# xdg-desktop-portal asks cordon (its FileChooser backend; the auto UI here), and the file
# arrives as a document of the real document portal under the app's /run/user/UID/doc.
# Checks: the content read inside is the host file's, the dialog named the app by its id,
# the saved text lands in the host file the "user" chose, and the app never saw a host path.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"
/usr/bin/python3 -c 'import gi; gi.require_version("Gtk", "4.0")' 2>/dev/null ||
	skip "GTK 4's introspection data (gir1.2-gtk-4.0) is not installed"

bus_start
host="$TEST_TMP/host"
mkdir -p "$host"
echo "a plan for GTK $$" >"$host/in.txt"
gtk_app() {
	start_client "gtk-$1" "$CORDON_RUN" --app-id "$APP_ID" --app "$BUS_PROBE_DIR" \
		--setenv GSK_RENDERER=cairo -- /usr/bin/python3 /app/gtk-file-dialog.py "$@"
	log="$TEST_TMP/gtk-$1.log"
}
printf '%s\n' "$host/in.txt" >"$ANSWER"
gtk_app open
wait_for "the GTK app to read its file" grep -q "^content " "$log"
grep -qx "content a plan for GTK $$" "$log" || fail "the GTK app read: $(cat "$log")"
opened=$(sed -n 's/^opened //p' "$log")
[[ "$opened" == "$XDG_RUNTIME_DIR/doc/"* || "$opened" == "/run/user/$(id -u)/doc/"* ]] ||
	fail "the file did not come as a document: $opened"
# GTK 4.24 names its window (xdg-foreign) as the dialog's parent: cordon knows the caller
# by that window's own tag (cordon-run's security context, engine cordon), and the app id
# xdg-desktop-portal gave must match it.
grep -q "auto: request .* from '$APP_ID' (cordon): $host/in.txt" "$CORDON_LOG" ||
	fail "cordon's dialog did not name $APP_ID: $(grep 'auto:' "$CORDON_LOG" || true)"
grep -q "D-Bus portal: '$APP_ID' asks over its window" "$CORDON_LOG" ||
	fail "the request was not matched to the app's window: $(grep 'D-Bus portal' "$CORDON_LOG" || true)"
echo "open: GTK's dialog went through the portal to cordon; the app read $opened"

wait_for "the GTK app to exit" sh -c "! kill -0 $(client_pid gtk-open) 2>/dev/null"

printf '%s\n' "$host/out.txt" >"$ANSWER"
gtk_app save "saved by GTK $$"
wait_for "the GTK app to save" grep -q "^saved \|^cancelled\|^error" "$log"
wait_for "the saved file" test -s "$host/out.txt"
assert_eq "saved by GTK $$" "$(cat "$host/out.txt")" "the host file the user chose"
grep -q "^saved .*/doc/" "$log" || fail "the save was not through a document: $(cat "$log")"
wait_for "the GTK app to exit" sh -c "! kill -0 $(client_pid gtk-save) 2>/dev/null"
! grep -qF "$host" "$TEST_TMP/gtk-open.log" "$log" || fail "the app saw a host path: $(cat "$log")"
echo "save: the app's text is in $host/out.txt, written through its document"
