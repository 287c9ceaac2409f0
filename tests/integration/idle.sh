#!/usr/bin/env bash
# Idle notification (org_kde_kwin_idle) through swayidle: idleness is reported
# after the timeout, input ends it, and an idle inhibitor holds it off.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v swayidle >/dev/null || skip "swayidle not found (Debian package swayidle)"

cordon_start
idle="$TEST_TMP/idle" resumed="$TEST_TMP/resumed"
start_client swayidle swayidle -w timeout 1 "touch '$idle'" resume "touch '$resumed'"

wait_for "swayidle to report idleness" test -e "$idle"
ctl key shift
wait_for "input to end idleness" test -e "$resumed"

# A client holding an inhibitor keeps the session from going idle...
start_client inhibitor "$CORDON_TEST_CLIENTS/focus-client" --app-id inhibitor --inhibit-idle
wait_for_window inhibitor
grep -q '^idle-inhibited$' "$TEST_TMP/inhibitor.log" || fail "the client made no inhibitor"
rm -f "$idle"
ctl key shift
sleep 3
[[ ! -e "$idle" ]] || fail "the session went idle while an inhibitor was held"

# ...and once it is gone, idleness comes back.
stop_client inhibitor
wait_for "idleness once the inhibitor is gone" test -e "$idle"
