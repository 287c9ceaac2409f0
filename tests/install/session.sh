#!/usr/bin/env bash
# cordon as an installed session: started as a display manager starts it, from the installed
# session entry (its Exec line as it is, XDG_CURRENT_DESKTOP from its DesktopNames, a session
# bus), a client the session starts (its terminal binding) finds XDG_CURRENT_DESKTOP=cordon
# and the session's Wayland socket in its environment, and the real xdg-desktop-portal, which
# finds the installed cordon-portals.conf through XDG_DATA_DIRS, hands a file chooser request
# of a host app to cordon, whose dialog answers it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/install/lib.sh"
: "${CORDON_TEST_DBUS_PORTAL_CLIENT:?}"
for tool in weston-simple-shm dbus-daemon /usr/libexec/xdg-desktop-portal; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

install_into_destdir
session="$DEST$CORDON_INSTALL_DATADIR/wayland-sessions/cordon.desktop"
read -r -a exec_words <<<"$(desktop_key Exec "$session")"
((${#exec_words[@]} >= 1)) || fail "the session entry has no Exec"
# Installed into a DESTDIR, the program is there rather than at the path Exec names.
[[ "${exec_words[0]}" == /* ]] || fail "the session's Exec is not an absolute path: ${exec_words[0]}"
exec_words[0]="$DEST${exec_words[0]}"

# What a display manager and the user's session give the compositor: the desktop names, a
# session bus, the installed data dirs (here the DESTDIR's), and the user's configuration.
cordon_test_init
export XDG_CURRENT_DESKTOP=$(desktop_key DesktopNames "$session")
export XDG_SESSION_TYPE=wayland
export XDG_DATA_DIRS="$DEST$CORDON_INSTALL_DATADIR:/usr/share"
# xdg-desktop-portal 1.22 finds cordon.portal and cordon-portals.conf through XDG_DATA_DIRS.
# Not XDG_DESKTOP_PORTAL_DIR: with it, 1.22 looks for the configuration only in that folder
# and falls back to the deprecated UseIn key. Its debug log says what it chose.
unset XDG_DESKTOP_PORTAL_DIR
export G_MESSAGES_DEBUG=xdg-desktop-portal
export XDG_STATE_HOME="$TEST_TMP/state"
# The user's configuration, with the auto UI (the tests' stand-in for a person) answering.
answer=$TEST_TMP/answer
mkdir -p "$XDG_CONFIG_HOME/cordon"
printf '[general]\nterminal = weston-simple-shm\n[portal]\nui = auto\nui-options = %s\n' \
	"$answer" >"$XDG_CONFIG_HOME/cordon/cordon.ini"
start_session_bus
# Headless here: a display manager would start it on a seat's console.
WLR_BACKENDS=headless cordon_start_command wayland-0 "${exec_words[@]}"

# A client of the session's: the terminal binding's. Its environment is read from /proc, by
# the pid cordon gives for its window (the kernel's word, SO_PEERCRED).
ctl key click super+Return >/dev/null
wait_for_window org.freedesktop.weston.simple-shm
pid=$(window_json org.freedesktop.weston.simple-shm | jq -r .pid)
environment=$(tr '\0' '\n' <"/proc/$pid/environ")
grep -qx "XDG_CURRENT_DESKTOP=cordon" <<<"$environment" ||
	fail "the session's client has no XDG_CURRENT_DESKTOP=cordon: $(grep XDG_CURRENT <<<"$environment")"
grep -qx "WAYLAND_DISPLAY=wayland-0" <<<"$environment" ||
	fail "the session's client is not pointed at the session's socket"
echo "a client of the session: XDG_CURRENT_DESKTOP=cordon, WAYLAND_DISPLAY=wayland-0"

# The portal: xdg-desktop-portal, started by the bus with the session's environment, picks
# cordon for the file chooser; a host app asks, cordon's dialog (the auto UI) answers.
_cordon_on_bus() {
	busctl --address="$DBUS_SESSION_BUS_ADDRESS" status \
		org.freedesktop.impl.portal.desktop.cordon >/dev/null
}
wait_for "cordon to own its portal name" _cordon_on_bus
echo "session plan $RANDOM" >"$TEST_TMP/plan.txt"
echo "$TEST_TMP/plan.txt" >"$answer"
out=$("$CORDON_TEST_DBUS_PORTAL_CLIENT" OpenFile --title "Open a plan" 2>"$TEST_TMP/client.err") ||
	fail "the portal request failed: $out $(cat "$TEST_TMP/client.err")"
assert_eq 0 "$(sed -n 's/^response //p' <<<"$out")" "OpenFile's response through the frontend ($out)"
# Only cordon's dialog knows this path: the auto UI read it from its answers file.
grep -qx "uri file://$TEST_TMP/plan.txt" <<<"$out" || fail "not the file cordon's dialog chose: $out"
# And by cordon-portals.conf, not by cordon.portal's deprecated UseIn.
grep -q "Found 'cordon' in configuration for org.freedesktop.impl.portal.FileChooser" \
	"$TEST_TMP/session-bus.log" || fail "xdg-desktop-portal did not take cordon from cordon-portals.conf"
if grep -q "deprecated UseIn" "$TEST_TMP/session-bus.log"; then
	fail "xdg-desktop-portal chose by UseIn: $(grep "deprecated UseIn" "$TEST_TMP/session-bus.log")"
fi
echo "xdg-desktop-portal picked cordon's backend from the installed cordon-portals.conf"
cordon_stop
