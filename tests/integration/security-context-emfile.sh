#!/usr/bin/env bash
# A security-context listener at the open-file limit: accept() fails with EMFILE
# while connections wait in the backlog. cordon pauses that listener instead of
# waking up for the same connection again and again (no spin: its CPU time stays
# low), and once fds are free again it accepts the waiting clients, tagged.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v prlimit >/dev/null || skip "prlimit not found (util-linux)"

cordon_start
sock="$TEST_TMP/ctx.sock"
start_client launcher "$TC/security-context-client" --listen "$sock" --engine org.flatpak \
	--app-id org.example.Emfile --commit
wait_log launcher '^ready$'

# cordon's CPU time so far, in clock ticks (utime + stime).
cpu_ticks() {
	sed 's/^.*) //' "/proc/$CORDON_PID/stat" | awk '{ print $12 + $13 }'
}
hard=$(awk '/^Max open files/ { print $5 }' "/proc/$CORDON_PID/limits")
open_fds=$(fd_count)
# Room for a few clients only (each costs its socket and the event loop's copy of it).
prlimit --pid "$CORDON_PID" --nofile=$((open_fds + 6)):"$hard"
start_client storm "$TC/storm-client" --count 40 --display "$sock"
wait_for "cordon to run out of fds" grep -q "pausing it for" "$CORDON_LOG"
before=$(cpu_ticks)
start=$(date +%s%N)
sleep 2 # measuring CPU use over a period: a condition cannot replace this wait
used=$(($(cpu_ticks) - before))
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
ticks_per_s=$(getconf CLK_TCK)
# A spinning loop would use the whole period; allow a tenth of it.
((used * 1000 * 10 < elapsed_ms * ticks_per_s)) ||
	fail "cordon used $used ticks in $elapsed_ms ms at the fd limit (spinning on EMFILE?)"
! log_has storm '^ready$' || fail "the storm finished although cordon had no fds"

prlimit --pid "$CORDON_PID" --nofile="$hard":"$hard"
wait_log storm '^ready$'
storm_pid=$(client_pid storm)
assert_eq "40 true flatpak org.example.Emfile security-context" \
	"$(ctl --json clients | jq -r --argjson pid "$storm_pid" '[.[] | select(.pid == $pid)
		| "\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"] | group_by(.)
		| map("\(length) \(.[0])") | .[]')" "the clients accepted after the pause"
