#!/usr/bin/env bash
# Attack: numbers an app chooses, through the real D-Bus door (xdg-desktop-portal, as a
# Flatpak-like app) and the Wayland door. PreparePrint with GTK page ranges of twenty
# digits (and the limits of long and uint32) once overflowed a signed long in cordon's
# shift from GTK's numbering to IPP's: undefined behaviour, an abort of the sanitizer
# build (docs/security.md). Each must be refused cleanly (an error to the app, no
# dialog), cordon must keep running, and a well-formed range still round-trips
# (positive control). Over Wayland the same numbers are a protocol error for that
# client only.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"

app=org.example.Numbers$$
cordon_test_init
cups_start PDF
dbus_portal_start "$app" --verbose
dialogs() {
	grep -c "auto: print dialog" "$CORDON_LOG" || true
}

printf 'print.printer=PDF\n' >"$ANSWER"
for ranges in 99999999999999999999 9223372036854775807 0-18446744073709551616 \
	4294967295 5-99999999999999999999; do
	portal_request PreparePrint --title "Numbers" --settings "page-ranges=$ranges"
	[[ "$RESPONSE_CODE" != 0 ]] ||
		fail "page-ranges=$ranges was accepted: $OUT"
	_alive "$CORDON_PID" || fail "cordon died on page-ranges=$ranges"
	grep -q "setting 'page-ranges': a page number is too large" "$CORDON_LOG" ||
		fail "no refusal logged for page-ranges=$ranges: $(tail -n 3 "$CORDON_LOG")"
	echo "page-ranges=$ranges: refused (response ${RESPONSE_CODE:-error $DBUS_ERROR})"
done
assert_eq 0 "$(dialogs)" "dialogs shown for hostile page ranges"

# Positive control: GTK's 0-based "1-2" is accepted as IPP's "2-3"; the user's choice of
# IPP pages 2-3 comes back as GTK's "1-2".
printf 'print.printer=PDF\nprint.page-ranges=2-3\n' >"$ANSWER"
portal_request PreparePrint --title "Numbers" --settings "page-ranges=1-2"
assert_eq 0 "$RESPONSE_CODE" "a well-formed page range ($OUT)"
grep -qx "setting page-ranges 1-2" <<<"$OUT" || fail "the page range did not come back: $OUT"
assert_eq 1 "$(dialogs)" "dialogs after the well-formed range"
echo "page-ranges=1-2: asked and answered, the range intact"

# The Wayland door: a protocol error for the client that sent it, nothing more.
rc=0
"${in_sandbox[@]}" "$CORDON_PORTAL" prepare-print --pages 99999999999999999999 \
	>/dev/null 2>"$TEST_TMP/wayland.err" || rc=$?
((rc != 0)) || fail "prepare-print --pages 99999999999999999999 was accepted"
grep -q "page number is too large" "$TEST_TMP/wayland.err" ||
	fail "no protocol error naming the page number: $(cat "$TEST_TMP/wayland.err")"
_alive "$CORDON_PID" || fail "cordon died on the Wayland door's page ranges"
assert_eq 1 "$(dialogs)" "dialogs after the Wayland door's page ranges"
ctl outputs >/dev/null || fail "cordon does not answer after the hostile numbers"
echo "ok: hostile page numbers refused at both doors, cordon intact"
