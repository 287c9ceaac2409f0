#!/usr/bin/env bash
# Attack: an X client of sandbox A looks for the windows of sandbox B and of the host's X
# apps (xdotool search, the way a keylogger or a screen grabber finds its target) and types
# into them with XTEST (xdotool type). Each sandbox has an X server of its own (docs/x11.md),
# so A's X server holds A's windows only: A finds none of the others and its keystrokes reach
# none of them. Controls: A finds its own window and its own XI2 listener sees what it typed
# (the probes work); two host X clients, which share the host's X server, do find each
# other's windows (where X servers are shared, the same probe succeeds).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"

x_cordon_start
app_a="$APP_ID.A"
app_b="$APP_ID.B"
x_sandbox a "$app_a"
x_sandbox b "$app_b"
x_bg a 'xlogo -title own-window-a'
x_bg b 'xlogo -title secret-window-b'
host=$HOST_X_DISPLAY
start_client host-logo env DISPLAY="$host" xlogo -title secret-window-host
wait_x_window "$app_a" own-window-a
wait_x_window "$app_b" secret-window-b
wait_x_window host secret-window-host

# The listeners that would see typed keys: one in each X server.
x_bg a 'xinput test-xi2 --root > /tmp/keys-a 2>&1'
x_bg b 'xinput test-xi2 --root > /tmp/keys-b 2>&1'
start_client host-keys env DISPLAY="$host" xinput test-xi2 --root

# Control: on the shared host X server one client finds another's window by its title.
found=$(DISPLAY="$host" xdotool search --name secret-window-host) ||
	fail "the control probe found nothing on the host's X server"
[[ -n "$found" ]] || fail "the control probe found nothing on the host's X server"

# The attack: every named window A's X server knows.
out=$(x_run a 'for w in $(xdotool search --name .); do xdotool getwindowname $w; done')
grep -qx own-window-a <<<"$out" || fail "the probe did not find A's own window (did it run?):
$out"
! grep -q secret-window <<<"$out" || fail "A found another X server's window:
$out"
for title in secret-window-b secret-window-host; do
	status=$(x_run a "xdotool search --name $title" | tail -n 1)
	assert_eq "status 1" "$status" "xdotool search --name $title in A (1: nothing found)"
done

# B's window ids, as B's X server numbers them: A tries them too (X ids are small and
# guessable). In A's X server they name nothing of B's.
b_ids=$(x_run b 'xdotool search --name secret-window-b' | grep -v '^status')
[[ -n "$b_ids" ]] || fail "B did not find its own window"
for id in $b_ids; do
	x_run a "xdotool type --window $id typed-from-a; xdotool windowactivate $id" >/dev/null
done
# And into whatever has the keyboard, as XTEST types for real.
x_run a 'xdotool type typedfroma' >/dev/null
# Control: A's own listener saw those keys (xdotool type reaches an X server: its own).
raw_presses() {
	x_run "$1" "grep -c 'RawKeyPress' $2 || true" | head -n 1
}
a_keys() {
	(($(raw_presses a /tmp/keys-a) >= 9))
}
wait_for "A's listener to see the keys A typed" a_keys
# Everything A sent has been handled by its X server; nothing went to B's or the host's.
assert_eq 0 "$(raw_presses b /tmp/keys-b)" "key events in B's X server while A typed"
assert_eq 0 "$(grep -c RawKeyPress "$TEST_TMP/host-keys.log" || true)" \
	"key events in the host's X server while A typed"
echo "ok: sandbox A neither finds nor types into the windows of sandbox B or of the host"
