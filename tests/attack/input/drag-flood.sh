#!/usr/bin/env bash
# Attack: a sandboxed app asks again and again to start a drag without a source and
# without a held button, to grow cordon's memory: each is refused, and wlroots frees a
# drag only once it has started or its source goes, so every refused drag without a
# source stayed. Refused drags are freed (started and cancelled at once: such a drag
# enters only the app's own surfaces and carries nothing): cordon's resident memory stays
# flat over 20,000 of them (the sanitizer build: LeakSanitizer finds nothing at exit), and
# the app's window keeps the pointer.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/resources/lib.sh"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}

small_asan_quarantine
cordon_start
test_cgroup app-flatpak-org.example.Drags-1.scope
in_sandbox=("${IN_CGROUP[@]}" "$TEST_CGROUP")

# Two first floods of the same size put the allocator's pools in place and fill the
# sanitizer's quarantine: a leak grows memory again with the third, the pools do not.
for warm in warm1 warm2; do
	start_client "$warm" "${in_sandbox[@]}" "$THIEF" --app-id "$warm" --drag-flood 20000
	wait_for_window "$warm"
	wait_log "$warm" '^drag-flood 20000$'
	stop_client "$warm"
done
base=$(anon_kib)

start_client flood "${in_sandbox[@]}" "$THIEF" --app-id flood --width 1280 --height 720 \
	--drag-flood 20000
wait_for_window flood
ctl pointer move 640 360 >/dev/null
wait_log flood '^drag-flood 20000$'
now=$(anon_kib)
echo "cordon RssAnon: $base KiB before, $now KiB after 20000 refused drags" >&2
# The plain build measures it. The sanitizer build's allocator grows by some MiB with any
# flood (quarantine and pools): there the leak check is LeakSanitizer's at cordon's exit,
# which the harness fails on.
if ldd "$CORDON" | grep -q 'libasan'; then
	echo "sanitizer build: LeakSanitizer checks for the leak at exit" >&2
else
	((now - base < 2 * 1024)) || fail "cordon grew by $((now - base)) KiB for 20000 refused drags"
fi
# Each was refused: the transfer log (its last 256 entries) holds the refusals.
last=$(ctl --json transfers | jq -c 'max_by(.id)')
[[ "$(jq -r .decision <<<"$last")" == drag-refused-* ]] || fail "the last drag was not refused: $last"
(($(jq -r .id <<<"$last") >= 60000)) || fail "fewer than 60000 drags were refused: $last"
# The app still has the pointer: the refusals gave it back.
ctl pointer move 650 370 >/dev/null
wait_log flood '^pointer-enter$'
echo "20000 refused drags: cordon's memory flat"
