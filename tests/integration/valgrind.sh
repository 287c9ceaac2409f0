#!/usr/bin/env bash
# cordon under valgrind, with clients mapping, closing and a clean quit, makes no
# invalid read, write or free. ASan cannot see these when they happen inside
# libwlroots (which is not instrumented) because cordon destroyed something in the
# wrong order; valgrind sees every library.
set -euo pipefail
: "${CORDON_TEST_TIMEOUT:=60}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v valgrind >/dev/null || skip "valgrind not found (Debian package valgrind)"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"
# Read ldd's output whole: grep -q would close the pipe early and, under
# pipefail, ldd's SIGPIPE would turn the match into a failure.
libraries=$(ldd "$CORDON")
if grep -q 'libasan\|libubsan' <<< "$libraries"; then
	fail "valgrind cannot run a sanitizer build: meson registers this test in the plain build only"
fi

cordon_test_init
# cordon_start runs "$CORDON": point it at a wrapper. Leaks are ASan's job (LSan with
# the suppressions for wlroots' own); here only memory errors count.
wrapper="$TEST_TMP/valgrind-cordon"
cat >"$wrapper" <<WRAPPER
#!/bin/sh
exec valgrind --quiet --error-exitcode=97 --leak-check=no --num-callers=30 \\
	--log-file="$TEST_TMP/valgrind.log" "$CORDON" "\$@"
WRAPPER
chmod +x "$wrapper"
CORDON=$wrapper

cordon_start
start_client shm weston-simple-shm
wait_for "weston-simple-shm's window" _has_window_pid "$CLIENT_PID"
if command -v foot >/dev/null; then
	start_client foot env LC_ALL=C.UTF-8 foot --font="DejaVu Sans Mono:size=10" sleep 600
	wait_for_window foot
	ctl close foot
	wait_for_window_gone foot
fi
screenshot HEADLESS-1 "$TEST_TMP/shot.png"
cordon_stop quit
# Errors are "==PID==" lines; "--PID--" lines are valgrind's own notes, such as
# the pidfd syscalls it does not know (cordon then treats clients as sandboxed).
if grep -q '^==[0-9]*==' "$TEST_TMP/valgrind.log" 2>/dev/null; then
	fail "valgrind reported errors in cordon: $(grep '^==' "$TEST_TMP/valgrind.log" | head -n 60)"
fi
echo "no memory errors under valgrind"
