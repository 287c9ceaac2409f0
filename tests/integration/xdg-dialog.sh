#!/usr/bin/env bash
# A GTK 4 window opens a modal dialog over itself (xdg-dialog-v1), as on a user's click. The dialog comes
# up above its parent with the keyboard; while it is up, neither a click on the parent
# nor cordonctl focus nor Alt+Tab either way gives the parent the keyboard or raises it
# over the dialog. Once
# the dialog is closed the parent has the keyboard again. GTK rings the bell
# (xdg-system-bell, which cordon logs) and names its icon (xdg-toplevel-icon, which
# cordon accepts and does not draw) on the way.
set -euo pipefail
# GTK starts slowly, more so next to an ASan compositor on two cores.
: "${CORDON_TEST_TIMEOUT:=30}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v dbus-run-session >/dev/null || skip "dbus-run-session not found (Debian package dbus)"
python3 -c 'import gi; gi.require_version("Gtk", "4.0")' 2>/dev/null ||
	skip "GTK 4 for Python not found (Debian packages python3-gi, gir1.2-gtk-4.0)"

# by_title TITLE: the window's JSON object; stack_index TITLE: its place, 0 on top.
by_title() {
	windows_json | jq -c --arg t "$1" 'first(.[] | select(.title == $t))'
}
stack_index() {
	windows_json | jq --arg t "$1" 'map(.title) | index($t)'
}
has_title() {
	[[ -n "$(by_title "$1")" ]]
}
focused_title() {
	[[ "$(windows_json | jq -r 'map(select(.focused) | .title) | join(",")')" == "$1" ]]
}
# The dialog, focused and above its parent.
dialog_on_top() {
	focused_title Modal && (($(stack_index Modal) < $(stack_index Parent)))
}

cordon_start --verbose
start_client gtk env GDK_BACKEND=wayland NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
	LC_ALL=C.UTF-8 WAYLAND_DEBUG=client dbus-run-session -- \
	python3 "$CORDON_SOURCE_ROOT/tests/integration/gtk4-dialog.py"
wait_log gtk '^parent-mapped [0-9]+$'
wait_for "the parent's window" has_title Parent
# The user asks for the dialog once the window is there.
kill -USR1 "$(log_last gtk '^parent-mapped' | cut -d' ' -f2)"
wait_log gtk '^dialog-mapped$'
wait_for "the dialog's window" has_title Modal
parent=$(by_title Parent)
dialog=$(by_title Modal)
parent_id=$(jq -r .id <<<"$parent")
dialog_id=$(jq -r .id <<<"$dialog")
assert_eq "$parent_id true" "$(jq -r '"\(.parent) \(.modal)"' <<<"$dialog")" \
	"the dialog's parent and modality as cordon sees them"
wait_for "the dialog to be focused above its parent" dialog_on_top

# A click on the parent, beside the dialog: the dialog keeps the keyboard and its place.
read -r px py pw ph < <(jq -r '"\(.x) \(.y) \(.width) \(.height)"' <<<"$parent")
read -r dx dw < <(jq -r '"\(.x) \(.width)"' <<<"$dialog")
((dx > px + 20)) || fail "the dialog ($dialog) leaves no part of its parent ($parent) to click"
ctl pointer move $((px + 10)) $((py + ph / 2)) >/dev/null
ctl pointer button left click >/dev/null
ctl focus "$parent_id" >/dev/null
# What the click and the focus command did is done once cordon has answered a later request.
ctl windows >/dev/null
dialog_on_top || fail "the parent took the focus or came up over its modal dialog: $(windows_json)"

# Alt+Tab and Alt+Shift+Tab with another window: the dialog and its parent go up and
# down together, the dialog above, and the parent never gets the keyboard.
start_client other "$CORDON_TEST_CLIENTS/focus-client" --app-id org.example.Other --width 200 \
	--height 100
wait_for_window org.example.Other
wait_for_focus org.example.Other
other_on_top() {
	[[ "$(window_json org.example.Other | jq -r .focused)" == true ]] &&
		(($(stack_index Modal) < $(stack_index Parent)))
}
# Forward raises the bottom window (the parent: its dialog comes instead), back lowers
# the top one (the dialog: its parent goes down with it).
for step in "alt+Tab dialog_on_top" "alt+shift+Tab other_on_top" "alt+shift+Tab dialog_on_top" \
	"alt+Tab other_on_top"; do
	read -r keys expected <<<"$step"
	ctl key "$keys" >/dev/null
	"$expected" || fail "after $keys: not $expected: $(windows_json)"
done
stop_client other
wait_for "the dialog to have the keyboard again" dialog_on_top

# The bell: GTK rang it through xdg-system-bell, and cordon logged it.
wait_for "the bell in cordon's log" grep -q "Bell from host app" "$CORDON_LOG"
# The icon: GTK named it through xdg-toplevel-icon.
grep -q "xdg_toplevel_icon_manager_v1#[0-9]*.set_icon" "$TEST_TMP/gtk.log" ||
	fail "GTK did not set its icon through xdg-toplevel-icon"

# Closed, the dialog gives the keyboard back to its parent.
ctl close "$dialog_id" >/dev/null
wait_log gtk '^dialog-unmapped$'
wait_for "the parent to have the keyboard again" focused_title Parent
ctl close "$parent_id" >/dev/null
wait_for "GTK to quit" not client_alive gtk
echo "modal dialog $dialog_id held the focus over parent $parent_id until closed"
