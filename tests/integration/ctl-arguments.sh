#!/usr/bin/env bash
# The control socket's arguments are checked before they reach wlroots: a pointer moved to
# "nan", "inf" or 1e308 (strtod takes them all) made wlroots' cursor assert and cordon abort
# (found by the Wayland fuzzer's control step, docs/fuzzing.md). Each is refused with the
# command's usage, and cordon goes on; an ordinary move still works.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

cordon_start
for value in nan -nan inf -infinity 1e308 -1e7 0x1p1000; do
	for command in "pointer move $value 10" "pointer move 10 $value" "pointer motion $value 0" \
		"pointer axis vertical $value"; do
		# shellcheck disable=SC2086 # the command's words
		if ctl $command 2>"$TEST_TMP/err"; then
			fail "cordonctl $command was taken"
		fi
		grep -q "usage: pointer" "$TEST_TMP/err" || fail "cordonctl $command: $(cat "$TEST_TMP/err")"
	done
done
ctl pointer move 100 100 >/dev/null || fail "an ordinary move was refused"
ctl --json outputs >/dev/null || fail "cordon does not answer after the refusals"
echo "non-finite and huge pointer values refused with the usage; cordon answers"
