#!/usr/bin/env bash
# Attack (docs/mediation.md, SECURITY-NOTES "no cross-sandbox offer without a user action"):
# the user typed once in a sandboxed app, and it keeps the keyboard focus while a host
# program copies something new (a password manager's shortcut, a clipboard sync). The app
# reads every offer the moment it arrives, as a clipboard snooper does. Its press consented
# to what the clipboard held then, not to what comes after: the new copy is not offered to it
# until its next press, and if the user goes to another window first, never. Found as a race
# by clients-mediation-random (a host's copy landing after the focus had moved). Control:
# the app's next press brings the offer, and the app reads the new text (the probe reads).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

test_cgroup app-flatpak-org.example.Snoop-1.scope
snoop_scope=$TEST_CGROUP
cordon_start

start_client snoop "${IN_CGROUP[@]}" "$snoop_scope" "$TC/clip-client" --app-id snoop \
	--paste text/plain --paste-on-offer --out "$TEST_TMP/snooped"
start_client host "$TC/focus-client" --app-id host-window
wait_for_window snoop
wait_for_window host-window

# What the clipboard holds when the user types in the app: offered at that press, read.
first="what the user meant to paste $$"
start_client copy-first wl-copy --foreground -- "$first"
host_has() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "the host's first copy" host_has "$first"
ctl focus snoop >/dev/null
wait_for_focus snoop
wait_input_trusted snoop
ctl key click a >/dev/null
wait_for "the app to read the offer its press brought" grep -qF "$first" "$TEST_TMP/snooped"
offers_before=$(log_count snoop '^selection types=')

# The app keeps the focus; a host program copies a secret. The new copy reaches the seat as
# a selection event to the focused app (its old offer withdrawn, or the new one made).
secret="a secret copied after the press $$"
events_before=$(log_count snoop '^selection ')
start_client copy-secret wl-copy --foreground -- "$secret"
wait_for "the host's new copy to reach the seat" log_count_above snoop '^selection ' "$events_before"
# cordonctl says so, and why.
ctl selection | grep -q "^clipboard host .* -> flatpak:org.example.Snoop/1: none (no-user-action)$" ||
	fail "cordonctl selection: $(ctl selection)"
# The user goes to another window: the app's keyboard-leave comes after any offer cordon
# made it before (events reach a client in order), so its log up to there is complete.
leaves_before=$(log_count snoop '^keyboard-leave$')
ctl focus host-window >/dev/null
wait_for "the app to lose the keyboard" log_count_above snoop '^keyboard-leave$' "$leaves_before"
# The host's window sees the new copy: it was made.
wait_for "the host's new copy" host_has "$secret"
assert_eq "$offers_before" "$(log_count snoop '^selection types=')" \
	"offers to the app after the press, with no press since the host's new copy"
! grep -qF "$secret" "$TEST_TMP/snooped" || fail "the app read the host's new copy without a press"
echo "refused: a copy made after the app's last press is not offered to it"

# Control: back in the app, its next press brings the new copy, which it reads.
ctl focus snoop >/dev/null
wait_for_focus snoop
wait_input_trusted snoop
ctl key click a >/dev/null
wait_for "the app to read the new copy at its next press" grep -qF "$secret" "$TEST_TMP/snooped"
assert_eq "host proxied mediated" \
	"$(ctl --json selection | jq -r '.[0] | "\(.source) \(.offer) \(.reason)"')" \
	"the clipboard's offer to the app after its press"
echo "control: the app's next press brings the new copy (the probe reads what it is offered)"
