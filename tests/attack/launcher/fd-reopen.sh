#!/usr/bin/env bash
# Attack: an fd handed to the app read-only (here the caller's stdin, a host file; a portal's
# read-only file the same way) is reopened for writing through /proc/self/fd/N, which the
# kernel resolves to the file itself: the open mode is then the file's permissions, not the
# fd's. The reopen must fail (EACCES, Landlock) and the host file keep its bytes. Controls:
# reading it through /dev/stdin works, and a host file given as stdout stays writable
# through /dev/stdout.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init

ro="$TEST_TMP/read-only-for-the-app"
echo "the host's bytes $$" >"$ro"
out=$(run_sandboxed -- sh -c '
	cat /dev/stdin
	( echo pwned >/proc/self/fd/0 ) 2>&1 || echo "reopen refused"
	( echo pwned >>/dev/stdin ) 2>&1 || echo "append refused"
	echo "shell ran"' <"$ro" 2>&1) || fail "the shell inside failed: $out"
grep -qx "shell ran" <<<"$out" || fail "the shell inside did not run to its end: $out"
grep -qx "the host's bytes $$" <<<"$out" || fail "stdin was not readable inside: $out"
grep -qx "reopen refused" <<<"$out" || fail "stdin reopened for writing: $out"
grep -qx "append refused" <<<"$out" || fail "stdin reopened for appending: $out"
grep -q "Permission denied" <<<"$out" || fail "not refused with EACCES: $out"
assert_eq "the host's bytes $$" "$(cat "$ro")" "the host file given read-only"

# Control: stdout and stderr into host files stay writable by path.
run_sandboxed -- sh -c 'echo out >>/dev/stdout; echo err >>/dev/stderr' \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" || fail "writing /dev/stdout inside failed"
assert_eq out "$(cat "$TEST_TMP/out")" "stdout written through /dev/stdout"
assert_eq err "$(cat "$TEST_TMP/err")" "stderr written through /dev/stderr"
echo "ok: a read-only fd is not reopened for writing through /proc/self/fd"
