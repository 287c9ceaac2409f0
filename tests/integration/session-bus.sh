#!/usr/bin/env bash
# cordon joins the session bus it was started with, without blocking on it, and keeps
# serving when the bus goes away; with no bus at all it starts as usual.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

for tool in dbus-daemon busctl jq wayland-info; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

# No session bus: cordon starts, says why the D-Bus side is off, and serves.
cordon_start --verbose
wayland-info >/dev/null
grep -q "D-Bus: no session bus" "$CORDON_LOG" || fail "no word on the missing bus in the log"
cordon_stop TERM
echo "no bus: cordon serves and says so"

start_session_bus
cordon_start --verbose
_cordon_on_bus() {
	busctl --address="$DBUS_SESSION_BUS_ADDRESS" --json=short list |
		jq -e --argjson pid "$CORDON_PID" 'map(select(.pid == $pid)) | length > 0' >/dev/null
}
wait_for "cordon's connection on the session bus" _cordon_on_bus
echo "cordon is on the session bus"

# The bus dies under it: cordon notices, keeps serving clients and its control socket.
stop_client session-bus
wait_for "cordon to notice the bus left" grep -q "session bus closed the connection" "$CORDON_LOG"
wayland-info >/dev/null
ctl clients >/dev/null
cordon_stop TERM
echo "bus gone: cordon still serves and exits cleanly"
