#!/usr/bin/env bash
# Attack: a sandboxed app asks to take every key, cordon's bindings included
# (zwp_keyboard_shortcuts_inhibit_manager_v1): the user could no longer close it, move
# the focus away or use the paste-across chord while it has the keyboard. Refused: the
# global is host-only (docs/security.md), the sandboxed app does not even see it.
# Positive control: a host app that takes every key (a virtual machine's viewer) gets
# Logo+Shift+q while it has the keyboard, and once another window has the keyboard the
# binding closes that window again.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
THIEF=${CORDON_INPUT_THIEF:?CORDON_INPUT_THIEF is not set}

test_cgroup app-flatpak-org.example.Keys-1.scope
in_sandbox=("${IN_CGROUP[@]}" "$TEST_CGROUP")
cordon_start

start_client keys "${in_sandbox[@]}" "$THIEF" --app-id keys --inhibit-shortcuts
wait_for_window keys
wait_log keys '^shortcuts-inhibit-unavailable$'
stop_client keys

# A host viewer with the keyboard takes Logo+Shift+q (q is key code 16) as its own.
start_client vm "$THIEF" --app-id vm --width 600 --height 400 --inhibit-shortcuts
wait_for_window vm
wait_for_focus vm
wait_log vm '^shortcuts-inhibited$'
ctl key super+shift+q >/dev/null
wait_log vm '^key code=16 '
# (window_json fails the test when the window is gone.)
window_json vm >/dev/null

# Another window takes the keyboard: the viewer's hold ends, and the binding closes that
# window, not the viewer.
start_client other "$THIEF" --app-id other --width 300 --height 200
wait_for_window other
wait_for_focus other
wait_log vm '^shortcuts-restored$'
ctl key super+shift+q >/dev/null
wait_for_window_gone other
window_json vm >/dev/null
echo "shortcuts inhibition: hidden from sandboxes; a host app's hold lasts while it has the keyboard"
