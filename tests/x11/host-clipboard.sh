#!/usr/bin/env bash
# X11 apps of the host share their clipboard within their X server, and keep it when a
# Wayland window takes the keyboard: the X server's window manager keeps its selections
# on a seat of its own, where the mediation's views of the real seat's clipboard cannot
# make it take the X clipboard over (and the X app's copy be lost at the next paste).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

command -v Xwayland >/dev/null || skip "Xwayland is not installed"
command -v xclip >/dev/null || skip "xclip is not installed"
python3 -c 'import gi; gi.require_version("Gtk", "3.0")' 2>/dev/null ||
	skip "GTK 3 introspection (gir1.2-gtk-3.0) is not installed"
TC=${CORDON_TEST_CLIENTS:?}

cordon_start
display=$(ctl --json x11-servers | jq -r '.[0].display')
start_client gtk env DISPLAY="$display" GDK_BACKEND=x11 python3 \
	"$CORDON_SOURCE_ROOT/tests/x11/x11-window.py" --title x11-focus --color 30,160,90
_x11_focused() {
	windows_json | jq -e 'first(.[] | select(.title == "x11-focus")).focused' >/dev/null
}
wait_for "the X11 window to have focus" _x11_focused

# xclip owns the X clipboard (and stays to serve it); another X client reads it.
start_client xclip-in bash -c "printf from-x11 | DISPLAY=$display xclip -selection clipboard -i -loops 0 -quiet"
_x11_reads() {
	[[ "$(DISPLAY=$display timeout 5 xclip -selection clipboard -o 2>/dev/null)" == from-x11 ]]
}
wait_for "xclip -o to read what xclip copied" _x11_reads

# A host Wayland window takes the keyboard: the X clipboard is still the X app's.
start_client wayland "$TC/focus-client" --app-id wayland-window
wait_for_focus wayland-window
_x11_reads || fail "the X clipboard was lost when a Wayland window took the keyboard"
grep -q "Waiting for selection request number 2" "$TEST_TMP/xclip-in.log" ||
	fail "xclip did not serve the second read itself"
