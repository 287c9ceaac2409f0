#!/usr/bin/env bash
# grim, through wlr-screencopy and xdg-output, captures the whole layout: one output,
# then two outputs laid out left to right.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v grim >/dev/null || skip "grim not found (Debian package grim)"

cordon_start
timeout 20 grim "$TEST_TMP/one.png" 2>"$TEST_TMP/grim.log" || fail "grim failed"
assert_eq "1280 720" "$(png_probe "$TEST_TMP/one.png" size)" "grim's image of one 1280x720 output"

# What grim sees is what cordon renders: compare a corner pixel with cordonctl's own.
screenshot HEADLESS-1 "$TEST_TMP/ctl.png"
assert_eq "$(png_probe "$TEST_TMP/ctl.png" pixel 1275 715 | cut -d' ' -f1-3)" \
	"$(png_probe "$TEST_TMP/one.png" pixel 1275 715 | cut -d' ' -f1-3)" \
	"the corner pixel in grim's capture and in cordonctl screenshot"
cordon_stop

cordon_start --output 800x600 --output 640x480
outputs=$(ctl --json outputs)
layout=$(jq -r '"\(map(.x + .width) | max) \(map(.y + .height) | max)"' <<<"$outputs")
assert_eq "1440 600" "$layout" "layout extent of an 800x600 and a 640x480 output side by side"
assert_eq "HEADLESS-1 0 0 800 600,HEADLESS-2 800 0 640 480" \
	"$(jq -r 'sort_by(.x) | map("\(.name) \(.x) \(.y) \(.width) \(.height)") | join(",")' <<<"$outputs")" \
	"outputs laid out left to right"

timeout 20 grim "$TEST_TMP/two.png" 2>>"$TEST_TMP/grim.log" || fail "grim failed on two outputs"
assert_eq "1440 600" "$(png_probe "$TEST_TMP/two.png" size)" "grim's image of both outputs"
timeout 20 grim -o HEADLESS-2 "$TEST_TMP/second.png" 2>>"$TEST_TMP/grim.log" ||
	fail "grim -o HEADLESS-2 failed"
assert_eq "640 480" "$(png_probe "$TEST_TMP/second.png" size)" "grim's image of HEADLESS-2"
echo "grim captured 1280x720, then 1440x600 across two outputs"
