#!/usr/bin/env bash
# The clipboard between a host X11 app (xclip) and a host Wayland app (wl-copy,
# wl-paste), both ways, through the host X server's window manager on the real seat.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

command -v Xwayland >/dev/null || skip "Xwayland is not installed"
command -v xclip >/dev/null || skip "xclip is not installed"
command -v wl-copy >/dev/null || skip "wl-clipboard is not installed"

cordon_start
display=$(ctl --json x11-servers | jq -r '.[0].display')

# X11 to Wayland: xclip owns the X clipboard (and stays to serve it).
start_client xclip-in bash -c "printf from-x11 | DISPLAY=$display xclip -selection clipboard -i -loops 0 -quiet"
_wayland_sees() { [[ "$(timeout 5 wl-paste -n 2>/dev/null)" == from-x11 ]]; }
wait_for "wl-paste to read what xclip copied" _wayland_sees

# Wayland to X11.
start_client wl-copy wl-copy --foreground from-wayland
_x11_sees() {
	[[ "$(DISPLAY=$display timeout 5 xclip -selection clipboard -o 2>/dev/null)" == from-wayland ]]
}
wait_for "xclip to read what wl-copy copied" _x11_sees
