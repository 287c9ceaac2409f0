#!/usr/bin/env bash
# A host X11 app on the host's X server: it is started at the first X connection, the
# app's window is a view that cordonctl lists as X11 with the host's tag, its pixels are
# where cordonctl says, it takes what the user types, its override-redirect window shows
# at its X position, and Xwayland and its socket are gone once cordon stops.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

command -v Xwayland >/dev/null || skip "Xwayland is not installed"
python3 -c 'import gi; gi.require_version("Gtk", "3.0")' 2>/dev/null ||
	skip "GTK 3 introspection (gir1.2-gtk-3.0) is not installed"

cordon_start
servers=$(ctl --json x11-servers)
assert_eq 1 "$(jq length <<<"$servers")" "one X server, the host's"
display=$(jq -r '.[0].display' <<<"$servers")
socket=$(jq -r '.[0].socket' <<<"$servers")
assert_eq host "$(jq -r '.[0].engine' <<<"$servers")" "the X server's tag"
assert_eq false "$(jq -r '.[0].sandboxed' <<<"$servers")" "the host's X server is not sandboxed"
# Lazy: no process until an X client connects.
assert_eq false "$(jq -r '.[0].running' <<<"$servers")" "Xwayland runs before any X client"
[[ -S "$socket" ]] || fail "no X socket at $socket"

start_client gtk env DISPLAY="$display" GDK_BACKEND=x11 python3 \
	"$CORDON_SOURCE_ROOT/tests/x11/x11-window.py" --title x11-solid --color 30,160,90 \
	--popup 40,40,60,200,40,40

_has_x11_window() {
	windows_json | jq -e 'any(.[]; .title == "x11-solid" and .x11 == true)' >/dev/null
}
wait_for "the X11 window in cordonctl windows" _has_x11_window
json=$(windows_json | jq -c 'first(.[] | select(.title == "x11-solid"))')
assert_eq x11 "$(jq -r .shell <<<"$json")" "shell of the X11 window"
assert_eq "$display" "$(jq -r .x11_display <<<"$json")" "its X display"
assert_eq host "$(jq -r .sandbox_engine <<<"$json")" "its tag"
assert_eq false "$(jq -r .sandboxed <<<"$json")" "a host X11 window is not sandboxed"
assert_eq xwayland "$(jq -r .tag_source <<<"$json")" "where its tag comes from"
assert_eq true "$(ctl --json x11-servers | jq '.[0].running')" "Xwayland runs for its client"
assert_eq 0 "$(jq .pid <<<"$json")" "an X11 window's pid (none the kernel vouches for)"
xpid=$(pgrep -f "^Xwayland $display " | head -n 1) || true
[[ -n "$xpid" ]] || fail "no Xwayland process for $display"

# Its pixels are where cordonctl says: the colour fills the box below the entry, and the
# strip just left of the box is not the window's.
x=$(jq .x <<<"$json") y=$(jq .y <<<"$json") w=$(jq .width <<<"$json") h=$(jq .height <<<"$json")
((w == 300 && h == 200)) || fail "the window is ${w}x$h, not the 300x200 it asked for"
_window_drawn() {
	screenshot HEADLESS-1 "$TEST_TMP/shot.png"
	(($(color_permille "$TEST_TMP/shot.png" "30 160 90" 8 "$x" $((y + h - 60)) "$w" 60) >= 990))
}
wait_for "the X11 window's colour at its box" _window_drawn
permille=$(color_permille "$TEST_TMP/shot.png" "30 160 90" 8 $((x - 12)) "$y" 10 "$h")
((permille == 0)) || fail "the window's colour is drawn left of its box ($permille‰)"

# The override-redirect window is drawn at its X position, above the views.
_popup_drawn() {
	screenshot HEADLESS-1 "$TEST_TMP/popup.png"
	(($(color_permille "$TEST_TMP/popup.png" "200 40 40" 8 40 40 60 60) >= 990))
}
wait_for "the override-redirect window at 40,40" _popup_drawn
windows_json | jq -e 'all(.[]; .title != "")' >/dev/null ||
	fail "an override-redirect window is listed as a window"
assert_eq 1 "$(windows_json | jq length)" "windows listed"

# The host's X11 window has the keyboard once mapped; what the user types reaches it.
_x11_focused() {
	windows_json | jq -e 'first(.[] | select(.title == "x11-solid")).focused' >/dev/null
}
wait_for "the X11 window to have focus" _x11_focused
type_text "hello x11"
wait_for "the typed text in the X11 app" grep -q "typed: hello x11" "$TEST_TMP/gtk.log"

# The X server ends with cordon: its process, and its socket (by inode: another cordon
# of a test running beside this one may take the display number at once).
socket_inode=$(stat -c %i "$socket")
cordon_stop
_gone() { [[ ! -e /proc/$xpid ]] || grep -q '^State:.*Z' "/proc/$xpid/status"; }
wait_for "Xwayland (pid $xpid) to exit" _gone
if [[ -e "$socket" && "$(stat -c %i "$socket")" == "$socket_inode" ]]; then
	fail "the X socket $socket is left behind"
fi
