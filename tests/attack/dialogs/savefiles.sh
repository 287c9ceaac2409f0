#!/usr/bin/env bash
# Attack: a Flatpak app calls SaveFiles through the real xdg-desktop-portal with names
# that exist in the folder the user picks (.bashrc, report.odt) and one that is a
# symbolic link to a file elsewhere, then writes through the documents it gets. Before,
# each name was answered as FOLDER/NAME without a look, and the app replaced ~/.bashrc
# and report.odt (and would have written through the link). Checked, with the auto UI
# (which never confirms a replacement): every existing, hidden or linked name is saved
# under a new name (bashrc, "report (2).odt", "link (2).txt"), the originals and the
# link's target are unchanged after the app's writes, and a new name is saved as it is.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"

app=org.example.Hostile
# A home of the test's own: cordon reads start-up folders from it.
cordon_test_init
export HOME="$TEST_TMP/home"
mkdir -p "$HOME"
dbus_portal_start "$app" --verbose
host="$TEST_TMP/host"
mkdir -p "$host" "$TEST_TMP/elsewhere"
echo "the user's own bashrc" >"$host/.bashrc"
echo "the user's report" >"$host/report.odt"
echo "a secret elsewhere" >"$TEST_TMP/elsewhere/secret"
ln -s "$TEST_TMP/elsewhere/secret" "$host/link.txt"

answer "$host"
portal_request SaveFiles --files .bashrc,report.odt,link.txt,new.txt
assert_eq 0 "$RESPONSE_CODE" "SaveFiles' response ($OUT)"
assert_eq 4 "$(grep -c . <<<"$URIS")" "one URI per name"
names=()
while read -r uri; do
	path=$(uri_path "$uri")
	names+=("$(basename "$path")")
	in_flatpak sh -c 'echo "written by the app" >"$1"' sh "$(app_view "$path")"
done <<<"$URIS"
assert_eq "bashrc|report (2).odt|link (2).txt|new.txt" "$(IFS='|'; echo "${names[*]}")" \
	"the names the files were saved under"
assert_eq "the user's own bashrc" "$(cat "$host/.bashrc")" ".bashrc after the app's write"
assert_eq "the user's report" "$(cat "$host/report.odt")" "report.odt after the app's write"
assert_eq "a secret elsewhere" "$(cat "$TEST_TMP/elsewhere/secret")" "the link's target"
[[ -L "$host/link.txt" ]] || fail "the link was replaced"
for name in bashrc "report (2).odt" "link (2).txt" new.txt; do
	assert_eq "written by the app" "$(cat "$host/$name")" "the app's $name"
done
grep -q "'report.odt' saved as 'report (2).odt' (not confirmed)" "$CORDON_LOG" ||
	fail "cordon did not log the new name"
echo "SaveFiles: nothing existing replaced, no link followed, the app's data in new files"

# A start-up folder (a hidden folder of HOME): nothing is written there unconfirmed.
mkdir -p "$HOME/.config/autostart"
answer "$HOME/.config/autostart"
portal_request SaveFiles --files evil.desktop
assert_eq 2 "$RESPONSE_CODE" "SaveFiles into ~/.config/autostart"
[[ -z "$(ls -A "$HOME/.config/autostart")" ]] || fail "a file was written into autostart"
echo "SaveFiles: nothing written unconfirmed into ~/.config/autostart"
