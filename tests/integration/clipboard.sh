#!/usr/bin/env bash
# wl-copy and wl-paste move text and a 1 MiB binary file through the clipboard, and
# text through the primary selection, unchanged.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

cordon_start

text="cordon clipboard test $$: ünïcødé, tabs	and 'quotes'"
# --foreground keeps wl-copy as our tracked child until the selection is replaced.
start_client copy-text wl-copy --foreground -- "$text"
pasted_text() {
	[[ "$(timeout 5 wl-paste -n)" == "$text" ]]
}
wait_for "wl-paste to return the copied text" pasted_text
assert_eq "$text" "$(timeout 5 wl-paste -n)" "pasted text"

blob="$TEST_TMP/blob.in"
out="$TEST_TMP/blob.out"
head -c 1048576 /dev/urandom >"$blob"
start_client copy-blob bash -c 'exec wl-copy --foreground --type application/octet-stream <"$1"' \
	wl-copy "$blob"
pasted_blob() {
	timeout 10 wl-paste -n --type application/octet-stream >"$out" && cmp -s "$blob" "$out"
}
wait_for "wl-paste to return the 1 MiB binary file" pasted_blob
cmp "$blob" "$out" || fail "the pasted binary differs from the copied one"
# Copying the blob replaced the text selection: that wl-copy has nothing left to serve.
wait_for "the text wl-copy to exit once replaced" not client_alive copy-text

primary="primary selection $$"
start_client copy-primary wl-copy --foreground --primary -- "$primary"
pasted_primary() {
	[[ "$(timeout 5 wl-paste -n --primary)" == "$primary" ]]
}
wait_for "wl-paste --primary to return the primary selection" pasted_primary
# The primary selection is separate: the clipboard still holds the blob.
timeout 10 wl-paste -n --type application/octet-stream >"$out"
cmp -s "$blob" "$out" || fail "setting the primary selection changed the clipboard"
echo "text, 1 MiB binary and primary selection round-tripped"
