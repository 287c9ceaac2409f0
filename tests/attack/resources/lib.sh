# Shared by the resource attacks: sourced after tests/lib/harness.sh and tests/clients/lib.sh.
ATTACK="${CORDON_TEST_CLIENTS%/clients}/attack/resources"

# fd_count: how many fds cordon holds now.
fd_count() {
	ls "/proc/$CORDON_PID/fd" | wc -l
}

# pidfd_count: how many of them are pidfds.
pidfd_count() {
	local n=0 fd
	for fd in "/proc/$CORDON_PID/fd"/*; do
		[[ "$(readlink "$fd" 2>/dev/null)" == "anon_inode:[pidfd]" ]] && n=$((n + 1))
	done
	echo "$n"
}

# rss_kib: cordon's resident memory now (VmRSS), in KiB.
rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$CORDON_PID/status"
}

# host_answers SECONDS: a host client (wayland-info) completes within SECONDS.
host_answers() {
	timeout "$1" wayland-info >/dev/null 2>&1
}

# Under ASan, freed memory waits in a quarantine of up to 256 MiB before it is reused, which
# is not memory cordon holds: a small one lets VmRSS measure what cordon keeps. Call before
# cordon_start.
small_asan_quarantine() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"
}
