#!/usr/bin/env bash
# A mirror replays an older signed index (serial 1, listing 1.0, which has a known hole)
# after the user saw serial 2 and installed 1.1: refused (exit 3) and nothing changes; an
# older bundle installed directly is refused too (exit 4). Only the user's explicit
# --allow-older / --allow-downgrade accept them.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

ID=org.example.Replay
make_key alpha
make_bundle "$APPS_WORK/r-1.0.cordon" alpha "$ID" 1.0
make_bundle "$APPS_WORK/r-1.1.cordon" alpha "$ID" 1.1
publish "$APPS_WORK/store" alpha 1 "$APPS_WORK/r-1.0.cordon"
cp "$APPS_WORK/store/index.json" "$APPS_WORK/old-index.json"
cp "$APPS_WORK/store/index.json.sig" "$APPS_WORK/old-index.json.sig"
serve "$APPS_WORK/store"
capp store add alpha "$STORE_URL" --key "$(pub alpha)" --apps "$ID" >/dev/null
capp install "alpha/$ID" --yes >/dev/null
publish "$APPS_WORK/store" alpha 2 "$APPS_WORK/r-1.0.cordon" "$APPS_WORK/r-1.1.cordon"
capp update --yes | grep -q "Installed $ID 1.1" || fail "the update to 1.1"
assert_eq 2 "$(capp store list --json | jq -r '.[0].serial')" "the serial remembered"

# The replay: the old index, validly signed, served again.
cp "$APPS_WORK/old-index.json" "$APPS_WORK/store/index.json"
cp "$APPS_WORK/old-index.json.sig" "$APPS_WORK/store/index.json.sig"
before=$(disk_state)
expect_refusal 3 "store alpha: the index (serial 1) is older than one already seen (serial 2)" \
	capp update --yes
expect_refusal 3 "a replayed index is refused" capp install "alpha/$ID" --yes
assert_eq "$before" "$(disk_state)" "the disk after a replayed index"
# Adding the store again (same key, another URL spelling) does not forget the serial.
capp store add alpha "$STORE_URL/" --key "$(pub alpha)" --apps "$ID" >/dev/null
expect_refusal 3 "(serial 1) is older than one already seen (serial 2)" capp update --yes
before=$(disk_state)
assert_eq "1.1" "$(capp info "$ID" --json | jq -r .version)" "the version after the replay"
# Accepting the old index still does not downgrade.
capp update --yes --allow-older | grep -q "$ID 1.1 is up to date" || fail "--allow-older downgraded"

# An older bundle directly.
expect_refusal 4 "refused $ID 1.0: older than the installed 1.1" \
	capp install "$APPS_WORK/r-1.0.cordon" --yes
assert_eq "$before" "$(disk_state)" "the disk after an older bundle"
capp install "$APPS_WORK/r-1.0.cordon" --yes --allow-downgrade >/dev/null ||
	fail "--allow-downgrade"
assert_eq "1.0" "$(capp info "$ID" --json | jq -r .version)" "the version the user asked for"

# A mirror that serves an endless index fills neither memory nor disk: 4 MiB is the cap.
head -c $((5 << 20)) /dev/zero | tr '\0' ' ' >"$APPS_WORK/store/index.json"
before=$(disk_state)
expect_refusal 1 "index.json: larger than the 4194304 bytes expected" capp update --yes
assert_eq "$before" "$(disk_state)" "the disk after an oversized index"
