#!/usr/bin/env bash
# cordon_x11_manager_v1 against a broken or hostile launcher (tests/clients/x11-display-client):
# an invalid app id, instance id or close_fd is a protocol error; a display lives exactly as
# long as its close_fd (not its object, not its client's connection); a sandboxed client
# does not see the global; 32 displays in all, then "failed".
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v Xwayland >/dev/null || skip "Xwayland not found"

cordon_start
client="$TC/x11-display-client"

# expect_error CODE ARGS...: the client is disconnected with the manager's error CODE.
expect_error() {
	local code=$1 out status=0
	shift
	out=$(timeout 10 "$client" "$@" 2>&1) || status=$?
	assert_eq 1 "$status" "x11-display-client $*: exit status"
	grep -qx "protocol-error interface=cordon_x11_manager_v1 code=$code" <<<"$out" ||
		fail "x11-display-client $*: expected error $code, got: $out"
}
expect_error 1 --app-id '..bad'
expect_error 1 --app-id '-rf'
expect_error 2 --instance ''
expect_error 2 --instance 'has space'
expect_error 3 --close-kind file
assert_eq 1 "$(ctl --json x11-servers | jq length)" "X servers after the refusals (the host's)"

# A display outlives its object and its client's connection, and ends with its close_fd.
start_client display "$client" --app-id org.example.Proto --instance one --destroy-object
wait_log display '^ready /tmp/\.X11-unix/X[0-9]+ [0-9]+$'
socket=$(log_last display '^ready' | cut -d' ' -f2)
[[ -S "$socket" ]] || fail "no socket at $socket"
listed() {
	ctl --json x11-servers | jq -e '[.[] | select(.app_id == "org.example.Proto")] | length == 1' >/dev/null
}
assert "the display is listed" listed
kill -USR1 "$(client_pid display)"
wait_log display '^close-fd-closed$'
gone() {
	! listed && [[ ! -e "$socket" ]]
}
wait_for "the display to end with its close_fd" gone

# A launcher killed: the kernel closes its end of close_fd, and the display ends.
start_client holder "$client" --app-id org.example.Proto --instance two
wait_log holder '^ready'
socket=$(log_last holder '^ready' | cut -d' ' -f2)
stop_client holder
wait_for "the display to end with its launcher (its close_fd's last copy)" \
	sh -c "! test -e '$socket'"

# A sandboxed client does not see the manager.
# (LeakSanitizer cannot run in a sandbox, which refuses ptrace: off for the sanitized build.)
out=$("$CORDON_RUN" --app-id "$APP_ID" --app "$TC" --setenv ASAN_OPTIONS=detect_leaks=0 -- \
	/app/x11-display-client 2>&1) || true
assert_eq "no-manager" "$out" "the manager as a sandboxed client sees it"

# The total cap: 32 displays (4 apps of 8), then "failed" with the reason.
for i in 1 2 3 4; do
	start_client "many-$i" "$client" --app-id "org.example.Many$i" --count 8
done
all_ready() {
	local i
	for i in 1 2 3 4; do
		(($(log_count "many-$i" '^ready') == 8)) || return 1
	done
}
wait_for "32 displays" all_ready
start_client one-more "$client" --app-id org.example.OneMore
wait_log one-more '^(ready|failed)'
out=$(cat "$TEST_TMP/one-more.log")
grep -q "^failed cordon runs as many X displays as it allows (32)$" <<<"$out" ||
	fail "the 33rd display was not refused with the reason: $out"
echo "ok: cordon_x11_manager_v1 refuses bad requests, caps displays and ends each with its close_fd"
