#!/usr/bin/env bash
# DISPLAY for what cordon starts: the host X server's display while it exists, and unset
# with `[general] xwayland = no` (no X server then, not even an outer one of a nested
# cordon: DISPLAY set when cordon starts is not passed on).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

command -v Xwayland >/dev/null || skip "Xwayland is not installed"
cordon_test_init

export DISPLAY=:99 # as a nested cordon would have it
cordon_start --startup "printf '%s' \"\${DISPLAY-unset}\" > '$TEST_TMP/display'"
display=$(ctl --json x11-servers | jq -r '.[0].display')
wait_for "the startup command to run" test -s "$TEST_TMP/display"
assert_eq "$display" "$(cat "$TEST_TMP/display")" "DISPLAY of the startup command"
cordon_stop

printf '[general]\nxwayland = no\n' >"$TEST_TMP/no-x.ini"
rm -f "$TEST_TMP/display"
cordon_start --config "$TEST_TMP/no-x.ini" \
	--startup "printf '%s' \"\${DISPLAY-unset}\" > '$TEST_TMP/display'"
assert_eq 0 "$(ctl --json x11-servers | jq length)" "X servers with xwayland = no"
wait_for "the startup command to run" test -s "$TEST_TMP/display"
assert_eq unset "$(cat "$TEST_TMP/display")" "DISPLAY of the startup command with xwayland = no"
