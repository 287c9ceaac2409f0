#!/usr/bin/env bash
# Positive control of the consent rule (docs/security.md, "Focus, input and consent"): a
# real GTK app in a sandbox, which is not focused when it maps, is clicked by the user,
# pastes the host's clipboard into an entry with Ctrl+V and copies it back with Ctrl+C;
# the host reads the app's copy. What users rely on keeps working.
set -euo pipefail
# GTK starts slowly, more so next to an ASan compositor on two cores.
: "${CORDON_TEST_TIMEOUT:=30}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
for tool in gtk3-widget-factory dbus-run-session wl-copy wl-paste; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done

test_cgroup app-flatpak-org.gtk.WidgetFactory-1.scope
cordon_start
start_client host "$TC/focus-client" --app-id host --width 200 --height 100
wait_for_window host
text="pasted into gtk $$"
start_client copy wl-copy --foreground -- "$text"
host_has() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "the host clipboard to hold the text" host_has "$text"

start_client gtk "${IN_CGROUP[@]}" "$TEST_CGROUP" env GDK_BACKEND=wayland NO_AT_BRIDGE=1 \
	GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8 dbus-run-session -- gtk3-widget-factory
app_id=gtk3-widget-factory
wait_for_window "$app_id"
window_is "$app_id" '.focused | not' || fail "the sandboxed GTK window took the focus as it mapped"
window_is host '.focused' || fail "the host window lost the focus to a window that mapped"
wait_input_trusted "$app_id"

# The entry labelled "entry" on the first page, 150,227 from the window's corner.
read -r x y < <(geometry "$app_id" | cut -d' ' -f1,2)
ctl pointer move $((x + 150)) $((y + 227)) >/dev/null
ctl pointer button left click >/dev/null
wait_for_focus "$app_id"
chord() {
	ctl key press Control_L >/dev/null
	ctl key click "$1" >/dev/null
	ctl key release Control_L >/dev/null
}
chord a
chord v
# GTK pastes asynchronously: wait until cordon has copied the text across to it.
pasted_across() {
	ctl --json transfers | jq -e --argjson n "${#text}" 'any(.[]; .destination ==
		"flatpak:org.gtk.WidgetFactory/1" and .decision == "proxied" and .bytes == $n)' \
		>/dev/null
}
wait_for "the paste into the GTK app" pasted_across
# Ctrl+A, Ctrl+C: the app now owns the clipboard (the host's wl-copy is told it lost it
# and exits), and the host reads the app's copy through cordon. GTK inserts the paste on
# its own time, so the copy is repeated until it holds the pasted text.
copy_holds_text() {
	chord a
	chord c
	! client_alive copy && host_has "$text"
}
wait_for "the GTK app to copy the pasted text" copy_holds_text
ctl focus host >/dev/null
wait_for_focus host
host_has "$text" || fail "the host does not read the GTK app's copy: $(timeout 5 wl-paste -n)"
copied_back() {
	ctl --json transfers | jq -e 'any(.[]; .source == "flatpak:org.gtk.WidgetFactory/1" and
		.destination == "host" and .decision == "proxied")' >/dev/null
}
wait_for "the copy from the GTK app to be logged" copied_back
echo "GTK in a sandbox: paste and copy after a real click work"
