#!/usr/bin/env bash
# Attack (docs/security.md, mediation): a print token is one app's. Two sandbox engines
# cordon knows only by the name their launcher gave (security-context listeners with the
# engines org.jail.one and org.jail.two) run apps with the same app id. The first
# prepares a print and gets a token; the second, holding that token, prints with it:
# compared by engine enum (both "other") the token was accepted and the document printed
# with no dialog. cordon_tag_same_sandbox is the rule: the second is another app, it is
# asked (the dialog appears; the auto UI cancels) and nothing is printed. Positive
# control: the first engine's app prints with its own token, without a dialog.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/cups.sh"
command -v gs >/dev/null || skip "no gs (ghostscript)"

cordon_test_init
cups_start PDF
portal_start --verbose
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$TEST_TMP/doc.pdf" \
	-c '/Helvetica findfont 24 scalefont setfont 72 700 moveto (token test) show showpage'
dialogs() {
	grep -c "auto: print dialog" "$CORDON_LOG" || true
}

# in_engine NAME ENGINE CMD...: runs CMD (cordon-portal) as a client of a security-context
# listener with that engine, app id org.example.Shared, instance 1; waits for it to end and
# sets out, err and rc.
in_engine() {
	local name=$1 engine=$2
	shift 2
	start_client "$name" "$CORDON_TEST_CLIENTS/security-context-client" \
		--listen "$XDG_RUNTIME_DIR/$name.sock" --engine "$engine" \
		--app-id org.example.Shared --instance 1 --commit -- \
		sh -c '"$@" >"$0.out" 2>"$0.err"' "$TEST_TMP/$name" "$CORDON_PORTAL" "$@"
	wait_for "$name's command to end" grep -q '^command-exit status=' "$TEST_TMP/$name.log"
	rc=$(sed -n 's/^command-exit status=//p' "$TEST_TMP/$name.log")
	out=$(cat "$TEST_TMP/$name.out")
	err=$(cat "$TEST_TMP/$name.err")
}

# The first engine's app prepares a print: the user chooses, and it gets a token.
answer print.printer=PDF print.page-ranges=1
in_engine prepare org.jail.one prepare-print --copies 1
assert_eq 0 "$rc" "prepare-print by org.jail.one ($err)"
token=$(sed -n 's/^token=//p' <<<"$out")
[[ "$token" =~ ^[0-9a-f]{32}$ ]] || fail "prepare-print gave no token: $out"
grep -q "Portal print request [0-9a-f]* from pid [0-9]* (org.jail.one org.example.Shared)" \
	"$CORDON_LOG" || fail "cordon did not know the first app by its engine's name"

# The other engine's app, same app id and instance, prints with that token: asked.
before=$(dialogs)
answer # any dialog now cancels
in_engine thief org.jail.two print --token "$token" "$TEST_TMP/doc.pdf"
assert_eq 1 "$rc" "a print with another engine's token (cancelled in the dialog it must show)"
assert_eq $((before + 1)) "$(dialogs)" "dialogs shown for another engine's token"
grep -q "the token is unknown, expired or another app's" "$CORDON_LOG" ||
	fail "the refused token was not logged"
! grep -q "a valid token, no dialog" "$CORDON_LOG" || fail "the other engine's token was accepted"

# Positive control: the token is still the first app's, and works once, without a dialog.
before=$(dialogs)
in_engine owner org.jail.one print --token "$token" "$TEST_TMP/doc.pdf"
assert_eq 0 "$rc" "the owner's print with its token ($err)"
[[ "$out" =~ ^[0-9]+$ ]] || fail "the owner's print reported no job id: $out"
assert_eq "$before" "$(dialogs)" "dialogs for the owner's print with its token"
echo "a print token is one sandbox's: another engine with the same app id is asked"
