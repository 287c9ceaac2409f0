#!/usr/bin/env bash
# Printing from inside a real sandbox: an app started by cordon-run (no network, none
# of the host's files, no CUPS socket) cannot reach cupsd itself, but prints a PDF it
# holds through cordon-portal and the auto UI; the PDF cups-pdf writes has its pages
# and text. The caller is known by the security context cordon-run made for it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"
: "${CORDON_RUN:?CORDON_RUN must point to cordon-run}"

for tool in gs pdfinfo pdftotext lpstat; do
	command -v "$tool" >/dev/null || skip "no $tool (ghostscript, poppler-utils, cups-client)"
done
cordon_test_init
cups_start PDF
portal_start --verbose
app_id=org.example.SandboxedPrint$$
export XDG_DATA_HOME="$TEST_TMP/data"
docs="$TEST_TMP/docs"
mkdir -p "$docs"
cat >"$docs/doc.ps" <<'EOF'
%!PS
/Helvetica findfont 24 scalefont setfont
1 1 3 { /n exch def 72 700 moveto (cordon print test page ) show n 3 string cvs show showpage } for
EOF
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$docs/doc.pdf" "$docs/doc.ps"

# LeakSanitizer cannot run where ptrace is denied: an ASan client runs without it inside.
in_app=("$CORDON_RUN" --app-id "$app_id" --app "$(dirname "$CORDON_PORTAL")"
	--setenv ASAN_OPTIONS=detect_leaks=0 --setenv "CUPS_SERVER=$CUPS_SOCKET" --)
portal_bin="/app/$(basename "$CORDON_PORTAL")"

# On its own the app reaches no cupsd: the socket is not in its filesystem, and it has
# no network for one on localhost.
rc=0
"${in_app[@]}" sh -c 'test -e "$1"' x "$CUPS_SOCKET" || rc=$?
((rc != 0)) || fail "the sandbox sees the CUPS socket $CUPS_SOCKET"
if "${in_app[@]}" sh -c 'command -v lpstat' >/dev/null 2>&1; then
	assert_eq "scheduler is not running" "$("${in_app[@]}" lpstat -r 2>&1)" \
		"lpstat inside the sandbox"
	assert_eq "scheduler is not running" \
		"$("${in_app[@]}" env CUPS_SERVER=localhost:631 lpstat -r 2>&1)" \
		"lpstat inside the sandbox, through localhost"
fi

# The app holds the document in its own /tmp (it came in on standard input) and prints
# that file through the portal.
printf 'print.printer=PDF\n' >"$ANSWER"
rc=0
out=$("${in_app[@]}" sh -c "cat >/tmp/doc.pdf && $portal_bin print /tmp/doc.pdf" \
	<"$docs/doc.pdf" 2>"$TEST_TMP/print.err") || rc=$?
assert_eq 0 "$rc" "print in the sandbox ($(cat "$TEST_TMP/print.err"))"
[[ "$out" =~ ^[0-9]+$ ]] || fail "print did not report a job id: '$out'"
grep -q "Portal print request [0-9a-f]\{32\} from pid [0-9]* (cordon $app_id)" \
	"$CORDON_LOG" || fail "cordon did not know the caller by its security context"
pdf_of() {
	find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f | head -1
}
has_pdf() {
	[[ -n "$(pdf_of "$1")" ]] && pdfinfo "$(pdf_of "$1")" >/dev/null 2>&1
}
wait_for "cups-pdf's output of job $out" has_pdf "$out"
pdf=$(pdf_of "$out")
assert_eq 3 "$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')" "the printed PDF's pages"
assert_eq "$(pdftotext "$docs/doc.pdf" - | tr -s ' \n\f' ' ')" \
	"$(pdftotext "$pdf" - | tr -s ' \n\f' ' ')" "the printed PDF's text"

# Straight from a pipe into the sandbox's cordon-portal.
rc=0
out=$(cat "$docs/doc.pdf" | "${in_app[@]}" "$portal_bin" print - 2>"$TEST_TMP/pipe.err") ||
	rc=$?
assert_eq 0 "$rc" "print from a pipe in the sandbox ($(cat "$TEST_TMP/pipe.err"))"
wait_for "cups-pdf's output of job $out" has_pdf "$out"

# Denied for this app: an error, no dialog.
ctl permissions deny "$app_id" print >/dev/null
rc=0
"${in_app[@]}" "$portal_bin" print - <"$docs/doc.pdf" >/dev/null 2>"$TEST_TMP/deny.err" || rc=$?
assert_eq 3 "$rc" "print when denied"
grep -q "denied" "$TEST_TMP/deny.err" || fail "no denial reason: $(cat "$TEST_TMP/deny.err")"
cordon_stop
