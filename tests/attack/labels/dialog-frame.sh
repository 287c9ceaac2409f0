#!/usr/bin/env bash
# cordon's own dialogs look like no app window: a frame of yellow and black hatching
# (no label is ever hatched) and a header saying what only cordon knows, the requesting
# app's label colour and the time it asked. While the dialog is up, the secure attention
# key still opens the overlay, which lists the waiting request; neither that key nor the
# Escape that closes the overlay reaches the dialog (docs/security.md, "Labels").
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/labels/lib.sh"

builtin_ui_init
mkdir -p "$TEST_TMP/out"
cordon_start
portal_sandbox_init org.example.Framed

# The app's window, for its label colour.
start_client win "${in_sandbox[@]}" "$CORDON_TEST_PORTAL_CLIENT" window
wait_for "the app's window" _has_window_pid "$(client_pid win)"
color=$(window_json_by_pid "$(client_pid win)" | jq -r .label.color)
[[ "$color" =~ ^#[0-9a-f]{6}$ ]] || fail "the app's window has no label colour"

# The built-in dialog (720x520) is centred on the output: its own pixels at 280,100;
# cordon's frame 6 px around them and its 26 px header above.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the dialog" header_shown
shot="$TEST_TMP/dialog.png"
yellow=$(png_probe "$shot" count-color 245 194 17 8 274 620 732 6)
black=$(png_probe "$shot" count-color 26 26 26 8 274 620 732 6)
swatch=$(color_permille "$shot" "$(rgb "$color")" 2 288 80 14 14)
echo "frame band: $yellow yellow, $black black px; requester swatch $swatch per mille $color"
((yellow > 1000 && black > 1000)) || fail "the dialog has no hatched frame"
((swatch >= 990)) || fail "the dialog's header does not show the app's colour $color"

# The attention key over the dialog.
dialog_ready
ctl key click super+Escape >/dev/null
wait_for "the attention overlay" sh -c "$(printf '%q ' "$CORDONCTL") --json attention | jq -e .open"
ctl --json attention | jq -r '.lines[]' |
	grep -E "^file-chooser by org\.example\.Framed · flatpak, asked at [0-9]{2}:[0-9]{2}:[0-9]{2}$" \
		>/dev/null || fail "the overlay does not list the request: $(ctl --json attention)"
ctl key click Escape >/dev/null
wait_for "the overlay to close" sh -c "$(printf '%q ' "$CORDONCTL") --json attention | jq -e '.open | not'"
# The dialog saw neither key: its request still waits.
assert_eq 1 "$(ctl --json portal-requests | jq length)" "requests waiting after the overlay"
client_alive chooser || fail "the chooser was answered by a key meant for the overlay"
# Positive control: Escape now goes to the dialog and cancels it.
ctl key click Escape >/dev/null
wait_for "the dialog to be cancelled" not client_alive chooser
echo "dialog frame: hatched, requester colour $color; the attention key works over it"
