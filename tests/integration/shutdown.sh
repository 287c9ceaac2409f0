#!/usr/bin/env bash
# cordon exits 0 with a clean log on SIGTERM, on SIGINT, and on cordonctl quit with a
# client still connected; the startup command runs with the session's environment.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

cordon_start
cordon_stop TERM
echo "SIGTERM: exit 0"

cordon_start
cordon_stop INT
echo "SIGINT: exit 0"

# With a mapped client, so that shutdown has a surface, a toplevel and a client to free.
if command -v weston-simple-shm >/dev/null; then
	cordon_start
	start_client shm weston-simple-shm
	wait_for "weston-simple-shm's window" _has_window_pid "$CLIENT_PID"
	cordon_stop TERM
	wait_for "weston-simple-shm to notice the compositor left" not client_alive shm
	echo "SIGTERM with a client: exit 0"
fi

# -s runs once cordon is ready, with WAYLAND_DISPLAY and CORDON_SOCKET set for it.
started="$TEST_TMP/started"
cordon_start -s "echo \"\$WAYLAND_DISPLAY \$CORDON_SOCKET\" >$started.tmp && mv $started.tmp $started"
wait_for "the startup command to run" test -s "$started"
assert_eq "$WAYLAND_DISPLAY $CORDON_SOCKET" "$(cat "$started")" "environment of the startup command"
cordon_stop quit
echo "startup command ran; cordonctl quit: exit 0"
