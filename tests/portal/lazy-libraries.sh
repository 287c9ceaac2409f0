#!/usr/bin/env bash
# libcups and fcft are loaded when they are first needed, not at start: a started
# cordon maps neither (nor what they bring: GnuTLS, fontconfig); a print request maps
# libcups (it fails here, with no CUPS server), the first built-in dialog maps fcft.
# A library that is there but lacks a function cordon calls fails that request with
# the reason, and unloads again; cordon goes on.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

builtin_ui_init
echo "notes" >"$HOME/notes.txt"
printf '%%!PS\nshowpage\n' >"$TEST_TMP/doc.ps"
# A socket nobody listens on: print requests fail after libcups is loaded.
export CUPS_SERVER="$TEST_TMP/no-cupsd.sock"

# mapped FILE: cordon has a file of that name mapped (a shared library it loaded).
mapped() {
	grep -qF "/$1" "/proc/$CORDON_PID/maps"
}
# The 720x520 dialog is centred on the 1280x720 output: its header band at 280,100.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 280 100 720 8) > 990))
}
finished() {
	wait_for "$1 to finish" not client_alive "$1"
}

cordon_start
portal_sandbox_init org.example.Lazy
for library in libcups.so.2 libgnutls.so.30 libfcft.so.4 libfontconfig.so.1; do
	! mapped "$library" || fail "$library is mapped, yet nothing was printed or shown"
done

portal print "$TEST_TMP/doc.ps"
assert_eq 3 "$rc" "print without a CUPS server"
[[ "$err" == *"cannot be reached"* ]] || fail "without a CUPS server the error says: $err"
mapped libcups.so.2 || fail "libcups is not mapped after a print request"
! mapped libfcft.so.4 || fail "fcft is mapped, but no dialog was shown"

start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP"
wait_for "the built-in file chooser" header_shown
dialog_ready
mapped libfcft.so.4 || fail "fcft is not mapped while a dialog shows text"
ctl key click Escape >/dev/null
finished chooser
cordon_stop

# The same with libraries that lack every function cordon wants.
fake="$TEST_TMP/fake-libs"
mkdir -p "$fake"
ln -s "$CORDON_TEST_TOOLS/libcordon-test-empty.so" "$fake/libcups.so.2"
ln -s "$CORDON_TEST_TOOLS/libcordon-test-empty.so" "$fake/libfcft.so.4"
LD_LIBRARY_PATH="$fake" cordon_start

portal print "$TEST_TMP/doc.ps"
assert_eq 3 "$rc" "print with a libcups that lacks its functions"
[[ "$err" == *"printing is not available"*"libcups.so.2: undefined symbol: cups"* ]] ||
	fail "with a libcups that lacks its functions the error says: $err"
! mapped libcordon-test-empty.so || fail "the wanting libcups stayed loaded"

portal open-file --output "$TEST_TMP"
[[ "$err" == *"no dialog can be shown"* ]] || fail "without fcft the file chooser says: $err"
grep -q "Cannot load fcft, .*libfcft.so.4: undefined symbol: fcft_" "$CORDON_LOG" ||
	fail "cordon's log does not say why fcft is missing"
! mapped libcordon-test-empty.so || fail "the wanting fcft stayed loaded"
ctl outputs >/dev/null || fail "cordon did not survive the libraries it could not use"
cordon_stop
