#!/usr/bin/env bash
# The host's X server's selections reach Wayland apps and back, through the mediation
# (xwayland_selection.c): an X client's copy, made while one of its X windows has the
# keyboard, is what a Wayland app pastes; a Wayland app's copy is what an X client reads
# while an X window has the keyboard.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

x_cordon_start
export DISPLAY=$HOST_X_DISPLAY
start_client logo xlogo -title host-x-window
wait_x_window host host-x-window
id=$(x_window_of host host-x-window | jq -r .id)
ctl focus "$id" >/dev/null
wait_for "the X window to have focus" _x_focused "$id"

# X to Wayland.
x_text="from x $$"
printf %s "$x_text" | xclip -i -selection clipboard
wayland_reads() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "a Wayland client to paste what the X client copied" wayland_reads "$x_text"

# Wayland to X.
w_text="from wayland $$"
start_client copy wl-copy --foreground -- "$w_text"
x_reads() {
	[[ "$(timeout 5 xclip -o -selection clipboard)" == "$1" ]]
}
ctl focus "$id" >/dev/null
wait_for "the X window to have focus" _x_focused "$id"
wait_for "an X client to read what the Wayland client copied" x_reads "$w_text"
echo "ok: the host's X clients and Wayland apps share the clipboard through the mediation"
