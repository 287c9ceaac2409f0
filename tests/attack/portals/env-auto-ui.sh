#!/usr/bin/env bash
# Attack: whatever starts cordon (a session script, a launcher, an app that can set the
# environment of a cordon it starts) puts CORDON_PORTAL_UI=auto and CORDON_PORTAL_AUTO
# naming a file of its own into cordon's environment, so that every portal request is
# answered from that file without asking anyone. Checked: the environment chooses
# nothing (cordon says it ignores it), a sandboxed app's file request shows the
# built-in dialog and waits for the user, and no file reaches the app until the user
# answers; Escape then cancels it. Positive control: the same answers file named by
# [portal] ui = auto in cordon.ini (configuration, as the tests write it) answers at
# once, and cordon says so loudly at start.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
host="$TEST_TMP/host"
mkdir -p "$host" "$TEST_TMP/out"
echo "the user's secret" >"$host/secret.txt"
printf '%s\n' "$host/secret.txt" >"$TEST_TMP/injected-answers"
export CORDON_PORTAL_UI=auto CORDON_PORTAL_AUTO="$TEST_TMP/injected-answers"
cordon_start --verbose
portal_sandbox_init org.example.Hostile

# The app asks for a file: answered from the injected file, its client would be done.
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == 1 ]]
}
shown_or_answered() {
	ctl --json portal-requests | jq -e 'any(.[]; .dialog_shown)' >/dev/null ||
		not client_alive chooser
}
start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the request's dialog to show, or the request to be answered" shown_or_answered
assert "the request was answered without the user (it no longer waits)" client_alive chooser
assert "the request waits for the user" pending
[[ ! -e "$TEST_TMP/out/secret.txt" ]] || fail "the app got the file without a dialog"
! grep -q "auto: request" "$CORDON_LOG" || fail "the auto UI answered a request"
dialog_ready
ctl key click Escape >/dev/null
wait_for "the app to hear the answer" not client_alive chooser
rc=0
wait "$(client_pid chooser)" || rc=$?
assert_eq 1 "$rc" "the request the user cancelled"
[[ ! -e "$TEST_TMP/out/secret.txt" ]] || fail "the app got the file after a cancel"
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" ||
	fail "the environment chose the dialog UI: $(grep 'Portal dialogs by' "$CORDON_LOG")"
grep -q "CORDON_PORTAL_UI in the environment is ignored" "$CORDON_LOG" ||
	fail "cordon did not say that it ignores CORDON_PORTAL_UI"
echo "environment: ignored; the dialog asked the user"

# Positive control: the configuration (what the tests write) does turn the auto UI on.
cordon_stop
unset CORDON_PORTAL_UI CORDON_PORTAL_AUTO
mkdir -p "$XDG_CONFIG_HOME/cordon"
printf '[portal]\nui = auto\nui-options = %s\n' "$TEST_TMP/injected-answers" \
	>"$XDG_CONFIG_HOME/cordon/cordon.ini"
cordon_start --verbose
grep -qF "[portal] ui = auto: every portal request is answered from $TEST_TMP/injected-answers" \
	"$CORDON_LOG" || fail "cordon did not say loudly that the auto UI answers"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "open-file through the configured auto UI ($err)"
assert_eq "the user's secret" "$(cat "$TEST_TMP/out/secret.txt")" "the file the answers name"
echo "configuration: [portal] ui = auto answers, and cordon says so"
