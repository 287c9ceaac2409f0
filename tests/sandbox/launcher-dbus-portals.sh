#!/usr/bin/env bash
# The other standard portals an unmodified app uses, from cordon-run through its proxy and
# the real xdg-desktop-portal: Settings answers color-scheme (the host's choice), OpenURI
# hands a URL to the host's handler for its scheme (a desktop file the test registers as
# xdg-mime does, in the test's XDG dirs), and Notification reaches the host's notification
# daemon (dunst, on the headless cordon). cordon's backend does the file chooser; these
# three come from xdg-desktop-portal-gtk, Debian's backend for them (XDG_CURRENT_DESKTOP
# names cordon first, so the file chooser stays cordon's).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init
gtk_backend=/usr/libexec/xdg-desktop-portal-gtk
[[ -x "$gtk_backend" ]] || skip "xdg-desktop-portal-gtk is not installed"
command -v dunst >/dev/null || skip "dunst is not installed"
grep -qs '<key name="color-scheme"' /usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml ||
	skip "gsettings-desktop-schemas (org.gnome.desktop.interface color-scheme) is not installed"

BUS_PORTAL_DIR="$TEST_TMP/portals"
mkdir -p "$BUS_PORTAL_DIR"
cp "$CORDON_PORTAL_DESC_DIR/cordon.portal" "$BUS_PORTAL_DIR/"
cp /usr/share/xdg-desktop-portal/portals/gtk.portal "$BUS_PORTAL_DIR/"
BUS_DESKTOP=cordon:GNOME
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"
export GSETTINGS_BACKEND=keyfile # the host's settings: a keyfile in the test's XDG_CONFIG_HOME
bus_start
gsettings set org.gnome.desktop.interface color-scheme prefer-dark

# The host's handler for https: URLs, registered as xdg-mime does.
handled="$TEST_TMP/handled"
mkdir -p "$XDG_DATA_HOME/applications"
cat >"$TEST_TMP/handler.sh" <<EOF_HANDLER
#!/bin/sh
printf '%s\n' "\$1" >>"$handled"
EOF_HANDLER
chmod +x "$TEST_TMP/handler.sh"
cat >"$XDG_DATA_HOME/applications/cordon-test-browser.desktop" <<EOF_DESKTOP
[Desktop Entry]
Type=Application
Name=cordon test browser
Exec=$TEST_TMP/handler.sh %u
MimeType=x-scheme-handler/https;
EOF_DESKTOP
printf '[Default Applications]\nx-scheme-handler/https=cordon-test-browser.desktop\n' \
	>"$XDG_CONFIG_HOME/mimeapps.list"

# The notification daemon: every notification it shows is a line of $notified.
notified="$TEST_TMP/notified"
cat >"$TEST_TMP/notified.sh" <<EOF_NOTIFIED
#!/bin/sh
printf '%s|%s|%s\n' "\$1" "\$2" "\$3" >>"$notified"
EOF_NOTIFIED
chmod +x "$TEST_TMP/notified.sh"
cat >"$TEST_TMP/dunstrc" <<EOF_DUNST
[cordon-test]
    summary = "*"
    script = $TEST_TMP/notified.sh
EOF_DUNST
start_client dunst dunst -config "$TEST_TMP/dunstrc"
wait_for "dunst on the bus" gdbus call --session --dest org.freedesktop.Notifications \
	--object-path /org/freedesktop/Notifications \
	--method org.freedesktop.Notifications.GetServerInformation
start_client gtk-backend "$gtk_backend" --replace
wait_for "xdg-desktop-portal-gtk on the bus" gdbus call --session \
	--dest org.freedesktop.impl.portal.desktop.gtk --object-path /org/freedesktop/portal/desktop \
	--method org.freedesktop.DBus.Peer.Ping

probe -- settings
assert_eq 0 "$RC" "the settings probe"
assert_eq "color-scheme 1" "$OUT" "color-scheme read in the sandbox (1: prefer dark)"
echo "Settings: the app reads the host's color-scheme (prefer-dark)"

url="https://example.org/cordon-$$?a=1&b=2"
probe -- open-uri "$url"
assert_eq 0 "$RC" "the open-uri probe"
assert_eq "response 0" "$OUT" "OpenURI's response"
wait_for "the host's handler to get the URL" grep -qxF "$url" "$handled"
echo "OpenURI: the host's https handler got $url"

probe -- notify cordon-test "hello from $APP_ID"
assert_eq 0 "$RC" "the notify probe"
wait_for "the notification at the daemon" grep -q "hello from $APP_ID" "$notified"
grep -q "|hello from $APP_ID|from a sandbox$" "$notified" || fail "the notification: $(cat "$notified")"
echo "Notification: dunst showed '$(cat "$notified")'"
