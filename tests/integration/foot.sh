#!/usr/bin/env bash
# foot, a real terminal, maps a toplevel with its own app_id and goes away when cordon
# asks it to close.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v foot >/dev/null || skip "foot not found (Debian package foot)"
# Asked by pattern: grep -q on the full list could close the pipe early, and pipefail
# would then count fc-list's SIGPIPE as "no font".
[[ -n "$(fc-list "DejaVu Sans Mono" 2>/dev/null)" ]] || skip "no DejaVu Sans Mono (Debian package fonts-dejavu-core)"

cordon_start
# foot insists on a UTF-8 locale; C.UTF-8 is always there on Debian.
start_client foot env LC_ALL=C.UTF-8 foot --font="DejaVu Sans Mono:size=10" sleep 600
foot_pid=$CLIENT_PID
wait_for_window foot
win=$(window_json foot)
assert_eq "$foot_pid" "$(jq -r .pid <<<"$win")" "pid cordon reports for foot's window"
read -r id w h < <(jq -r '"\(.id) \(.width) \(.height)"' <<<"$win")
((w > 100 && h > 50)) || fail "foot's window is ${w}x$h"
assert_eq 1 "$(ctl --json clients | jq --argjson p "$foot_pid" '[.[] | select(.pid == $p)][0].windows')" \
	"toplevels counted for foot's client"

ctl close foot
wait_for_window_gone foot
wait_for "foot to exit after close" not client_alive foot
assert_eq 0 "$(ctl --json windows | jq length)" "windows left after foot closed"
echo "foot mapped as window $id (${w}x$h) and closed"
