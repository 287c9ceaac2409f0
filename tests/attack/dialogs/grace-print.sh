#!/usr/bin/env bash
# Attack: a sandboxed app asks to print while the user types; the print dialog takes
# the keyboard at once and Return prints, and a click aimed at what was under the
# dialog lands on Print. Checked with a real cupsd: a Return and a click on Print in
# the moment the dialog shows are ignored (its grace period) and no job reaches CUPS.
# Positive control: after the grace, Return prints.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"

for tool in gs pdfinfo lpstat; do
	command -v "$tool" >/dev/null || skip "no $tool (ghostscript, poppler-utils, cups-client)"
done
cordon_test_init
export XDG_STATE_HOME="$TEST_TMP/state"
cups_start PDF
cordon_start --verbose
portal_sandbox_init org.example.Hostile
docs="$TEST_TMP/docs"
mkdir -p "$docs"
printf '%%!PS\n/Helvetica findfont 24 scalefont setfont 72 700 moveto (hostile) show showpage\n' \
	>"$docs/doc.ps"
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$docs/doc.pdf" "$docs/doc.ps"

# The 600x255 dialog is centred on the 1280x720 output: its header band at 340,232;
# Print at 872,462.
header_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "31 58 95" 4 340 232 600 5) > 990))
}
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
ignored() {
	grep -c "ignored a $1 within" "$CORDON_LOG" || true
}
jobs() {
	lpstat -W all -o | wc -l
}

jobs_before=$(jobs)
keys_before=$(ignored "key press") clicks_before=$(ignored click)
start_client print1 "${in_sandbox[@]}" "$CORDON_PORTAL" print "$docs/doc.pdf"
dialog_shown_now
ctl key click Return >/dev/null
ctl pointer move 872 462 >/dev/null
ctl pointer button left click >/dev/null
assert "the print dialog is on the screen" header_shown
assert "the print request still waits" pending 1
(($(ignored "key press") > keys_before)) || fail "cordon did not log the ignored Return"
(($(ignored click) > clicks_before)) || fail "cordon did not log the ignored click"
assert_eq "$jobs_before" "$(jobs)" "CUPS jobs after the immediate Return and click"
dialog_ready
ctl key click Escape >/dev/null
wait_for "print1 to finish" not client_alive print1
assert_eq "cordon-portal: cancelled" "$(cat "$TEST_TMP/print1.log")" "the print after Escape"
assert_eq "$jobs_before" "$(jobs)" "CUPS jobs after the cancel"
echo "print: the immediate Return and click printed nothing"

# Positive control: after the grace, Return prints.
start_client print2 "${in_sandbox[@]}" "$CORDON_PORTAL" print "$docs/doc.pdf"
wait_for "the second print dialog" header_shown
dialog_ready
ctl key click Return >/dev/null
wait_for "print2 to finish" not client_alive print2
job=$(cat "$TEST_TMP/print2.log")
[[ "$job" =~ ^[0-9]+$ ]] || fail "Return after the grace did not print: '$job'"
echo "positive: Return after the grace printed job $job"
cordon_stop
