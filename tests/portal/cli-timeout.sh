#!/usr/bin/env bash
# cordon-portal never waits for ever (bench/run once hung on it): with two streaming
# providers and nobody to answer, a camera stream ends after --timeout with "no answer"
# and its request goes from cordon; a file request the same; a provider that sends no
# frame (cordon's own camera-timeout-ms set far beyond) ends the stream after --timeout
# with "no frame"; --timeout refuses what is not a number of seconds. Positive control:
# the answer naming the test pattern gives frames with both providers installed.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
: "${CORDON_CAMERA_PATTERN:?}"

app=org.example.Timeout
camera_providers_init "Stream = true"
bin="$TEST_TMP/bin"
mkdir -p "$bin"
# A second provider that streams nothing, as a V4L2 provider without a camera might.
printf '#!/bin/sh\nexec sleep 600\n' >"$bin/silent"
chmod +x "$bin/silent"
printf '[Camera Provider]\nName = Silent\nMimeTypes = image/png\nExec = %s\nStream = true\n' \
	"$bin/silent" >"$providers/silent.provider"
portal_auto_ini >"$TEST_TMP/cordon.ini"
printf 'camera-launcher = none\ncamera-timeout-ms = 600000\n' >>"$TEST_TMP/cordon.ini"
portal_start --verbose --config "$TEST_TMP/cordon.ini"
portal_sandbox_init "$app"
ctl permissions grant "$app" camera >/dev/null
no_requests() {
	[[ "$(ctl --json portal-requests | jq length)" == 0 ]]
}

# timed CMD...: portal CMD..., its milliseconds in $ms.
timed() {
	local start
	start=$(date +%s%N)
	portal "$@"
	ms=$((($(date +%s%N) - start) / 1000000))
}

# Nobody answers (no answers file): the stream request waits for a choice of provider.
timed --timeout 2 camera-stream --frames 3
assert_eq 3 "$rc" "a stream nobody answers ($err)"
[[ "$err" == *"no answer within 2 s"* ]] || fail "no reason given: $err"
((ms >= 2000 && ms < 10000)) || fail "the stream gave up after $ms ms, not 2 s"
wait_for "the abandoned request to leave cordon" no_requests
echo "stream without an answer: ended after $ms ms"

timed --timeout 2 open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "a file request nobody answers ($err)"
[[ "$err" == *"no answer within 2 s"* ]] || fail "no reason given: $err"
wait_for "the abandoned request to leave cordon" no_requests
echo "file request without an answer: ended after $ms ms"

# The provider sends nothing and cordon would wait ten minutes: the app waits 2 s.
answer "camera-provider=silent" "camera-stream=allow"
timed --timeout 2 camera-stream --frames 3
assert_eq 1 "$rc" "a stream without frames ($out; $err)"
[[ "$out" == stream* ]] || fail "the stream did not open: $out"
[[ "$err" == *"no frame within 2 s"* ]] || fail "no reason given: $err"
((ms >= 2000 && ms < 10000)) || fail "the stream gave up after $ms ms, not 2 s"
echo "stream without frames: ended after $ms ms"

for bad in 0 -1 2x "" 86401; do
	portal --timeout "$bad" open-file --output "$TEST_TMP/out"
	assert_eq 2 "$rc" "--timeout '$bad' ($err)"
done
portal --timeout
assert_eq 2 "$rc" "--timeout without a value ($err)"

# Positive control: both providers offered, the answer names the pattern, frames come.
answer "camera-provider=pattern" "camera-stream=allow"
portal --timeout 20 camera-stream --frames 3
assert_eq 0 "$rc" "the stream from the named provider ($err)"
assert_eq 3 "$(grep -c '^frame ' <<<"$out")" "its frames"
grep -q "Portal camera stream [0-9a-f]*: provider pattern" "$CORDON_LOG" ||
	fail "cordon did not stream from the pattern"
echo "positive: the named provider streams beside a silent one"
