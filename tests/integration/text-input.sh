#!/usr/bin/env bash
# text-input-v3 and input-method-v2 with GTK 4: a host input method (the test's, as fcitx5
# or ibus would be) is activated for the GTK entry that has the keyboard, hears its state
# and writes into it; with a keyboard grab it gets the keys typed into the entry instead of
# the app, and the app gets them again once the grab is gone. A second input method is told
# it is unavailable.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
python3 -c 'import gi; gi.require_version("Gtk", "4.0")' 2>/dev/null ||
	skip "GTK 4 for python3 is not installed (Debian packages python3-gi, gir1.2-gtk-4.0)"
IME="$TC/input-method-client"

cordon_start
start_client ime "$IME" --commit "héllo wörld" --popup
wait_log ime '^ready$'
start_client second "$IME"
wait_log second '^unavailable$'
stop_client second

start_client entry env GDK_BACKEND=wayland python3 "$CORDON_SOURCE_ROOT/tests/integration/gtk4-entry.py"
wait_log entry '^mapped$'
wait_for_focus org.example.Typing
wait_log ime '^activate$'
wait_log entry '^text héllo wörld$'
wait_log ime '^surrounding text=héllo wörld '
echo "the input method was activated for the focused GTK entry and wrote into it"

# Its candidate window shows under the entry's cursor, inside the GTK window's column.
wait_log ime '^popup-rectangle '
read -r x y w h <<<"$(geometry org.example.Typing)"
shot="$TEST_TMP/popup.png"
screenshot HEADLESS-1 "$shot"
teal=$(png_probe "$shot" count-color 0 192 192 2 "$x" "$y" "$w" $((h + 60)))
assert_eq 4800 "$teal" "candidate window pixels (120x40) over and under the entry"
echo "the candidate window is drawn by the entry ($(log_last ime '^popup-rectangle'))"

# The user clicks elsewhere: the input method is deactivated.
start_client other "$TC/surface-client" --app-id org.example.Other
wait_for_window org.example.Other
click_window org.example.Other
wait_for_focus org.example.Other
wait_log ime '^deactivate$'
screenshot HEADLESS-1 "$shot"
assert_eq 0 "$(png_probe "$shot" count-color 0 192 192 2 0 0 1280 720)" \
	"candidate window pixels once the entry lost the keyboard"
stop_client ime

# An input method with a keyboard grab takes the keys typed into the active entry.
click_window org.example.Typing
wait_for_focus org.example.Typing
start_client grab "$IME" --grab
wait_log grab '^activate$'
wait_log grab '^grab-keymap$'
ctl key click a >/dev/null
wait_log grab '^grab-key code=30 state=1$'
wait_log grab '^grab-key code=30 state=0$'
not log_has entry '^text héllo wörlda$' || fail "the app got a key the input method had grabbed"
stop_client grab
ctl key click b >/dev/null
wait_log entry '^text héllo wörldb$'
echo "a grabbing input method got the key; without it the app gets them again"
