#!/usr/bin/env bash
# Attack: an X client of sandbox A reads the clipboard (xclip -o), as a clipboard sniffer
# polls it. wlroots' X window manager mirrors its seat's selection into X at all times; cordon
# gives a sandbox's X server a private seat instead, and mirrors onto it only what the
# mediation offers A (docs/mediation.md): nothing of the host's or sandbox B's clipboard until
# the user presses a key or button in one of A's windows, and only while A has the keyboard.
# Also: an X client of A that takes the clipboard without the user's action (no focus, no
# press) does not become the clipboard of the host or of other sandboxes, while X clients of
# A share it among themselves as on any X server. Controls: after a press in A, xclip reads
# the host's text, then B's (copied after a press in B), through cordon's proxy, logged.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

x_cordon_start
app_a="$APP_ID.A"
app_b="$APP_ID.B"
x_sandbox a "$app_a"
x_sandbox b "$app_b"
x_bg a 'xlogo -title window-a'
x_bg b 'xlogo -title window-b'
start_client host-window "$TC/key-client" --app-id host-window
wait_x_window "$app_a" window-a
wait_x_window "$app_b" window-b
wait_for_window host-window

# transfer_logged JQ_CONDITION: some entry of `cordonctl transfers` satisfies it.
transfer_logged() {
	ctl --json transfers | jq -e "any(.[]; $1)" >/dev/null
}
# read_clipboard SANDBOX: what xclip reads there (empty when there is nothing to read).
read_clipboard() {
	x_run "$1" 'timeout 5 xclip -o -selection clipboard 2>/dev/null' | sed '$d'
}

host_text="host secret $$"
start_client copy wl-copy --foreground -- "$host_text"
host_pastes() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "the host to hold its copied text" host_pastes "$host_text"

# 1. Nothing of the host's clipboard in A: not while A's windows lack the keyboard, nor once
# a window of A has it without a press (focus is not consent).
assert_eq "" "$(read_clipboard a)" "what A's xclip read with no window of A focused"
id_a=$(x_window_of "$app_a" window-a | jq -r .id)
ctl focus "$id_a" >/dev/null
wait_for "A's window to have focus" _x_focused "$id_a"
assert_eq "" "$(read_clipboard a)" "what A's xclip read with A focused but no press in it"

# Control: after a press in A's window, A reads the host's text, through cordon.
x_focus_press "$app_a" window-a
assert_eq "$host_text" "$(read_clipboard a)" "what A's xclip read after a press in A"
wait_for "the transfer to A to be logged as proxied" transfer_logged \
	".source == \"host\" and (.destination | startswith(\"cordon:$app_a/\")) and
	 .decision == \"proxied\""
# The primary selection does not cross by default (docs/mediation.md), not even after a
# press: the host's primary stays out of A's X server.
start_client copy-primary wl-copy --primary --foreground -- "host primary $$"
host_primary() {
	[[ "$(timeout 5 wl-paste -n --primary)" == "host primary $$" ]]
}
ctl focus host-window >/dev/null
wait_for_focus host-window
wait_for "the host to hold its primary selection" host_primary
x_focus_press "$app_a" window-a
assert_eq "$host_text" "$(read_clipboard a)" "A's clipboard after the press (the control)"
assert_eq "" "$(x_run a 'timeout 5 xclip -o -selection primary 2>/dev/null' | sed '$d')" \
	"what A's xclip read of the host's primary selection"
# Focus leaves A: the offer goes with it.
ctl focus host-window >/dev/null
wait_for_focus host-window
assert_eq "" "$(read_clipboard a)" "what A's xclip read once the focus left A"

# 2. An X client of A copies while A has no focus: X clients of A share it...
a_text="a private $$"
x_bg a "printf %s '$a_text' | xclip -i -selection clipboard"
a_shares() {
	[[ "$(read_clipboard a)" == "$(cat "$TEST_TMP/a-expected")" ]]
}
printf %s "$a_text" >"$TEST_TMP/a-expected"
wait_for "a second X client of A to read what the first copied" a_shares
# ...but it is no one else's clipboard (wlroots' window manager offers no selection while
# none of its windows has the keyboard), and the host keeps its own.
assert "the host's clipboard is still its own" host_pastes "$host_text"
# Once A has the keyboard but no press since it got it, a new copy is offered to the
# mediation, which refuses it as it refuses a Wayland client's set_selection without input.
ctl focus "$id_a" >/dev/null
wait_for "A's window to have focus" _x_focused "$id_a"
a_text="a private again $$"
printf %s "$a_text" >"$TEST_TMP/a-expected"
x_bg a "printf %s '$a_text' | xclip -i -selection clipboard"
wait_for "a second X client of A to read the new copy" a_shares
wait_for "A's refused copy to be logged" transfer_logged \
	"(.source | startswith(\"cordon:$app_a/\")) and .decision == \"set-refused-deny-no-input\""
# (While A has the keyboard without a press, the seat offers nothing at all: back on the host.)
ctl focus host-window >/dev/null
wait_for_focus host-window
assert "the host's clipboard is still its own" host_pastes "$host_text"

# 3. B copies after a press in its window: accepted, B's clipboard now. A cannot read it
# until the user presses in A.
x_focus_press "$app_b" window-b
b_text="b secret $$"
x_bg b "printf %s '$b_text' | xclip -i -selection clipboard"
host_has_b() {
	[[ "$(timeout 5 wl-paste -n)" == "$b_text" ]]
}
wait_for "the host to see B's copy (it was made with a press in B)" host_has_b
ctl focus "$id_a" >/dev/null
wait_for "A's window to have focus" _x_focused "$id_a"
# (What A reads is still its own X client's copy: X clients of A keep sharing theirs.)
got=$(read_clipboard a)
[[ "$got" != *"$b_text"* ]] || fail "A's xclip read B's copy without a press in A"
assert_eq "$a_text" "$got" "what A's xclip read without a press in A"
x_focus_press "$app_a" window-a
assert_eq "$b_text" "$(read_clipboard a)" "what A's xclip read of B's copy after a press"
wait_for "the transfer from B to A to be logged as proxied" transfer_logged \
	"(.source | startswith(\"cordon:$app_b/\")) and
	 (.destination | startswith(\"cordon:$app_a/\")) and .decision == \"proxied\""
echo "ok: X clients of a sandbox read the host's or another sandbox's clipboard only after a press in the sandbox's window"
