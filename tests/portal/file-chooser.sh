#!/usr/bin/env bash
# The file chooser portal end to end, through cordon-portal in a flatpak-named cgroup
# and the auto UI: open and save reach exactly the host files the "user" chose, by
# fd; cancel; symbolic links and FIFOs swapped in for the chosen file are refused.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

portal_start --verbose
portal_sandbox_init org.example.Portal
fds_before=$(fd_count)
host="$TEST_TMP/host"
mkdir -p "$host/docs" "$TEST_TMP/out"
echo "the host's secret" >"$host/secret.txt"
echo "second" >"$host/second.txt"

# Open: the chosen file's content, under its own name only.
answer "$host/secret.txt"
portal open-file --filter "Text:*.txt" --title "Pick one" --output "$TEST_TMP/out"
assert_eq 0 "$rc" "open-file status ($err)"
assert_eq "secret.txt" "$out" "the name printed"
assert_eq "the host's secret" "$(cat "$TEST_TMP/out/secret.txt")" "the content received"
grep -q "Portal file-chooser request [0-9a-f]\{32\} from pid [0-9]* (flatpak org.example.Portal)" \
	"$CORDON_LOG" || fail "cordon did not know the caller by its tag"

# Multiple: every chosen file, and only with --multiple.
rm -f "$TEST_TMP/out"/*
answer "$host/secret.txt" "$host/second.txt"
portal open-file --multiple --output "$TEST_TMP/out"
assert_eq 0 "$rc" "multiple open status ($err)"
assert_eq "secret.txt second.txt" "$(echo $out)" "both names"
assert_eq "second" "$(cat "$TEST_TMP/out/second.txt")" "the second file"
rm -f "$TEST_TMP/out"/*
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "single open of two answers ($err)"
assert_eq "secret.txt" "$out" "a single-file request gets one file"

# Directory: a host client gets an fd of the folder; cordon-portal copies its files. A
# sandboxed one never gets a directory fd (".." would walk the host's tree): only a
# document of the document portal, and there is none in this test
# (tests/attack/portals/folder-grant.sh has it).
echo "in docs" >"$host/docs/readme"
answer "$host/docs"
rc=0
out=$("$CORDON_PORTAL" open-file --directory --output "$TEST_TMP/out" 2>"$TEST_TMP/portal.err") ||
	rc=$?
assert_eq 0 "$rc" "directory open by a host client ($(cat "$TEST_TMP/portal.err"))"
assert_eq "in docs" "$(cat "$TEST_TMP/out/docs/readme")" "a file of the chosen folder"
rm -rf "$TEST_TMP/out/docs"
portal open-file --directory --output "$TEST_TMP/out"
assert_eq 3 "$rc" "directory open by a sandboxed client without a document portal ($err)"
grep -q "unavailable: no session bus" <<<"$err" || fail "the refusal: $err"
[[ ! -e "$TEST_TMP/out/docs" ]] || fail "a sandboxed client got the folder without a document"

# Save: standard input lands in the chosen host file, created, then replaced.
answer "$host/saved.txt"
rc=0
out=$(printf 'saved data\n' | "${in_sandbox[@]}" "$CORDON_PORTAL" save-file --name suggested.txt) ||
	rc=$?
assert_eq 0 "$rc" "save-file status"
assert_eq "saved.txt" "$out" "the saved name"
assert_eq "saved data" "$(cat "$host/saved.txt")" "the saved content"
printf 'short\n' | "${in_sandbox[@]}" "$CORDON_PORTAL" save-file --name x >/dev/null
assert_eq "short" "$(cat "$host/saved.txt")" "an overwritten file has only the new content"

# Cancel: an empty answer.
answer
portal open-file --output "$TEST_TMP/out"
assert_eq 1 "$rc" "cancel status"
assert_eq "cordon-portal: cancelled" "$err" "cancel reason"

# A symbolic link swapped in for the chosen file is refused, for open and save alike.
rm -rf "$TEST_TMP/out"/*
ln -s "$host/secret.txt" "$host/link.txt"
answer "$host/link.txt"
portal open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "open of a symlink"
[[ "$err" == *"symbolic link"* ]] || fail "the refusal does not say why: $err"
[[ -z "$(ls -A "$TEST_TMP/out")" ]] || fail "a file came through a symlink"
echo "precious" >"$host/precious"
ln -s "$host/precious" "$host/save-link"
answer "$host/save-link"
rc=0
printf 'overwrite\n' | "${in_sandbox[@]}" "$CORDON_PORTAL" save-file --name x 2>/dev/null || rc=$?
assert_eq 3 "$rc" "save through a symlink"
assert_eq "precious" "$(cat "$host/precious")" "the symlink's target"

# A FIFO would block cordon in open(): refused at once, and cordon still answers.
mkfifo "$host/fifo"
answer "$host/fifo"
portal open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "open of a FIFO"
answer "$host/secret.txt"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "open after the FIFO ($err)"

# A relative path from the UI is refused too.
answer "secret.txt"
portal open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "a relative answer"

# Every fd cordon opened for a choice, handed over or refused, is closed again.
fds_back() {
	[[ "$(fd_count)" == "$fds_before" ]]
}
wait_for "cordon's fd count to return to $fds_before" fds_back

cordon_stop
