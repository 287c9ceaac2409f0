#!/usr/bin/env bash
# The built-in print dialog with a real cupsd: it shows above the app's window and
# names the app from its tag, offers the queue CUPS has, and what the user picks
# with the keyboard (two copies, page 2) is what reaches the printer; typed keys stay
# out of the app below; Escape and a click on Cancel cancel, a click on Print prints.
# CORDON_PORTAL_SCREENSHOT=FILE keeps a screenshot of the dialog (docs/).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"

for tool in gs pdfinfo pdftotext lpstat; do
	command -v "$tool" >/dev/null || skip "no $tool (ghostscript, poppler-utils, cups-client)"
done
cordon_test_init
export XDG_STATE_HOME="$TEST_TMP/state"
cups_start PDF
cordon_start --verbose
portal_sandbox_init org.example.PrintDialog
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI is not in use"
docs="$TEST_TMP/docs"
mkdir -p "$docs"
cat >"$docs/doc.ps" <<'EOF'
%!PS
/Helvetica findfont 24 scalefont setfont
1 1 3 { /n exch def 72 700 moveto (cordon print test page ) show n 3 string cvs show showpage } for
EOF
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$docs/doc.pdf" "$docs/doc.ps"

start_client app "$CORDON_TEST_CLIENTS/key-client" --app-id under --width 1280 --height 720
wait_for_window under
wait_for_focus under

# The 600x255 dialog (DejaVu Sans 11) is centred on the 1280x720 output: its header
# band at 340,232; Cancel and Print at 696 and 818, 450 down, 110x25.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 340 232 600 5) > 990))
}
CANCEL_X=750 PRINT_X=872 BUTTON_Y=462
finished() {
	wait_for "$1 to finish" not client_alive "$1"
}
# printing NAME ARGS...: cordon-portal print in the sandbox, its dialog shown.
printing() {
	local name=$1
	shift
	start_client "$name" "${in_sandbox[@]}" "$CORDON_PORTAL" "$@"
	wait_for "the $name dialog" header_shown
	dialog_ready
}
pdf_of() {
	find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f | head -1
}
has_pdf() {
	[[ -n "$(pdf_of "$1")" ]] && pdfinfo "$(pdf_of "$1")" >/dev/null 2>&1
}

printing print1 print --title "Quarterly report" "$docs/doc.pdf"
if [[ -n "${CORDON_PORTAL_SCREENSHOT:-}" ]]; then
	cp "$TEST_TMP/dialog.png" "$CORDON_PORTAL_SCREENSHOT"
fi
grep -q "Portal print request [0-9a-f]\{32\} from pid [0-9]* (flatpak org.example.PrintDialog)" \
	"$CORDON_LOG" || fail "cordon did not know the caller by its tag"
# Copies: Down, Right (2). Pages: Down, "2". Then Return prints.
ctl key click Down Right Down 2 Return >/dev/null
finished print1
job=$(cat "$TEST_TMP/print1.log")
[[ "$job" =~ ^[0-9]+$ ]] || fail "print did not report a job id: '$job'"
wait_for "cups-pdf's output of job $job" has_pdf "$job"
pdf=$(pdf_of "$job")
assert_eq 1 "$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')" "pages printed of the range 2"
assert_eq "cordon print test page 2" "$(pdftotext "$pdf" - | tr -s ' \n\f' ' ' | sed 's/ *$//')" \
	"the text printed"
grep -q "\[Job $job\] argv\[4\]=\"2\"" "$TEST_TMP/cups/log/error_log" ||
	fail "job $job did not reach the printer with the 2 copies chosen"
! grep -q "key sym=\(Down\|Right\|Return\)" "$TEST_TMP/app.log" ||
	fail "the app under the dialog saw the keys typed into it"

# Escape cancels; nothing is printed.
jobs_before=$(lpstat -W all -o | wc -l)
printing print2 print "$docs/doc.pdf"
ctl key click Escape >/dev/null
finished print2
assert_eq "cordon-portal: cancelled" "$(cat "$TEST_TMP/print2.log")" "Escape"
assert_eq "$jobs_before" "$(lpstat -W all -o | wc -l)" "jobs after a cancel"

# The pointer: a click on Cancel, then one on Print.
printing print3 print "$docs/doc.pdf"
ctl pointer move "$CANCEL_X" "$BUTTON_Y" >/dev/null
ctl pointer button left click >/dev/null
finished print3
assert_eq "cordon-portal: cancelled" "$(cat "$TEST_TMP/print3.log")" "a click on Cancel"
printing print4 print "$docs/doc.pdf"
ctl pointer move "$PRINT_X" "$BUTTON_Y" >/dev/null
ctl pointer button left click >/dev/null
finished print4
job=$(cat "$TEST_TMP/print4.log")
[[ "$job" =~ ^[0-9]+$ ]] || fail "a click on Print did not print: '$job'"
wait_for "cups-pdf's output of job $job" has_pdf "$job"
assert_eq 3 "$(pdfinfo "$(pdf_of "$job")" | awk '/^Pages:/ { print $2 }')" "pages of a whole print"

cordon_stop
