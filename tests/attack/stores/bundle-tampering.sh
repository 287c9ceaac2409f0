#!/usr/bin/env bash
# A hostile mirror or download changes a signed bundle: a byte of the image, of the manifest,
# of the icon, the signature, the header's lengths, truncation, bytes appended; or signs its
# own bundle with a key nobody trusts. Each is refused (exit 3) with a clear line and nothing
# changes on disk; the genuine bundle still installs (the positive control).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

ID=org.example.Tamper
make_key alpha
make_key mallory
capp store add alpha "$APPS_WORK/store" --key "$(pub alpha)" --apps 'org.example.*' >/dev/null
make_bundle "$APPS_WORK/good.cordon" alpha "$ID" 1.0
good="$APPS_WORK/good.cordon"
size=$(stat -c %s "$good")

# patch FILE OFFSET BYTES-HEX: overwrite bytes at OFFSET.
patch() {
	printf '%b' "$(sed 's/../\\x&/g' <<<"$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# flip FILE OFFSET: inverts the byte at OFFSET (a change whatever the byte was).
flip() {
	$PYTHON -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(int(sys.argv[2])); b = f.read(1); f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 0xff]))" "$1" "$2"
	cmp -s "$1" "$good" && fail "flip changed nothing in $1"
	true
}
variant() {
	cp "$good" "$APPS_WORK/$1.cordon"
	echo "$APPS_WORK/$1.cordon"
}
manifest_len=$($PYTHON -c "import struct,sys; print(struct.unpack('<I', open(sys.argv[1],'rb').read()[12:16])[0])" "$good")

before=$(disk_state)
refused() {
	local pattern=$1 file=$2
	expect_refusal 3 "$pattern" capp install "$file" --yes
	assert_eq "$before" "$(disk_state)" "the disk after refusing $(basename "$file")"
}

# The last byte of the image.
f=$(variant image)
flip "$f" $((size - 1))
refused "its signature does not verify" "$f"
# A byte inside the manifest (its version "1.0" becomes "9.0": same length, valid JSON).
f=$(variant manifest)
off=$($PYTHON -c "import sys; d=open(sys.argv[1],'rb').read(); print(d.index(b'\"1.0\"') + 1)" "$f")
patch "$f" "$off" 39
grep -q '"9.0"' "$f" || fail "the manifest was not patched"
refused "its signature does not verify" "$f"
# The icon.
f=$(variant icon)
flip "$f" $((64 + manifest_len + 40))
refused "its signature does not verify" "$f"
# The signature itself.
f=$(variant signature)
sig_off=$($PYTHON -c "import struct,sys; d=open(sys.argv[1],'rb').read(); m,i=struct.unpack('<II', d[12:20]); print(64+m+i)" "$f")
flip "$f" "$sig_off"
refused "its signature does not verify" "$f"
# Signed with a key no store has.
make_bundle "$APPS_WORK/mallory.cordon" mallory "$ID" 1.0
refused "its signature does not verify with any trusted key" "$APPS_WORK/mallory.cordon"
# The container: a huge manifest length, truncation, bytes appended, not a bundle.
f=$(variant header)
patch "$f" 12 ffffff7f
refused "manifest length out of bounds" "$f"
f=$(variant truncated)
truncate -s $((size - 1)) "$f"
refused "file size does not match the header" "$f"
f=$(variant appended)
printf 'x' >>"$f"
refused "file size does not match the header" "$f"
head -c 8192 /dev/urandom >"$APPS_WORK/random.cordon"
refused "not a cordon app bundle" "$APPS_WORK/random.cordon"

# Through a store: the mirror swaps the bundle file the signed index names.
publish "$APPS_WORK/store" alpha 1 "$good"
cp "$APPS_WORK/image.cordon" "$APPS_WORK/store/good.cordon"
expect_refusal 3 "does not match the size and SHA-256 its signed index gives" \
	capp install "alpha/$ID" --yes
[[ -z "$(ls -A "$XDG_DATA_HOME/cordon/installed" | grep -v '^\.lock$')" ]] ||
	fail "a swapped download left files: $(ls -A "$XDG_DATA_HOME/cordon/installed")"
[[ -z "$(capp list --json | jq -r '.[].id')" ]] || fail "a swapped download was installed"

# The positive control: the genuine bundle installs and runs.
publish "$APPS_WORK/store" alpha 2 "$good"
capp install "alpha/$ID" --yes >/dev/null || fail "the genuine bundle was refused"
assert_eq "hello 1.0 " "$(run_installed "$ID")" "the genuine app"
