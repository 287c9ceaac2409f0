# shellcheck shell=bash
# Shared by the resource attacks: sourced after tests/lib/harness.sh and tests/clients/lib.sh.
# shellcheck disable=SC2034 # used by the scripts that source this file
ATTACK="${CORDON_TEST_CLIENTS%/clients}/attack/resources"

# pidfd_count: how many of them are pidfds.
pidfd_count() {
	local n=0 fd
	for fd in "/proc/$CORDON_PID/fd"/*; do
		[[ "$(readlink "$fd" 2>/dev/null)" == "anon_inode:[pidfd]" ]] && n=$((n + 1))
	done
	echo "$n"
}

# anon_kib: cordon's own resident memory now (RssAnon), in KiB. Not VmRSS: that also counts
# the pages of clients' shm buffers cordon has mapped and read (a 1280x720 window is 3.5 MiB
# of them once drawn), which are the clients' memory, not something cordon holds on to.
anon_kib() {
	awk '/^RssAnon:/ { print $2 }' "/proc/$CORDON_PID/status"
}

# host_answers SECONDS: a host client (wayland-info) completes within SECONDS.
host_answers() {
	timeout "$1" wayland-info >/dev/null 2>&1
}

# Under ASan, freed memory waits in a quarantine of up to 256 MiB before it is reused, which
# is not memory cordon holds: a small one lets RssAnon measure what cordon keeps. Call before
# cordon_start.
small_asan_quarantine() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
}

# assert_log_lines COUNT SINCE WHAT: COUNT log lines about one app's refusals, written since
# bash's SECONDS was SINCE, are at least one and at most one per 10 s begun (cordon logs a
# refusal naming the app at most once every 10 s per app, however many there were).
assert_log_lines() {
	local count=$1 since=$2 what=$3 max
	max=$(((SECONDS - since) / 10 + 1))
	((count >= 1 && count <= max)) ||
		fail "$what: $count log lines in $((SECONDS - since)) s (want 1 to $max: one per 10 s)"
}
