#!/usr/bin/env bash
# Keys sent with cordonctl key reach the focused terminal: typing a command into foot's
# shell runs it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v foot >/dev/null || skip "foot not found (Debian package foot)"
# Asked by pattern: grep -q on the full list could close the pipe early, and pipefail
# would then count fc-list's SIGPIPE as "no font".
[[ -n "$(fc-list "DejaVu Sans Mono" 2>/dev/null)" ]] || skip "no DejaVu Sans Mono (Debian package fonts-dejavu-core)"

cordon_start
start_client foot env LC_ALL=C.UTF-8 foot --font="DejaVu Sans Mono:size=10" sh
wait_for_window foot
wait_for_focus foot

marker="$TEST_TMP/typed-by-cordonctl"
type_text "echo Typed_OK > $marker"
ctl key Return
wait_for "the typed command to run in foot's shell" test -s "$marker"
assert_eq Typed_OK "$(cat "$marker")" "what the shell wrote"
echo "typed a command into foot"
