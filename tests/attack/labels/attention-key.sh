#!/usr/bin/env bash
# Attack: a sandboxed keylogger that has the keyboard inhibits cordon's shortcuts
# (keyboard-shortcuts-inhibit, which its policy grants it: the worst case) to catch the
# secure attention key, and goes fullscreen to
# hide its label. The key never reaches it, nor does anything typed while the overlay is
# open; the overlay names the window's real owner from its tag, whatever the window
# calls itself; the label shows on entering fullscreen and again on the key
# (docs/security.md, "Labels"). Positive control: with the inhibitor
# active, an ordinary binding (Logo+m) goes to the app, as the protocol promises.
# CORDON_ATTENTION_SCREENSHOT=FILE keeps a screenshot of the overlay (docs/).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"
SPOOFER=${CORDON_LABEL_SPOOFER:?CORDON_LABEL_SPOOFER is not set}

test_cgroup app-flatpak-org.example.Keylogger-1.scope
cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Keylogger]
globals = zwp_keyboard_shortcuts_inhibit_manager_v1
INI
cordon_start --policy "$TEST_TMP/policy.ini"
# evdev codes: Escape 1, m 50, a 30.
escape_pressed='^key code=1 state=pressed$'

start_client logger "${IN_CGROUP[@]}" "$TEST_CGROUP" "$SPOOFER" --app-id org.gnome.Terminal \
	--title "cordon" --inhibit-shortcuts --color ff303030
wait_for_window org.gnome.Terminal
wait_input_trusted org.gnome.Terminal
click_window org.gnome.Terminal
wait_log logger '^keyboard-enter$'
wait_log logger '^inhibitor-active$'

# The inhibitor works: Logo+m is the app's, and the window stays shown.
ctl key click super+m >/dev/null
wait_log logger '^key code=50 state=pressed$'
window_is org.gnome.Terminal '.minimized == false' || fail "Logo+m minimized the inhibiting window"

# The attention key: not the app's, and the overlay names the owner by its tag.
ctl key click super+Escape >/dev/null
wait_for "the attention overlay" sh -c "$(printf '%q ' "$CORDONCTL") --json attention | jq -e .open"
lines=$(ctl --json attention | jq -r '.lines[]')
grep -Fx "owner: sandbox org.example.Keylogger · flatpak" <<<"$lines" >/dev/null ||
	fail "the overlay does not name the owner: $lines"
grep -F 'the app calls it: "cordon" (app_id "org.gnome.Terminal")' <<<"$lines" >/dev/null ||
	fail "the overlay does not show the app's claims as its own words: $lines"
# It is on screen, in cordon's trusted frame (yellow hatching), above the app.
shot="$TEST_TMP/overlay.png"
overlay_drawn() {
	screenshot HEADLESS-1 "$shot"
	(($(png_probe "$shot" count-color 245 194 17 8 0 0 1280 720) > 500))
}
wait_for "the overlay's frame on screen" overlay_drawn
if [[ -n "${CORDON_ATTENTION_SCREENSHOT:-}" ]]; then
	cp "$shot" "$CORDON_ATTENTION_SCREENSHOT"
fi
# Typed while it is open: nobody's. Escape closes it, and is not the app's either.
ctl key click a >/dev/null
ctl key click Escape >/dev/null
wait_for "the overlay to close" sh -c "$(printf '%q ' "$CORDONCTL") --json attention | jq -e '.open | not'"
ctl key click m >/dev/null
wait_for "m typed after the overlay to reach the app" \
	log_count_above logger '^key code=50 state=pressed$' 1
! log_has logger "$escape_pressed" || fail "the app saw Escape: $(cat "$TEST_TMP/logger.log")"
! log_has logger '^key code=30 ' || fail "the app saw a key typed into the overlay"
stop_client logger

# Fullscreen: the label shows on entry, goes after a moment, comes back on the key.
start_client full "${IN_CGROUP[@]}" "$TEST_CGROUP" "$SPOOFER" --app-id full --fullscreen \
	--inhibit-shortcuts --color ff303030
wait_for_window full
wait_for "the window to be fullscreen" window_is full '.fullscreen'
color=$(window_json full | jq -r .label.color)
top_strip() {
	screenshot HEADLESS-1 "$shot"
	color_permille "$shot" "$(rgb "$color")" 2 0 0 1280 22
}
label_on_top() { (($(top_strip) >= 500)); }
no_label_on_top() { (($(top_strip) == 0)); }
wait_for "the label on entering fullscreen" label_on_top
wait_for "the label to give way to the app" no_label_on_top
window_is full '.label.shown == false' || fail "the label is reported shown: $(window_json full)"
wait_input_trusted full
click_window full
wait_log full '^keyboard-enter$'
ctl key click super+Escape >/dev/null
wait_for "the label on the attention key" label_on_top
! log_has full "$escape_pressed" || fail "the fullscreen app saw Escape"
ctl key click Escape >/dev/null
echo "attention key: never the app's (inhibitor, overlay, fullscreen); overlay names the owner"
