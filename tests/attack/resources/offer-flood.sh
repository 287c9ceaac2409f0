#!/usr/bin/env bash
# A sandboxed app offers 100,000 mime types of 4,000 bytes each on its data sources to grow
# cordon's memory (SECURITY-NOTES: cordon grew from 14 to 407 MB). The types are charged to
# the app's budget as they arrive: past CORDON_APP_MAX_MIME_TYPES types or
# CORDON_APP_MAX_MIME_BYTES bytes the client gets a protocol error and is disconnected,
# cordon's resident memory stays bounded, one line names the app, and what the app
# offered is given back when its sources go (a later, ordinary copy works again).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/resources/lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (wayland-utils)"

app=org.example.Offers
small_asan_quarantine
cordon_start
test_cgroup "app-flatpak-$app-1.scope"
in_app() {
	timeout 60 "${IN_CGROUP[@]}" "$TEST_CGROUP" "$@"
}

# Positive control: an ordinary source (a few dozen types) is served, and kept.
start_client ordinary "${IN_CGROUP[@]}" "$TEST_CGROUP" "$ATTACK/offer-flood" --count 40 \
	--length 40 --keep
wait_log ordinary '^ok offered=40$'
base=$(anon_kib)

since=$SECONDS
# The flood: over 50 sources, so that a cap per source would not be enough.
in_app "$ATTACK/offer-flood" --count 100000 --length 4000 --sources 50 >"$TEST_TMP/flood.log" \
	2>&1 || true
result=$(grep -E '^(ok|protocol-error|disconnected)' "$TEST_TMP/flood.log" || true)
echo "flood: $result" >&2
[[ -n "$result" ]] || fail "the flood printed no result (the probe did not run): $(cat "$TEST_TMP/flood.log")"
[[ "$result" == protocol-error\ * ]] || fail "the flood was not refused with a protocol error: $result"
offered=${result##*offered=}
((offered > 0 && offered < 100000)) || fail "the flood offered $offered types before the refusal"
grep -q "too many mime types" "$TEST_TMP/flood.log" ||
	fail "the client was not told why: $(tail -n 3 "$TEST_TMP/flood.log")"
now=$(anon_kib)
echo "cordon RssAnon: $base KiB before, $now KiB after $offered offers of 4000 bytes" >&2
# 256 KiB of types are allowed; the rest is slack for allocator and sanitizer noise.
((now - base < 48 * 1024)) || fail "cordon grew by $((now - base)) KiB"

lines=$(grep -c "App flatpak/$app reached its cap of" "$CORDON_LOG" || true)
assert_log_lines "$lines" "$since" "the app at its cap"
client_alive ordinary || fail "the app's ordinary source (another connection) was cut off too"
host_answers 5 || fail "a host client got no answer after the flood"

# What the flood held was given back with its connection: the app may offer again.
in_app "$ATTACK/offer-flood" --count 200 --length 1000 >"$TEST_TMP/again.log" 2>&1 ||
	fail "an ordinary offer after the flood failed: $(cat "$TEST_TMP/again.log")"
grep -q '^ok offered=200$' "$TEST_TMP/again.log" ||
	fail "an ordinary offer after the flood was refused: $(cat "$TEST_TMP/again.log")"
