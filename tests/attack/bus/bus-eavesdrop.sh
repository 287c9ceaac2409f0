#!/usr/bin/env bash
# Attack: the app listens to other clients' traffic on its session bus: a match rule for
# method calls between others, the same with eavesdrop='true', and BecomeMonitor. The
# test's bus lets every client eavesdrop (its policy allows it), so without cordon-run's
# proxy each would work: the control runs the same listener on the host and overhears the
# secret. Evidence: in the sandbox AddMatch with eavesdrop and BecomeMonitor are refused,
# and after the host's secret call has been answered, the app has heard nothing of it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"

bus_start
serve_fakes org.example.Vault

# listen NAME CMD...: CMD (the probe's eavesdrop) with a fifo on its stdin; once it says
# "listening", a host client sends its secret to the fake vault, then the listener is told
# to report. Its output ends in $TEST_TMP/NAME.out.
listen() {
	local name=$1 secret=$2
	shift 2
	local fifo="$TEST_TMP/$name.in" out="$TEST_TMP/$name.out"
	mkfifo "$fifo"
	"$@" <"$fifo" >"$out" 2>"$TEST_TMP/$name.err" &
	local pid=$!
	exec {hold}>"$fifo"
	wait_for "the $name listener" grep -q "^listening$" "$out"
	/usr/bin/python3 "$BUS_PROBE_DIR/bus-probe.py" call org.example.Vault "$secret" |
		grep -q "^answered org.example.Vault hit$" || fail "the host's secret call failed"
	echo done >&"$hold"
	exec {hold}>&-
	wait "$pid" || fail "the $name listener failed: $(cat "$TEST_TMP/$name.err")"
}

# Control: on the host (no proxy) the same listener overhears the call.
listen host "host-secret-$$" /usr/bin/python3 "$BUS_PROBE_DIR/bus-probe.py" eavesdrop org.cordon.Test
grep -q "^overheard .*host-secret-$$" "$TEST_TMP/host.out" ||
	fail "the control did not overhear (so the attack proves nothing): $(cat "$TEST_TMP/host.out")"
echo "control: on the host the listener overhears ($(grep -c '^answered' "$TEST_TMP/host.out") of 3 calls answered)"

listen app "app-secret-$$" run_app -- /usr/bin/python3 /app/bus-probe.py eavesdrop org.cordon.Test
cat "$TEST_TMP/app.out"
grep -q "^refused AddMatch .*eavesdrop='true'" "$TEST_TMP/app.out" ||
	fail "an eavesdropping match rule was accepted: $(cat "$TEST_TMP/app.out")"
grep -q "^refused BecomeMonitor " "$TEST_TMP/app.out" ||
	fail "BecomeMonitor was accepted: $(cat "$TEST_TMP/app.out")"
grep -qx "heard nothing" "$TEST_TMP/app.out" ||
	fail "the app overheard: $(cat "$TEST_TMP/app.out")"
grep -q "hit /org/cordon/Test app-secret-$$" "$FAKE_LOG" || fail "the secret call never happened"
echo "sandbox: eavesdrop and BecomeMonitor refused, nothing of the host's call overheard"
