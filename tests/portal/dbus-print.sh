#!/usr/bin/env bash
# Printing through the real xdg-desktop-portal into a real cupsd with cups-pdf: a
# Flatpak-like app calls org.freedesktop.portal.Print.PreparePrint (cordon's dialog, the
# auto UI choosing the PDF queue and two copies; the GtkPrintSettings come back with a
# token), then Print with its PDF's fd and the token (no second dialog): cups-pdf writes
# the document, pages and text intact. A print without a token asks; a denied app gets
# response 2 and no job.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/dbus-lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"
for tool in gs pdfinfo pdftotext; do
	command -v "$tool" >/dev/null || skip "no $tool (ghostscript, poppler-utils)"
done

app=org.example.Flat
cordon_test_init
cups_start PDF
dbus_portal_start "$app" --verbose
docs="$TEST_TMP/docs"
mkdir -p "$docs"
cat >"$docs/doc.ps" <<'PS'
%!PS
/Helvetica findfont 24 scalefont setfont
1 1 3 { /n exch def 72 700 moveto (cordon dbus print page ) show n 3 string cvs show showpage } for
PS
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$docs/doc.pdf" "$docs/doc.ps"

dialogs() {
	grep -c "auto: print dialog" "$CORDON_LOG" || true
}
# The PDF cups-pdf wrote for the newest job cordon logged.
last_job() {
	grep -o "Print request [0-9a-f]*: job [0-9]* on PDF" "$CORDON_LOG" | tail -n 1 |
		awk '{ print $5 }'
}
_has_pdf() {
	[[ -n "$(find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f)" ]] &&
		pdfinfo "$(find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f | head -n 1)" >/dev/null 2>&1
}
job_pdf() {
	wait_for "cups-pdf's output of job $1" _has_pdf "$1"
	find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f | head -n 1
}

# PreparePrint: the dialog, the user's choice back as GtkPrintSettings, a token.
printf 'print.printer=PDF\nprint.copies=2\n' >"$ANSWER"
portal_request PreparePrint --title "A report" --settings "n-copies=1,duplex=simplex"
assert_eq 0 "$RESPONSE_CODE" "PreparePrint's response ($OUT)"
grep -qx "setting printer PDF" <<<"$OUT" || fail "the chosen printer did not come back: $OUT"
grep -qx "setting n-copies 2" <<<"$OUT" || fail "the chosen copies did not come back: $OUT"
token=$(sed -n 's/^token //p' <<<"$OUT")
[[ -n "$token" && "$token" != 0 ]] || fail "no token: $OUT"
assert_eq 1 "$(dialogs)" "dialogs after the prepare"
echo "PreparePrint: the user's settings and token $token"

# Print with the token: no dialog, the job in cups-pdf.
portal_request Print --title "A report" --document "$docs/doc.pdf" --token "$token"
assert_eq 0 "$RESPONSE_CODE" "Print's response ($OUT)"
assert_eq 1 "$(dialogs)" "dialogs after a print with the token"
job=$(last_job)
[[ -n "$job" ]] || fail "no job was logged"
pdf=$(job_pdf "$job")
assert_eq 3 "$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')" "pages of the printed PDF"
pdftotext "$pdf" - | grep -q "cordon dbus print page 3" || fail "the text did not reach the PDF"
echo "Print with the token: job $job in cups-pdf, 3 pages, no second dialog"

# The token is used up: the same one again asks.
printf 'print.printer=PDF\n' >"$ANSWER"
portal_request Print --document "$docs/doc.pdf" --token "$token"
assert_eq 0 "$RESPONSE_CODE" "a print with a used token"
assert_eq 2 "$(dialogs)" "dialogs after a used token"
job_pdf "$(last_job)" >/dev/null
echo "a used token: the dialog again"

# Cancel in the dialog: response 1.
printf '\n' >"$ANSWER"
: >"$ANSWER"
portal_request Print --document "$docs/doc.pdf"
assert_eq 1 "$RESPONSE_CODE" "a cancelled print"
echo "cancel: response 1"

# Denied: response 2, no dialog, no job.
ctl permissions deny "$app" print >/dev/null
jobs_before=$(grep -c "Print request [0-9a-f]*: job" "$CORDON_LOG")
portal_request Print --document "$docs/doc.pdf"
assert_eq 2 "$RESPONSE_CODE" "a denied print"
assert_eq "$jobs_before" "$(grep -c "Print request [0-9a-f]*: job" "$CORDON_LOG")" "jobs"
echo "deny: response 2, no job"
