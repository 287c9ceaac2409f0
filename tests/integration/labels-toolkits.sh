#!/usr/bin/env bash
# Labels on real toolkits' windows, sandboxed: foot, which takes cordon's server-side
# decorations, and a GTK 4 window, which draws its own header bar (client-side
# decorations). Each has its label outside its window geometry, in its sandbox's colour;
# the GTK window keeps its own header bar inside (the label is beside it, not instead).
# CORDON_LABELS_SCREENSHOT=FILE also writes a screenshot of both beside a host foot and
# a sandboxed weston-simple-shm (docs/screenshot.png).
set -euo pipefail
# GTK starts slowly, more so next to an ASan compositor on two cores.
: "${CORDON_TEST_TIMEOUT:=30}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"
command -v foot >/dev/null || skip "foot not found (Debian package foot)"
[[ -n "$(fc-list "DejaVu Sans Mono" 2>/dev/null)" ]] || skip "no DejaVu Sans Mono (Debian package fonts-dejavu-core)"
python3 -c 'import gi; gi.require_version("Gtk", "4.0")' 2>/dev/null ||
	skip "no GTK 4 for Python (Debian packages python3-gi, gir1.2-gtk-4.0)"
command -v dbus-run-session >/dev/null || skip "dbus-run-session not found (Debian package dbus)"

test_cgroup app-flatpak-org.example.Terminal-1.scope
foot_cgroup=$TEST_CGROUP
test_cgroup app-flatpak-org.example.GtkLabelled-1.scope
gtk_cgroup=$TEST_CGROUP
cordon_start
shot="$TEST_TMP/toolkits.png"

# labelled PID: the window's label is on screen around its geometry.
labelled() {
	local win x y w h color strip left right
	win=$(window_json_by_pid "$1")
	read -r x y w h color < <(jq -r '"\(.x) \(.y) \(.width) \(.height) \(.label.color)"' <<<"$win")
	screenshot HEADLESS-1 "$shot"
	read -r strip left right < <(label_permille "$shot" "$x" "$y" "$w" "$h" "$color")
	echo "label $color of pid $1 at $x,$y ${w}x$h: strip $strip left $left right $right"
	((strip >= 500 && left >= 990 && right >= 990))
}

start_client foot "${IN_CGROUP[@]}" "$foot_cgroup" env LC_ALL=C.UTF-8 \
	foot --font="DejaVu Sans Mono:size=10" --window-size-chars=70x20 \
	sh -c 'echo "a sandboxed terminal, labelled by its tag"; sleep 600' 
foot_pid=$CLIENT_PID
wait_for "foot's window" _has_window_pid "$foot_pid"
assert_eq "org.example.Terminal · flatpak" \
	"$(window_json_by_pid "$foot_pid" | jq -r .label.text)" "foot's label"
wait_for "foot's label on screen" labelled "$foot_pid"

start_client gtk "${IN_CGROUP[@]}" "$gtk_cgroup" env GDK_BACKEND=wayland NO_AT_BRIDGE=1 \
	GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8 dbus-run-session -- \
	python3 "$CORDON_SOURCE_ROOT/tests/integration/gtk4-window.py"
wait_for "the GTK 4 window" sh -c "$(printf '%q ' "$CORDONCTL") --json windows |
	jq -e 'any(.[]; .label.text == \"org.example.GtkLabelled · flatpak\")'"
win=$(ctl --json windows | jq -c 'first(.[] | select(.label.text == "org.example.GtkLabelled · flatpak"))')
gtk_pid=$(jq -r .pid <<<"$win")
wait_for "the GTK window's label on screen" labelled "$gtk_pid"
# Its own header bar is inside the geometry: GTK's pixels, neither the label's colour nor
# the background, across the top rows of the window.
read -r x y w color < <(jq -r '"\(.x) \(.y) \(.width) \(.label.color)"' <<<"$win")
read -r r g b _ < <(png_probe "$shot" pixel 1275 715)
header_label=$(color_permille "$shot" "$(rgb "$color")" 2 "$x" "$y" "$w" 20)
header_background=$(color_permille "$shot" "$r $g $b" 2 "$x" "$y" "$w" 20)
echo "GTK's header bar: label colour $header_label, background $header_background per mille"
((header_label <= 10 && header_background <= 10)) || fail "the GTK window's own header bar is not shown"

# drag PID X Y: moves the window's top-left corner to X Y with Logo+drag, as a user would.
drag() {
	local x y
	read -r x y < <(window_json_by_pid "$1" | jq -r '"\(.x) \(.y)"')
	ctl pointer move $((x + 30)) $((y + 30)) >/dev/null
	ctl key press super >/dev/null
	ctl pointer button left press >/dev/null
	ctl pointer move $(($2 + 30)) $(($3 + 30)) >/dev/null
	ctl pointer button left release >/dev/null
	ctl key release super >/dev/null
	wait_for "the window of pid $1 at $2,$3" sh -c "$(printf '%q ' "$CORDONCTL") --json windows |
		jq -e --argjson p $1 'any(.[]; .pid == \$p and .x == $2 and .y == $3)'"
}
if [[ -n "${CORDON_LABELS_SCREENSHOT:-}" ]]; then
	test_cgroup app-flatpak-org.example.Demo-1.scope
	start_client shm "${IN_CGROUP[@]}" "$TEST_CGROUP" weston-simple-shm
	wait_for "simple-shm's window" _has_window_pid "$(client_pid shm)"
	start_client host-foot env LC_ALL=C.UTF-8 foot --font="DejaVu Sans Mono:size=10" \
		--window-size-chars=70x12 --title "host terminal" sh -c 'echo "a host terminal: no label"; sleep 600' 
	wait_for "the host terminal" _has_window_pid "$(client_pid host-foot)"
	# Topmost first, so that each press lands on the window it is meant for.
	drag "$(client_pid host-foot)" 30 470
	drag "$(client_pid shm)" 860 420
	drag "$gtk_pid" 720 60
	drag "$foot_pid" 30 40
	ctl pointer move 1270 710 >/dev/null
	screenshot HEADLESS-1 "$CORDON_LABELS_SCREENSHOT"
fi
echo "labels: foot (server-side decorations) and GTK 4 (client-side) labelled by their sandboxes"
