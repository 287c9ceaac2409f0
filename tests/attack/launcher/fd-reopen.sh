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

# The same with a file of the app's own directory (bound read-only at /app): that it is in
# the layout makes it no more writable.
mkdir -p "$TEST_TMP/app"
echo "the app's file $$" >"$TEST_TMP/app/file"
out=$("$CORDON_RUN" --no-wayland --app-id "$APP_ID" --app "$TEST_TMP/app" -- sh -c '
	( echo pwned >/proc/self/fd/0 ) 2>&1 || echo "reopen refused"
	( echo pwned >/app/file ) 2>&1 || echo "path refused"
	echo "shell ran"' <"$TEST_TMP/app/file" 2>&1) || fail "the shell inside failed: $out"
grep -qx "shell ran" <<<"$out" || fail "the shell inside did not run to its end: $out"
grep -qx "reopen refused" <<<"$out" || fail "an /app file given as stdin reopened for writing: $out"
grep -qx "path refused" <<<"$out" || fail "/app/file written by path: $out"
assert_eq "the app's file $$" "$(cat "$TEST_TMP/app/file")" "the app's file given read-only"

# Control: stdout and stderr into host files stay writable by path.
run_sandboxed -- sh -c 'echo out >>/dev/stdout; echo err >>/dev/stderr' \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" || fail "writing /dev/stdout inside failed"
assert_eq out "$(cat "$TEST_TMP/out")" "stdout written through /dev/stdout"
assert_eq err "$(cat "$TEST_TMP/err")" "stderr written through /dev/stderr"
echo "ok: a read-only fd is not reopened for writing through /proc/self/fd"
