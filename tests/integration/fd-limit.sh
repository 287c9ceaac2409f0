#!/usr/bin/env bash
# cordon raises its own open-file limit to the hard limit, so that many clients
# cannot make accept() fail, and gives the programs it starts the limit it had.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

hard=$(ulimit -Hn)
[[ "$hard" == unlimited ]] && hard=$(cat /proc/sys/fs/nr_open)
((hard > 1024)) || skip "the hard open-file limit ($hard) leaves nothing to raise"
ulimit -Sn 1024

cordon_test_init
child_limit="$TEST_TMP/child-limit"
cordon_start -s "ulimit -Sn > '$child_limit'"
soft=$(awk '/^Max open files/ { print $4 }' "/proc/$CORDON_PID/limits")
assert_eq "$hard" "$soft" "cordon's soft open-file limit"
wait_for "the startup command" test -s "$child_limit"
assert_eq 1024 "$(cat "$child_limit")" "the open-file limit of a program cordon started"
