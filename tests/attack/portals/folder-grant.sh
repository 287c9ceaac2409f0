#!/usr/bin/env bash
# Attack: a folder grant used as a whole-filesystem grant (docs/security.md, "Files and
# other fds handed to apps"). An app in cordon-run asks the file chooser for a folder; the
# "user" (the auto UI) picks ~/Pictures of a test home that also holds ~/.ssh/id_rsa. The
# app then walks up from what it was given with "..", through the grant and through
# /proc/self/fd, to read the secret and to create a file beside the folder and above it.
# A directory fd would let it (".." is resolved in the host's mount tree); the folder must
# come as a directory document in the app's own view, where ".." stays inside. Positive
# control: the folder's own file is read and a new file written in it reaches the host.
# Variant: a client bound at manager version 4 (no folder event) gets no fd, but a refusal.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_RUN:?}" "${CORDON_ATTACK_FOLDER_ESCAPE:?}"
for tool in dbus-daemon fusermount3; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[[ -x /usr/libexec/xdg-document-portal ]] || skip "xdg-document-portal is not installed"

cordon_test_init
export XDG_DATA_HOME="$TEST_TMP/data"
start_session_bus
export HOME="$TEST_TMP/home"
mkdir -p "$HOME/Pictures" "$HOME/.ssh"
secret="the private key $$"
echo "$secret" >"$HOME/.ssh/id_rsa"
echo "the pictures' own $$" >"$HOME/Pictures/inside.txt"
portal_start --verbose
app_id=org.example.Hostile$$
# The document portal is started by cordon (its file grants ask it for its mount point).
_documents_mounted() {
	grep -qF " $XDG_RUNTIME_DIR/doc " /proc/self/mounts
}
wait_for "the document portal's mount" _documents_mounted

escape() {
	rc=0
	out=$("$CORDON_RUN" --app-id "$app_id" --app "$(dirname "$CORDON_ATTACK_FOLDER_ESCAPE")" \
		--setenv ASAN_OPTIONS=detect_leaks=0 "$@" -- \
		"/app/$(basename "$CORDON_ATTACK_FOLDER_ESCAPE")" "$HOME" .ssh/id_rsa inside.txt 2 \
		2>"$TEST_TMP/escape.err") || rc=$?
	printf '%s\n' "$out" >>"$TEST_TMP/escape.out"
}

# No host file may appear where ".." from the folder leads (the app tries two levels up:
# the home and the test's folder, so that a cordon that let it through writes nothing
# outside the test).
created_on_host() {
	find "$TEST_TMP" -name escaped
}

answer "$HOME/Pictures"
escape
assert_eq 0 "$rc" "the probe ran ($out $(cat "$TEST_TMP/escape.err"))"
probes=$(sed -n 's/^probes \([0-9]*\)$/\1/p' <<<"$out")
((probes >= 40)) || fail "the probes did not run: $out"
# The attacks: nothing read, nothing created.
if grep -q "LEAKED" <<<"$out" || grep -qF "$secret" <<<"$out"; then
	fail "the app read outside its folder: $(grep LEAKED <<<"$out" | head -n 3)"
fi
leftover=$(created_on_host)
[[ -z "$leftover" ]] || fail "the app created a file outside its folder: $leftover"
grep -q "^read \.\./\.ssh/id_rsa: ENOENT$" <<<"$out" ||
	fail "no refusal of ../.ssh/id_rsa: $(grep '^read \.\./\.ssh' <<<"$out")"
grep -q "^write \.\./escaped: E[A-Z]*$" <<<"$out" ||
	fail "no refusal of ../escaped: $(grep '^write \.\./escaped' <<<"$out")"
# Positive controls: the folder's file, and a file written into it that the host sees.
# Document ids are letters and digits, and '-' and '_' since xdg-document-portal 1.22.
grep -q "^granted path /run/user/$(id -u)/doc/[A-Za-z0-9_-]*/Pictures$" <<<"$out" ||
	fail "the folder did not come as a document: $(head -n 3 <<<"$out")"
grep -qxF "inside the pictures' own $$" <<<"$out" || fail "the folder's own file: $out"
grep -qx "wrote from-app.txt" <<<"$out" || fail "writing into the folder: $out"
assert_eq "written by the app" "$(cat "$HOME/Pictures/from-app.txt")" "the app's file on the host"
echo "ok: $probes tries to leave the granted folder, none read or wrote anything outside it"

# An app bound at version 4 cannot take a folder as a document: refused, no fd.
answer "$HOME/Pictures"
FOLDER_ESCAPE_VERSION=4 escape --setenv FOLDER_ESCAPE_VERSION=4
assert_eq 2 "$rc" "an old client's folder request ($out)"
grep -q "^no folder: failed 3 .*version 5" <<<"$out" || fail "an old client's refusal: $out"
[[ -z "$(created_on_host)" ]] || fail "the old client created a file outside its folder"
echo "ok: a client bound at version 4 gets a refusal, not a directory fd"
