#!/usr/bin/env bash
# meson install into a DESTDIR puts every file where the system looks for it: the programs,
# the session a display manager lists (DesktopNames=cordon), the two files by which
# xdg-desktop-portal picks cordon's D-Bus backend, the example configuration (which the
# installed cordon must accept as it is) and the manual pages.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/install/lib.sh"

install_into_destdir
for program in cordon cordonctl cordon-run cordon-portal cordon-app cordon-bundle; do
	[[ -f "$DEST$CORDON_INSTALL_BINDIR/$program" && -x "$DEST$CORDON_INSTALL_BINDIR/$program" ]] ||
		fail "$program is not installed in $CORDON_INSTALL_BINDIR"
done

# The session: what a display manager reads.
session="$DEST$CORDON_INSTALL_DATADIR/wayland-sessions/cordon.desktop"
[[ -f "$session" ]] || fail "no session entry in $CORDON_INSTALL_DATADIR/wayland-sessions"
assert_eq cordon "$(desktop_key DesktopNames "$session")" "the session's DesktopNames"
assert_eq Application "$(desktop_key Type "$session")" "the session's Type"
assert_eq "$CORDON_INSTALL_BINDIR/cordon" "$(desktop_key Exec "$session")" "the session's Exec"
# Not desktop-file-validate: DesktopNames is the display managers' key for sessions (GDM,
# SDDM and LightDM read it), which the desktop entry spec does not define, so it refuses it.

# xdg-desktop-portal: cordon.portal names the bus name the D-Bus door takes, and
# cordon-portals.conf (read for XDG_CURRENT_DESKTOP=cordon) gives cordon every interface
# cordon.portal says it serves.
portal="$DEST$CORDON_INSTALL_DATADIR/xdg-desktop-portal/portals/cordon.portal"
conf="$DEST$CORDON_INSTALL_DATADIR/xdg-desktop-portal/cordon-portals.conf"
[[ -f "$portal" && -f "$conf" ]] || fail "cordon.portal or cordon-portals.conf is not installed"
bus_name=$(sed -n 's/^DBusName=//p' "$portal")
grep -qF "\"$bus_name\"" "$CORDON_SOURCE_ROOT/include/portals/dbus.h" ||
	fail "the D-Bus door does not take the name cordon.portal gives ($bus_name)"
interfaces=$(sed -n 's/^Interfaces=//p' "$portal" | tr ';' ' ')
(($(wc -w <<<"$interfaces") >= 3)) || fail "cordon.portal lists no interfaces: '$interfaces'"
for interface in $interfaces; do
	grep -qx "$interface=cordon" "$conf" ||
		fail "cordon-portals.conf does not give $interface to cordon"
done

# The example configuration: the installed cordon starts with it as it is.
example="$DEST$CORDON_INSTALL_DATADIR/cordon/cordon.ini.example"
[[ -f "$example" ]] || fail "the example configuration is not installed"
CORDON="$DEST$CORDON_INSTALL_BINDIR/cordon" cordon_start --config "$example"
ctl outputs | grep -q HEADLESS-1 || fail "the installed cordon with the example shows no output"
cordon_stop

echo "installed: programs, session, portal backend files, example"

# The manual pages (man-pages.sh skips, saying why, when the build has none).
if [[ "${CORDON_MAN_PAGES:-}" == 1 ]]; then
	for page in "${MAN_PAGES[@]}"; do
		[[ -s "$DEST$CORDON_INSTALL_MANDIR/$page" ]] ||
			fail "the manual page $page is not installed in $CORDON_INSTALL_MANDIR"
	done
	echo "installed: ${#MAN_PAGES[@]} manual pages"
fi
