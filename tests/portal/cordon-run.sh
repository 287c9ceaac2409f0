#!/usr/bin/env bash
# The file chooser from inside a real sandbox: an app started by cordon-run, which cannot
# see the host's files, gets exactly the file the "user" chose through cordon-portal and
# the auto UI, and saves into the host folder the user picked. cordon knows the caller by
# the security context cordon-run made for it.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_RUN:?CORDON_RUN must point to cordon-run}"

portal_start --verbose
app_id=org.example.Sandboxed$$
export XDG_DATA_HOME="$TEST_TMP/data"
host="$TEST_TMP/host"
mkdir -p "$host"
echo "the host's secret $$" >"$host/secret.txt"

# cordon-portal is the app's own file at /app. LeakSanitizer cannot run where ptrace is
# denied, so an ASan build's client runs without it inside.
in_app=("$CORDON_RUN" --app-id "$app_id" --app "$(dirname "$CORDON_PORTAL")"
	--setenv ASAN_OPTIONS=detect_leaks=0 --)
portal_bin="/app/$(basename "$CORDON_PORTAL")"

# Without the portal the file is out of reach: cat ran inside (its exit status is printed
# after it) and found no such file, and no byte of it came out.
out=$("${in_app[@]}" sh -c 'cat "$1" 2>&1; rc=$?; echo; echo "cat exit $rc"' sh \
	"$host/secret.txt" 2>&1) || fail "the shell inside did not run: $out"
grep -qx "cat exit 1" <<<"$out" || fail "cat did not run inside: $out"
grep -q "No such file or directory" <<<"$out" || fail "cat inside said: $out"
! grep -qF "the host's secret" <<<"$out" || fail "the sandbox could read $host/secret.txt directly"

# Through the portal: the content, under its own name.
answer "$host/secret.txt"
rc=0
out=$("${in_app[@]}" sh -c "mkdir /tmp/got && $portal_bin open-file --output /tmp/got && cat /tmp/got/secret.txt" \
	2>"$TEST_TMP/open.err") || rc=$?
assert_eq 0 "$rc" "open-file in the sandbox ($(cat "$TEST_TMP/open.err"))"
assert_eq "secret.txt
the host's secret $$" "$out" "the name and content received inside"
grep -q "Portal file-chooser request [0-9a-f]\{32\} from pid [0-9]* (cordon $app_id)" \
	"$CORDON_LOG" || fail "cordon did not know the caller by its security context: $(grep Portal "$CORDON_LOG" | tail -n 3)"

# Save: the sandbox's standard input lands in the host file the user chose.
answer "$host/saved.txt"
rc=0
out=$(printf 'from inside %s\n' "$$" | "${in_app[@]}" "$portal_bin" save-file --name x.txt \
	2>"$TEST_TMP/save.err") || rc=$?
assert_eq 0 "$rc" "save-file in the sandbox ($(cat "$TEST_TMP/save.err"))"
assert_eq "saved.txt" "$out" "the saved name"
assert_eq "from inside $$" "$(cat "$host/saved.txt")" "the saved content on the host"

# Denied for this app: an error, no dialog, nothing written.
ctl permissions deny "$app_id" file-chooser >/dev/null
answer "$host/secret.txt"
rc=0
"${in_app[@]}" "$portal_bin" open-file --output /tmp >/dev/null 2>"$TEST_TMP/deny.err" || rc=$?
assert_eq 3 "$rc" "open-file when denied"
grep -q "denied" "$TEST_TMP/deny.err" || fail "no denial reason: $(cat "$TEST_TMP/deny.err")"
echo "ok: a cordon-run app opened and saved host files only through the portal"
