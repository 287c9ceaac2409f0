#!/usr/bin/env bash
# A GTK 3 application (gtk3-widget-factory) maps on the Wayland backend with its
# app_id, draws its window (checked on a screenshot) and quits when its window is closed.
set -euo pipefail
# GTK starts slowly, more so next to an ASan compositor on two cores.
: "${CORDON_TEST_TIMEOUT:=30}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v gtk3-widget-factory >/dev/null || skip "gtk3-widget-factory not found (Debian package gtk-3-examples)"
command -v dbus-run-session >/dev/null || skip "dbus-run-session not found (Debian package dbus)"

cordon_start
# GtkApplication wants a session bus: a private one dies with the client. No
# accessibility bus, no dconf: the test must not depend on the desktop around it.
start_client gtk env GDK_BACKEND=wayland NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
	LC_ALL=C.UTF-8 dbus-run-session -- gtk3-widget-factory
# GTK 3 names its Wayland app_id after the program (g_get_prgname).
app_id=gtk3-widget-factory
wait_for_window "$app_id"
win=$(window_json "$app_id")
read -r id w h title < <(jq -r '"\(.id) \(.width) \(.height) \(.title)"' <<<"$win")
((w > 200 && h > 200)) || fail "the widget factory's window is ${w}x$h"
# It drew: on a screenshot, much of its window (on the output) is Adwaita's background
# (#f6f5f4), which nothing else cordon shows has; a window that never drew fails here.
read -r x y < <(jq -r '"\(.x) \(.y)"' <<<"$win")
gtk_drew() {
	local ow oh x0 y0 cw ch
	screenshot HEADLESS-1 "$TEST_TMP/gtk.png"
	read -r ow oh < <(png_probe "$TEST_TMP/gtk.png" size)
	x0=$((x < 0 ? 0 : x))
	y0=$((y < 0 ? 0 : y))
	cw=$(((x + w > ow ? ow : x + w) - x0))
	ch=$(((y + h > oh ? oh : y + h) - y0))
	(($(color_permille "$TEST_TMP/gtk.png" "246 245 244" 3 "$x0" "$y0" "$cw" "$ch") > 300))
}
wait_for "the widget factory to draw its window" gtk_drew

ctl close "$id"
wait_for_window_gone "$app_id"
wait_for "gtk3-widget-factory to quit after its window closed" not client_alive gtk
echo "gtk3-widget-factory mapped as window $id '$title' (${w}x$h) and quit on close"
