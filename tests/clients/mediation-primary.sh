#!/usr/bin/env bash
# The primary selection across sandbox boundaries (docs/mediation.md): by default it does
# not cross at all, in either direction, even after a user action; within the host and
# within one app it works as usual; a sandbox cannot set it without a user action.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

test_cgroup app-flatpak-org.example.Primary-7.scope
scope=$TEST_CGROUP
in_scope=("${IN_CGROUP[@]}" "$scope")
utf8='text/plain;charset=utf-8'

cordon_start

focus_and_press() {
	ctl focus "$1" >/dev/null
	wait_for_focus "$1"
	wait_input_trusted "$1"
	ctl key click a >/dev/null
}
pasted() {
	log_has "$1" "^pasted bytes=$2\$"
}

# Host to host: the primary selection works as usual.
start_client hostcopy "$TC/clip-client" --app-id hostcopy --primary --copy "primary $$"
wait_for_window hostcopy
focus_and_press hostcopy
wait_log hostcopy '^copied serial='
start_client hostread "$TC/clip-client" --app-id hostread --primary --paste "$utf8"
wait_for_window hostread
focus_and_press hostread
wait_for "the host to paste its own primary selection" pasted hostread "$(printf 'primary %s' $$ | wc -c)"

# Host to sandbox: never offered, not even after a key press in the sandbox.
start_client reader "${in_scope[@]}" "$TC/clip-client" --app-id reader --primary --paste "$utf8"
wait_for_window reader
focus_and_press reader
wait_log reader '^paste-none$'
! log_has reader '^selection types' || fail "the host's primary selection reached the sandbox"

# A sandbox setting it without a user action (its enter serial) is refused.
start_client sneaky "${in_scope[@]}" "$TC/clip-client" --app-id sneaky --primary \
	--copy "sneaky $$" --copy-on-enter
wait_for_window sneaky
# A sandboxed window gets the keyboard from the user only (input_router.c).
ctl focus sneaky >/dev/null
wait_log sneaky '^source-cancelled$'
ctl --json transfers | jq -e 'any(.[]; .kind == "primary" and
	.decision == "set-refused-deny-no-input")' >/dev/null ||
	fail "the refused primary set_selection was not logged"
stop_client sneaky

# Within one app it works; from the sandbox to the host it does not cross.
start_client writer "${in_scope[@]}" "$TC/clip-client" --app-id writer --primary --copy "inside $$"
wait_for_window writer
focus_and_press writer
wait_log writer '^copied serial='
start_client sibling "${in_scope[@]}" "$TC/clip-client" --app-id sibling --primary --paste "$utf8"
wait_for_window sibling
# A sandboxed window gets the keyboard from the user only (input_router.c).
ctl focus sibling >/dev/null
wait_log sibling '^selection types='
ctl key click a >/dev/null
wait_for "the same app to paste its primary selection" pasted sibling "$(printf 'inside %s' $$ | wc -c)"
before=$(log_count hostread '^paste-none$')
focus_and_press hostread
wait_for "the host's paste to find nothing" log_count_above hostread '^paste-none$' "$before"
echo "primary selection: works within a side, never crosses by default"
