#!/usr/bin/env bash
# An unmodified portal client, taken for a Flatpak app by the real xdg-desktop-portal,
# calls org.freedesktop.portal.FileChooser on the frontend; cordon, its backend, asks
# through the auto UI and the app gets a document-portal URI (the real
# xdg-document-portal) whose content is the chosen host file. SaveFile: what the app
# writes through its document lands in the host file. The folder is remembered in
# cordon's store; cancel, a symbolic link and a denied app end as the app would see.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"

app=org.example.Flat
dbus_portal_start "$app" --verbose
host="$TEST_TMP/host"
mkdir -p "$host"
echo "the host's secret plan $RANDOM" >"$host/plan.txt"

# OpenFile: the app gets its document, never the host path.
answer "$host/plan.txt"
portal_request OpenFile --title "Open a plan" --choice "encoding:b"
assert_eq 0 "$RESPONSE_CODE" "OpenFile's response ($OUT)"
doc=$(uri_path "$URIS")
app_doc=$(app_view "$doc")
assert_eq "$(cat "$host/plan.txt")" "$(cat "$app_doc")" "the document's content"
grep -q "^choice encoding b$" <<<"$OUT" || fail "the choice's default did not come back: $OUT"
grep -q "auto: request .* from '$app' (xdg-desktop-portal): $host/plan.txt" "$CORDON_LOG" ||
	fail "the dialog did not say which app asks"
ctl --json permissions list | jq -e --arg app "$app" --arg dir "$host" \
	'map(select(.app_id == $app and .portal == "file-chooser" and (.folders | index($dir)))) |
	length == 1' >/dev/null || fail "the folder is not remembered for $app"
echo "OpenFile: a document with the host file's content, the folder remembered for the app"

# Read-only, as the Wayland door's fds: the app cannot write through an opened document.
if in_flatpak sh -c 'echo tampered >"$1"' sh "$app_doc" 2>/dev/null; then
	fail "the app could write to a file it only opened"
fi
assert_eq "the host's secret plan" "$(cut -c1-22 "$host/plan.txt")" "the host file"
echo "OpenFile: the document is read-only for the app"

# Two files at once.
echo second >"$host/second.txt"
answer "$host/plan.txt" "$host/second.txt"
portal_request OpenFile --multiple
assert_eq 0 "$RESPONSE_CODE" "OpenFile --multiple"
assert_eq 2 "$(grep -c . <<<"$URIS")" "URIs for two files"
assert_eq second "$(cat "$(app_view "$(uri_path "$(tail -n 1 <<<"$URIS")")")")" "the second"
echo "OpenFile multiple: two documents"

# SaveFile: the app writes through its document, the host file has it.
answer "$host/saved.txt"
portal_request SaveFile --current-name saved.txt
assert_eq 0 "$RESPONSE_CODE" "SaveFile's response"
app_doc=$(app_view "$(uri_path "$URIS")")
in_flatpak sh -c 'echo "written by the app" >"$1"' sh "$app_doc"
assert_eq "written by the app" "$(cat "$host/saved.txt")" "the host file after the app's write"
echo "SaveFile: the app's write lands in the host file"

# SaveFiles: a folder is chosen, each name is saved in it.
mkdir "$host/out"
answer "$host/out"
portal_request SaveFiles --files a.txt,b.txt
assert_eq 0 "$RESPONSE_CODE" "SaveFiles' response"
assert_eq 2 "$(grep -c . <<<"$URIS")" "URIs for two names"
app_doc=$(app_view "$(uri_path "$(tail -n 1 <<<"$URIS")")")
in_flatpak sh -c 'echo "b by the app" >"$1"' sh "$app_doc"
assert_eq "b by the app" "$(cat "$host/out/b.txt")" "the second saved file"
echo "SaveFiles: both names in the chosen folder, written through the documents"

# Cancel: response 1, no URI.
answer
portal_request OpenFile
assert_eq 1 "$RESPONSE_CODE" "a cancelled OpenFile"
assert_eq "" "$URIS" "URIs of a cancelled request"
echo "cancel: response 1"

# A symbolic link chosen in place of the file is refused, as in the Wayland door.
ln -s "$host/plan.txt" "$host/link.txt"
answer "$host/link.txt"
portal_request OpenFile
assert_eq 2 "$RESPONSE_CODE" "a symbolic link chosen"
echo "symlink: refused (response 2)"

# Denied in cordon's store: no dialog, response 2.
ctl permissions deny "$app" file-chooser >/dev/null
answer "$host/plan.txt"
before=$(grep -c "auto: request" "$CORDON_LOG" || true)
portal_request OpenFile
assert_eq 2 "$RESPONSE_CODE" "a denied app"
assert_eq "$before" "$(grep -c "auto: request" "$CORDON_LOG" || true)" "dialogs shown"
ctl permissions revoke "$app" file-chooser >/dev/null
echo "deny: response 2 without a dialog"
