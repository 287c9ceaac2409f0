#!/usr/bin/env bash
# A drag between two X11 windows of one sandbox (GTK 3 over X11, XDND inside the sandbox's
# X server) works as on any X server: the user presses on the source window, moves onto the
# target and releases, and the target gets the text. cordon takes no part in it (drags
# across the X server's boundary are not offered at all, docs/x11.md).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"
python3 -c 'import gi; gi.require_version("Gtk", "3.0")' 2>/dev/null ||
	skip "GTK 3 introspection (gir1.2-gtk-3.0) is not installed"

x_cordon_start
app="$APP_ID.A"
x_sandbox a "$app" --app "$CORDON_SOURCE_ROOT/tests/x11"
text="dragged $$"
x_bg a "GDK_BACKEND=x11 python3 /app/x11-dnd.py --text '$text' > /tmp/dnd.log 2>&1"
wait_x_window "$app" drag-source
wait_x_window "$app" drop-target
source_json=$(x_window_of "$app" drag-source)
target_json=$(x_window_of "$app" drop-target)
center() {
	jq -r '"\(.x + (.width / 2 | floor)) \(.y + (.height / 2 | floor))"' <<<"$1"
}
read -r sx sy <<<"$(center "$source_json")"
read -r tx ty <<<"$(center "$target_json")"
# They open over each other: the user moves the target aside by a middle-button drag on it
# (the app asks for the move while the button is held, as a title bar would).
id=$(jq -r .id <<<"$target_json")
ctl focus "$id" >/dev/null
wait_for "the target window to have focus" _x_focused "$id"
wait_for "the target window to take input as the user's" _x_trusted "$id"
ctl pointer move "$tx" "$ty" >/dev/null
ctl pointer button middle press >/dev/null
in_log() {
	x_run a "grep -qx '$1' /tmp/dnd.log" | grep -qx "status 0"
}
wait_for "the target to ask for the move" in_log move-requested
for dx in 50 100 150 200 250 300; do
	ctl pointer move $((tx + dx)) "$ty" >/dev/null
done
ctl pointer button middle release >/dev/null
moved() {
	(($(x_window_of "$app" drop-target | jq .x) >= $(jq .x <<<"$source_json") + 200))
}
wait_for "the target window to be moved beside the source" moved
target_json=$(x_window_of "$app" drop-target)
read -r tx ty <<<"$(center "$target_json")"
id=$(jq -r .id <<<"$source_json")
ctl focus "$id" >/dev/null
wait_for "the source window to have focus" _x_focused "$id"
wait_for "the source window to take input as the user's" _x_trusted "$id"
ctl pointer move "$sx" "$sy" >/dev/null
ctl pointer button left press >/dev/null
# Past GTK's drag threshold, then across to the target in steps, as a hand moves.
steps=10
for ((i = 1; i <= steps; i++)); do
	ctl pointer move $((sx + (tx - sx) * i / steps)) $((sy + (ty - sy) * i / steps)) >/dev/null
done
wait_for "the source to start the drag" in_log drag-begin
ctl pointer move "$tx" "$ty" >/dev/null
# Released once the target knows the drag is over it, as a hand that lingers on it.
wait_for "the target to see the drag over it" in_log drag-over
ctl pointer button left release >/dev/null
dropped() {
	x_run a "grep -Fx 'dropped: $text' /tmp/dnd.log" | grep -qx "status 0"
}
wait_for "the target to get the dropped text" dropped
echo "ok: a drag between two X11 windows of one sandbox works"
