#!/usr/bin/env bash
# Modifiers typed into a portal dialog stay with it, like its keys: the app below
# does not learn when the user holds Shift or toggles Caps Lock in the dialog. When
# the dialog gives the keyboard back (answered, or closed because its caller left),
# the app is sent the modifiers as they are then, so its state is not stale.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
mkdir -p "$TEST_TMP/out"
cordon_start --verbose
portal_sandbox_init org.example.Modifiers

start_client app "$CORDON_TEST_CLIENTS/key-client" --modifiers --app-id under --width 1280 \
	--height 720
wait_for_window under
wait_for_focus under

# The app's wl_keyboard.modifiers events, one line each, and how many there are.
modifier_lines() {
	grep "^modifiers " "$TEST_TMP/app.log" || true
}
modifier_count() {
	modifier_lines | wc -l
}
more_modifiers_than() {
	(($(modifier_count) > $1))
}
# The Nth (1-based) modifiers event.
modifier_line() {
	modifier_lines | sed -n "$1p"
}
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}

# Without a dialog the app follows Shift: the client logs what it is sent.
before=$(modifier_count)
ctl key press Shift_L >/dev/null
wait_for "the app to see Shift" more_modifiers_than "$before"
assert_eq "modifiers depressed=1 latched=0 locked=0 group=0" "$(modifier_line $((before + 1)))" \
	"Shift held, without a dialog"
ctl key release Shift_L >/dev/null
wait_for "the app to see Shift released" more_modifiers_than $((before + 1))

# Shift and Caps Lock typed into the dialog; Escape closes it. Events reach the app in
# order, so whatever leaked arrives before what it is sent once the dialog is gone.
start_client chooser1 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the first dialog" header_shown
dialog_ready
before=$(modifier_count)
ctl key press Shift_L >/dev/null
ctl key release Shift_L >/dev/null
ctl key click Caps_Lock >/dev/null
ctl key click Escape >/dev/null
wait_for "the first dialog to close" pending 0
wait_for "the app's modifiers after the dialog" more_modifiers_than "$before"
assert_eq "modifiers depressed=0 latched=0 locked=2 group=0" "$(modifier_line $((before + 1)))" \
	"the first modifiers the app gets: Caps Lock on, sent after the dialog, nothing before"
assert_eq "$((before + 1))" "$(modifier_count)" "one modifiers event for the whole dialog"

# A dialog closed by its caller leaving: Shift, still held, is what the app is sent.
start_client chooser2 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the second dialog" header_shown
dialog_ready
before=$(modifier_count)
ctl key press Shift_L >/dev/null
stop_client chooser2
wait_for "the second dialog to close" pending 0
wait_for "the app's modifiers after the second dialog" more_modifiers_than "$before"
assert_eq "modifiers depressed=1 latched=0 locked=2 group=0" "$(modifier_line $((before + 1)))" \
	"Shift held as the dialog closed"
# Its release was pressed into the dialog, but a modifier's state is the app's again.
ctl key release Shift_L >/dev/null
wait_for "the app to see Shift released" more_modifiers_than $((before + 1))
assert_eq "modifiers depressed=0 latched=0 locked=2 group=0" "$(modifier_line $((before + 2)))" \
	"Shift released after the dialog"
! grep -q "key sym=\(Caps_Lock\|Escape\)" "$TEST_TMP/app.log" ||
	fail "the app saw keys typed into a dialog"

# Focus moving to another app while a dialog has the keyboard: Shift and a letter are
# being typed into the dialog, so that app enters with no keys held and no modifiers, and
# is sent the real ones once the dialog is gone.
start_client other "$CORDON_TEST_CLIENTS/key-client" --modifiers --app-id other --width 640 \
	--height 480
wait_for_window other
ctl focus under >/dev/null
wait_for_focus under
start_client chooser3 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the third dialog" header_shown
dialog_ready
ctl key press Shift_L >/dev/null
ctl key press a >/dev/null
entered=$(grep -c '^keys-held ' "$TEST_TMP/other.log" || true)
ctl focus other >/dev/null
other_entered() {
	(($(grep -c '^keys-held ' "$TEST_TMP/other.log") > entered))
}
wait_for "the other app to get the keyboard" other_entered
assert_eq "keys-held count=0" "$(grep '^keys-held ' "$TEST_TMP/other.log" | tail -n 1)" \
	"keys held in the other app's enter, while Shift and a are down in the dialog"
other_mods() {
	grep '^modifiers ' "$TEST_TMP/other.log" || true
}
other_sent=$(other_mods | wc -l)
assert_eq "modifiers depressed=0 latched=0 locked=0 group=0" "$(other_mods | tail -n 1)" \
	"the other app's modifiers on enter, while the dialog has the keyboard"
ctl key release a >/dev/null
ctl key release Shift_L >/dev/null
ctl key click Escape >/dev/null
wait_for "the third dialog to close" pending 0
more_other_mods() {
	(($(other_mods | wc -l) > other_sent))
}
wait_for "the other app's modifiers after the dialog" more_other_mods
assert_eq "modifiers depressed=0 latched=0 locked=2 group=0" "$(other_mods | tail -n 1)" \
	"the other app's modifiers once the dialog is gone: Caps Lock on"
