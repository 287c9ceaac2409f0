#!/usr/bin/env bash
# The request lifecycle: a request waits while the user has not answered, is dismissed
# when its client goes away (the ASan build proves nothing leaks), is cancelled when its
# parent window goes; one dialog per window; misuse is a protocol error; the per-client
# cap holds.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

portal_start --verbose
portal_sandbox_init org.example.Lifecycle
client="$CORDON_TEST_PORTAL_CLIENT"
# No answer file: the auto UI leaves every dialog open, like a user who has not answered.
rm -f "$ANSWER"

pending_count() {
	ctl --json portal-requests | jq length
}
has_pending() {
	[[ "$(pending_count)" == "$1" ]]
}

# A client that disconnects mid-request: its dialog is dismissed, the request freed.
start_client held "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP"
wait_for "the request to be pending" has_pending 1
request=$(ctl --json portal-requests | jq -c '.[0]')
assert_eq "file-chooser org.example.Lifecycle true" \
	"$(jq -r '"\(.portal) \(.app_id) \(.sandboxed)"' <<<"$request")" "the pending request"
[[ "$(jq -r .token <<<"$request")" =~ ^[0-9a-f]{32}$ ]] || fail "the token is not 128 bits of hex"
stop_client held
wait_for "the request to go with its client" has_pending 0

# Several clients killed mid-request, repeatedly.
for i in 1 2 3 4 5; do
	start_client "held$i" "${in_sandbox[@]}" "$client" hold
done
wait_for "five pending requests" has_pending 5
for i in 1 2 3 4 5; do
	kill -KILL "$(client_pid "held$i")"
done
wait_for "the killed clients' requests to go" has_pending 0

# One dialog per parent: the second request for the same window fails as busy; the
# first is cancelled when the window goes.
start_client parent "${in_sandbox[@]}" "$client" parent
wait_for "the busy refusal" grep -q "^second failed 1 " "$TEST_TMP/parent.log"
wait_for "the first request to be pending" has_pending 1
kill -USR1 "$(client_pid parent)"
wait_for "the cancel when the parent went" grep -qx "first cancelled" "$TEST_TMP/parent.log"
wait_for "no request pending" has_pending 0
assert "the client outlives its cancelled request" client_alive parent

# Misuse is a protocol error, never a crash.
start_client late "${in_sandbox[@]}" "$client" late
wait_for "the late option's error" grep -qx \
	"protocol-error cordon_portal_file_chooser_v1 0" "$TEST_TMP/late.log"
start_client kind "${in_sandbox[@]}" "$client" kind
wait_for "the bad kind's error" grep -qx "protocol-error cordon_portal_manager_v1 1" \
	"$TEST_TMP/kind.log"
start_client cap "${in_sandbox[@]}" "$client" cap
wait_for "the cap's error" grep -qx "protocol-error cordon_portal_manager_v1 0" \
	"$TEST_TMP/cap.log"
wait_for "the capped client's requests to go" has_pending 0

# Answered requests that a client never destroys count too (an empty answer cancels).
: >"$ANSWER"
start_client hoard "${in_sandbox[@]}" "$client" hoard
wait_for "the object cap's error" grep -qx "protocol-error cordon_portal_manager_v1 0" \
	"$TEST_TMP/hoard.log"
assert_eq 32 "$(grep -c '^hoarded cancelled$' "$TEST_TMP/hoard.log")" "answered requests held"

cordon_stop
