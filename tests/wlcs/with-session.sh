#!/usr/bin/env bash
# Runs a command in a private, empty session (as run-wlcs.sh runs wlcs): its own
# XDG_RUNTIME_DIR and XDG_CONFIG_HOME, no display, software rendering.
set -euo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cordon-wlcs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY WAYLAND_DISPLAY WAYLAND_SOCKET CORDON_SOCKET
mkdir -m 0700 "$tmp/runtime" "$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" XDG_CONFIG_HOME="$tmp/config"
export WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
"$@"
