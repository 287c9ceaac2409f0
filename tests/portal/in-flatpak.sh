#!/usr/bin/env bash
# in-flatpak.sh APP_ID BWRAP [BWRAP ARGS...] -- CMD...: runs CMD in a bwrap root that
# xdg-desktop-portal takes for a Flatpak instance, as Flatpak itself makes one: a new
# instance id, its /.flatpak-info naming APP_ID and the instance, and
# $XDG_RUNTIME_DIR/.flatpak/INSTANCE/bwrapinfo.json written by bwrap (--info-fd) with the
# sandbox's child-pid, whose namespaces xdg-desktop-portal 1.22 maps the caller through
# (it refuses a caller whose instance has no bwrapinfo.json).
set -euo pipefail
app=$1
bwrap=$2
shift 2
instance="$$$RANDOM"
dir="$XDG_RUNTIME_DIR/.flatpak/$instance"
mkdir -p "$dir"
printf '[Application]\nname=%s\n\n[Instance]\ninstance-id=%s\n' "$app" "$instance" \
	>"$dir/flatpak-info"
exec 3>"$dir/bwrapinfo.json"
exec "$bwrap" --ro-bind "$dir/flatpak-info" /.flatpak-info --info-fd 3 "$@"
