#!/usr/bin/env bash
# The print portal end to end: a real cupsd in $TEST_TMP with a cups-pdf queue, cordon
# talking to it (CUPS_SERVER), and cordon-portal in a flatpak-named cgroup (with no
# network and without the CUPS socket in its view where unshare can do that) printing
# through the auto UI. The PDF that cups-pdf writes has the pages and text of the
# input; copies and page ranges are honoured; the job id is CUPS's. Tokens skip the
# dialog once; deny, cancel, over-size files and pipes, a socket or device fd,
# cupsd gone, and the app killed mid-request are each refused or survived.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"

for tool in gs pdfinfo pdftotext lpstat; do
	command -v "$tool" >/dev/null || skip "no $tool (ghostscript, poppler-utils, cups-client)"
done
app=org.example.Print
cordon_test_init
cups_start PDF
portal_auto_ini >"$TEST_TMP/cordon.ini"
printf 'print-max-size = 1M\n' >>"$TEST_TMP/cordon.ini"
portal_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init "$app"
docs="$TEST_TMP/docs"
mkdir -p "$docs"
cat >"$docs/doc.ps" <<'EOF'
%!PS
/Helvetica findfont 24 scalefont setfont
1 1 3 { /n exch def 72 700 moveto (cordon print test page ) show n 3 string cvs show showpage } for
EOF
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$docs/doc.pdf" "$docs/doc.ps"
assert_eq 3 "$(pdfinfo "$docs/doc.pdf" | awk '/^Pages:/ { print $2 }')" "the input's pages"

# The client's view: no network, and where a mount namespace can be made, no CUPS
# socket either (a tmpfs over the cups folder). cordon itself still reaches cupsd.
if unshare -m -n true 2>/dev/null; then
	in_sandbox=(unshare -m -n sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' \
		no_cups "$TEST_TMP/cups" "${in_sandbox[@]}")
	assert_eq "scheduler is not running" "$("${in_sandbox[@]}" lpstat -r 2>&1)" \
		"lpstat inside the sandbox"
	"${in_sandbox[@]}" sh -c '! test -e "$1"' x "$CUPS_SOCKET" ||
		fail "the sandbox sees the CUPS socket"
else
	_log "NOTE: no unshare here: the client has the host's network view"
fi

dialogs() {
	grep -c "auto: print dialog" "$CORDON_LOG" || true
}
# pdf_of JOB: the PDF cups-pdf wrote for the job (Label 2 puts job_N in the name).
pdf_of() {
	find "$CUPS_PDF_OUT" -name "*job_$1.pdf" -type f | head -1
}
has_pdf() {
	[[ -n "$(pdf_of "$1")" ]]
}
wait_pdf() {
	wait_for "cups-pdf's output of job $1" has_pdf "$1"
	pdf=$(pdf_of "$1")
	# cups-pdf writes the file in place: wait until it is a whole PDF.
	wait_for "a complete PDF for job $1" pdfinfo "$pdf"
}
pages_of() {
	pdfinfo "$1" | awk '/^Pages:/ { print $2 }'
}
text_of() {
	pdftotext "$1" - | tr -s ' \n\f' ' ' | sed 's/ *$//'
}

# Print: the PDF arrives with the same pages and text; the id is CUPS's job id.
printf 'print.printer=PDF\n' >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 0 "$rc" "print status ($err)"
job=$out
[[ "$job" =~ ^[0-9]+$ ]] || fail "print did not report a job id: '$out'"
lpstat -W all -o PDF | grep -q "^PDF-$job " || fail "CUPS has no job $job: $(lpstat -W all -o)"
wait_pdf "$job"
assert_eq 3 "$(pages_of "$pdf")" "the printed PDF's pages"
assert_eq "$(text_of "$docs/doc.pdf")" "$(text_of "$pdf")" "the printed PDF's text"
grep -q "Portal print request [0-9a-f]\{32\} from pid [0-9]* (flatpak $app)" "$CORDON_LOG" ||
	fail "cordon did not know the caller by its tag"
grep -q "auto: print request .* from '$app' (flatpak): printer=PDF" "$CORDON_LOG" ||
	fail "the dialog did not get the app's identity from its tag"

# PostScript and an image, which CUPS converts itself.
portal print "$docs/doc.ps"
assert_eq 0 "$rc" "a PostScript print ($err)"
wait_pdf "$out"
assert_eq 3 "$(pages_of "$pdf")" "pages printed of the PostScript"
assert_eq "$(text_of "$docs/doc.pdf")" "$(text_of "$pdf")" "the text printed of the PostScript"
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=png16m -r30 -sOutputFile="$docs/page-%d.png" "$docs/doc.ps"
portal print "$docs/page-1.png"
assert_eq 0 "$rc" "a PNG print ($err)"
wait_pdf "$out"
assert_eq 1 "$(pages_of "$pdf")" "pages printed of a PNG"

# The title is the app's: one with spaces and quotes (which cupsd 2.4.2 crashes on as a
# document-name) prints, and cupsd stays up.
portal print --title "Quarterly report \"final\" 100%" "$docs/doc.pdf"
assert_eq 0 "$rc" "a title with spaces ($err)"
wait_pdf "$out"
cups_running || fail "cupsd went down on a title with spaces"

# A page range: only page 2.
printf 'print.printer=PDF\nprint.page-ranges=2\n' >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 0 "$rc" "page range print ($err)"
wait_pdf "$out"
assert_eq 1 "$(pages_of "$pdf")" "pages printed of the range 2"
assert_eq "cordon print test page 2" "$(text_of "$pdf")" "the text of page 2"

# Copies: the job reaches the queue with copies=2 (argv[4] of its filters and backend;
# cups-pdf makes one file whatever the count, so the PDF itself cannot show it).
printf 'print.printer=PDF\nprint.copies=2\n' >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 0 "$rc" "two copies ($err)"
wait_pdf "$out"
grep -q "\[Job $out\] argv\[4\]=\"2\"" "$TEST_TMP/cups/log/error_log" ||
	fail "job $out did not reach the printer with 2 copies"

# From a pipe: read through cordon's event loop into a sealed memfd.
printf 'print.printer=PDF\n' >"$ANSWER"
rc=0
out=$("${in_sandbox[@]}" sh -c 'cat "$1" | "$2" print -' x "$docs/doc.pdf" "$CORDON_PORTAL" \
	2>"$TEST_TMP/portal.err") || rc=$?
assert_eq 0 "$rc" "print from a pipe ($(cat "$TEST_TMP/portal.err"))"
wait_pdf "$out"
assert_eq 3 "$(pages_of "$pdf")" "pages printed from a pipe"

# prepare-print, then print with its token: no dialog, once.
printf 'print.printer=PDF\nprint.page-ranges=1\n' >"$ANSWER"
portal prepare-print --copies 1
assert_eq 0 "$rc" "prepare-print ($err)"
grep -qx "printer=PDF" <<<"$out" || fail "prepare-print did not give the printer: $out"
grep -qx "page-ranges=1" <<<"$out" || fail "prepare-print did not give the range: $out"
token=$(sed -n 's/^token=//p' <<<"$out")
[[ "$token" =~ ^[0-9a-f]{32}$ ]] || fail "prepare-print gave no token: $out"
before=$(dialogs)
: >"$ANSWER" # any dialog now would cancel
portal print --token "$token" "$docs/doc.pdf"
assert_eq 0 "$rc" "print with a token ($err)"
assert_eq "$before" "$(dialogs)" "dialogs for a print with a valid token"
wait_pdf "$out"
assert_eq 1 "$(pages_of "$pdf")" "the token's page range was used"
portal print --token "$token" "$docs/doc.pdf"
assert_eq 1 "$rc" "a used token asks again (and the empty answer cancels)"
assert_eq $((before + 1)) "$(dialogs)" "a used token shows the dialog"
# modal asks even with a fresh token.
printf 'print.printer=PDF\n' >"$ANSWER"
portal prepare-print
token=$(sed -n 's/^token=//p' <<<"$out")
: >"$ANSWER"
portal print --modal --token "$token" "$docs/doc.pdf"
assert_eq 1 "$rc" "modal with a valid token shows the dialog (cancelled)"

# A printer the user did not have is refused by cordon: the default queue is used.
printf 'print.printer=NoSuchQueue\n' >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 0 "$rc" "print with an unknown printer falls back to the default ($err)"
grep -q "refused the setting printer=NoSuchQueue: no such printer" "$CORDON_LOG" ||
	fail "an unknown printer was not refused"

# Over the configured size (1 MiB): a file, and a pipe, refused with a clear error.
head -c $((1024 * 1024 + 1)) /dev/zero >"$docs/big.pdf"
portal print "$docs/big.pdf"
assert_eq 3 "$rc" "an over-size file"
[[ "$err" == "cordon-portal: too large: "* ]] || fail "the over-size refusal says: $err"
rc=0
"${in_sandbox[@]}" sh -c 'head -c 2000000 /dev/zero | "$1" print -' x "$CORDON_PORTAL" \
	2>"$TEST_TMP/portal.err" || rc=$?
assert_eq 3 "$rc" "an over-size pipe"
grep -q "too large" "$TEST_TMP/portal.err" || fail "the pipe refusal says: $(cat "$TEST_TMP/portal.err")"

# An fd that is neither a regular file nor a pipe: a device, and a socket.
portal print --fd 0 </dev/null
assert_eq 3 "$rc" "a device fd"
[[ "$err" == *"bad document: the document must be a regular file or a pipe"* ]] ||
	fail "the device refusal says: $err"
if command -v python3 >/dev/null; then
	rc=0
	"${in_sandbox[@]}" python3 -c '
import socket, subprocess, sys
a, b = socket.socketpair()
sys.exit(subprocess.run([sys.argv[1], "print", "--fd", str(a.fileno())],
	pass_fds=[a.fileno()]).returncode)' "$CORDON_PORTAL" 2>"$TEST_TMP/portal.err" || rc=$?
	assert_eq 3 "$rc" "a socket fd"
	grep -q "regular file or a pipe" "$TEST_TMP/portal.err" ||
		fail "the socket refusal says: $(cat "$TEST_TMP/portal.err")"
fi
# Two pipes of one app at once share the limit: 600 KB each, the second is refused.
printf 'print.printer=PDF\n' >"$ANSWER"
mkfifo "$TEST_TMP/fifo-a" "$TEST_TMP/fifo-b"
exec 8<>"$TEST_TMP/fifo-a" 9<>"$TEST_TMP/fifo-b"
"${in_sandbox[@]}" "$CORDON_PORTAL" print --fd 8 >/dev/null 2>&1 &
first=$!
head -c 600000 /dev/zero >"$TEST_TMP/fifo-a" 8>&- 9>&- &
writer=$!
wait "$writer" # cordon has read it all (a FIFO holds 64 KiB)
head -c 600000 /dev/zero >"$TEST_TMP/fifo-b" 8>&- 9>&- &
writer=$!
rc=0
"${in_sandbox[@]}" "$CORDON_PORTAL" print --fd 9 2>"$TEST_TMP/portal.err" || rc=$?
assert_eq 3 "$rc" "a second pipe over the app's shared limit"
grep -q "together over the print size limit" "$TEST_TMP/portal.err" ||
	fail "the shared limit refusal says: $(cat "$TEST_TMP/portal.err")"
kill -9 "$first"
wait "$first" 2>/dev/null || true
exec 8>&- 9>&-
wait "$writer" 2>/dev/null || true # it ends with its FIFO's readers gone

# Settings are IPP names and plain values: anything else is a protocol error.
portal print --set job-hold-until=indefinite "$docs/doc.pdf"
assert_eq 3 "$rc" "an unknown setting"
portal print --printer "PDF -o x" "$docs/doc.pdf"
assert_eq 3 "$rc" "a printer name with spaces"
[[ "$err" == *"error 1: setting 'printer': malformed value"* ]] ||
	fail "the malformed printer name was not a protocol error: $err"

# Not a type CUPS takes from cordon.
portal print --mime-type text/html "$docs/doc.pdf"
assert_eq 3 "$rc" "an unprintable type"

# Cancel: an empty answer.
: >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 1 "$rc" "a cancelled print"

# Denied: an error, no dialog, nothing sent to CUPS.
jobs_before=$(lpstat -W all -o | wc -l)
ctl permissions deny "$app" print >/dev/null
before=$(dialogs)
printf 'print.printer=PDF\n' >"$ANSWER"
portal print "$docs/doc.pdf"
assert_eq 3 "$rc" "a denied app's print"
[[ "$err" == "cordon-portal: denied: "* ]] || fail "the denial says: $err"
portal prepare-print
assert_eq 3 "$rc" "a denied app's prepare"
assert_eq "$before" "$(dialogs)" "dialogs for a denied app"
assert_eq "$jobs_before" "$(lpstat -W all -o | wc -l)" "jobs sent for a denied app"
ctl permissions grant "$app" print >/dev/null
portal print "$docs/doc.pdf"
assert_eq 0 "$rc" "a granted app prints ($err)"
assert_eq $((before + 1)) "$(dialogs)" "a granted app still chooses the printer in a dialog"

# The app killed mid-request (its pipe still open, nothing read to the end): the
# request goes with it and cordon's fds come back.
fds_before=$(fd_count)
mkfifo "$TEST_TMP/fifo"
exec 7<>"$TEST_TMP/fifo"
printf '%%PDF-1.4\n' >&7
before=$(dialogs)
"${in_sandbox[@]}" "$CORDON_PORTAL" print --fd 7 >/dev/null 2>&1 &
client=$!
more_dialogs() {
	(($(dialogs) > before))
}
wait_for "the print request's dialog, its document still coming" more_dialogs
requests() {
	ctl --json portal-requests | jq length
}
assert_eq 1 "$(requests)" "requests waiting for their document"
kill -9 "$client"
wait "$client" 2>/dev/null || true
exec 7>&-
no_requests() {
	[[ "$(requests)" == 0 ]]
}
wait_for "the request to go with its app" no_requests
# A function, run again at each try (wait_for's arguments are expanded once, at its call).
fds_back() {
	(($(fd_count) <= fds_before))
}
wait_for "cordon's fds back to $fds_before" fds_back
ctl outputs >/dev/null || fail "cordon did not survive the app going away"

# cupsd gone: a clear error, not a hang.
cups_stop
portal print "$docs/doc.pdf"
assert_eq 3 "$rc" "print without cupsd"
[[ "$err" == *"printing failed: the printing service"*"cannot be reached"* ]] ||
	fail "without cupsd the error says: $err"

cordon_stop
