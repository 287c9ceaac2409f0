#!/usr/bin/env bash
# Pasting from a frozen app (docs/freeze.md): a sandboxed app copies, is minimized and
# frozen through its cgroup; a host client pastes, cordon thaws the app on demand, the
# text arrives whole, and the app, still hidden, is frozen again after the delay.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wl-paste >/dev/null || skip "wl-paste not found (Debian package wl-clipboard)"

test_cgroup "app-flatpak-org.example.Frozen-$$.scope"
scope=$TEST_CGROUP
[[ -e "$scope/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"
cordon_test_init
cat >"$TEST_TMP/cordon.ini" <<'INI'
[freeze]
delay = 500ms
INI
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
frozen() {
	grep -qx 'frozen 1' "$scope/cgroup.events"
}

text="copied before the freeze $$"
start_client writer "${IN_CGROUP[@]}" "$scope" "$TC/clip-client" --app-id writer --copy "$text"
wait_for_window writer
ctl focus writer >/dev/null
wait_for_focus writer
wait_input_trusted writer
ctl key click a >/dev/null
wait_log writer '^copied serial='

ctl minimize writer >/dev/null
wait_for "the hidden app to be frozen" frozen

# The host pastes: the source is asked to send, so its app is thawed first.
got=$(timeout 10 wl-paste -n) || fail "wl-paste from the frozen app failed (status $?)"
assert_eq "$text" "$got" "what the host pasted from the frozen app"
grep -q "clipboard read" "$CORDON_LOG" || fail "cordon did not log the thaw for the clipboard read"
log_has writer '^source-send type=' || fail "the app was never asked for its data"

# Still minimized: frozen again once the delay has passed since the paste.
wait_for "the app to be frozen again" frozen
echo "ok: pasted from a frozen app, which was thawed on demand and frozen again"
