#!/bin/bash
# Misbehaving clients are disconnected with a protocol error, and only they:
# a client started before keeps its window and its input, new clients connect.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

cordon_start --output 1280x720

start_client survivor "$TC/focus-client" --app-id survivor --width 300 --height 200
wait_for_window survivor
if command -v weston-simple-shm >/dev/null; then
	start_client simple-shm weston-simple-shm
	wait_for_window org.freedesktop.weston.simple-shm
fi

# still_alive: the earlier clients are listed and the survivor still gets clicks.
still_alive() {
	window_json survivor >/dev/null || fail "survivor's window is gone: $(windows_json)"
	if command -v weston-simple-shm >/dev/null; then
		window_json org.freedesktop.weston.simple-shm >/dev/null ||
			fail "weston-simple-shm's window is gone: $(windows_json)"
	fi
	local presses
	presses=$(log_count survivor '^button name=left .*state=pressed')
	click_window survivor
	wait_for "survivor to still get clicks" \
		log_count_above survivor '^button name=left .*state=pressed' "$presses"
}

# mode and the protocol error it must get: "interface code"
declare -A expected=(
	[unknown-object]="wl_display 0"      # WL_DISPLAY_ERROR_INVALID_OBJECT
	[invalid-enum]="xdg_positioner 0"    # XDG_POSITIONER_ERROR_INVALID_INPUT
	[negative-size]="xdg_positioner 0"   # XDG_POSITIONER_ERROR_INVALID_INPUT
	# XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE: wlroots 0.20 checks the edge before cordon sees
	# the request and posts the error on the toplevel's xdg_surface object.
	[invalid-resize-edge]="xdg_surface 0"
	# XDG_SURFACE_ERROR_NOT_CONSTRUCTED: wlroots 0.20 aborts on it; cordon refuses it first
	# (compositor/request_guard.c).
	[popup-reposition-early]="xdg_surface 1"
	# XDG_POPUP_ERROR_INVALID_GRAB: wlroots 0.20 takes a second grab of one popup and later
	# ends the grab through the freed popup at a button press (still_alive's click); cordon
	# refuses it first (compositor/request_guard.c).
	[popup-grab-twice]="xdg_popup 0"
	# XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT: wlroots 0.20 makes a popup its own parent, and
	# cordon's placement walked up its parents forever; cordon refuses it first.
	[popup-parent-self]="xdg_wm_base 3"
)

for mode in unknown-object invalid-enum negative-size invalid-resize-edge popup-reposition-early \
	popup-grab-twice popup-parent-self; do
	log="$TEST_TMP/bad-$mode.log"
	status=0
	timeout 30 "$TC/bad-client" "$mode" > "$log" 2>&1 || status=$?
	[ "$status" -eq 0 ] ||
		fail "bad-client $mode was not disconnected with a protocol error (exit $status): $(cat "$log")"
	read -r interface code <<< "${expected[$mode]}"
	grep -Eq "^protocol-error interface=$interface code=$code " "$log" ||
		fail "bad-client $mode: expected a $interface error $code, got: $(cat "$log")"
	still_alive
done

start_client late "$TC/focus-client" --app-id late
wait_for_window late
# New windows are centred, so "late" covers the survivor: raise it to click it.
ctl focus survivor
still_alive
