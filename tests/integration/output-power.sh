#!/usr/bin/env bash
# wlr-output-power-management with wlopm, the tool an idle daemon runs: the output goes
# dark (disabled, so nothing is drawn or scanned out) and comes back with the window where
# it was and drawn again; wlopm reads the mode back both times. The global is host-only
# (compositor/global_filter.c; unit-global-tables checks that it is classified).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wlopm >/dev/null || skip "wlopm not found (Debian package wlopm)"

output_enabled() {
	ctl --json outputs | jq -r '.[] | select(.name == "HEADLESS-1") | .enabled'
}
power_mode() {
	timeout 20 wlopm | awk '$1 == "HEADLESS-1" { print $2 }'
}

cordon_start
start_client surface "$TC/surface-client" --app-id org.example.Shown --color ffff0000
wait_for_window org.example.Shown
before=$(geometry org.example.Shown)
read -r x y w h <<<"$before"
assert_eq on "$(power_mode)" "the mode wlopm reads at the start"

timeout 20 wlopm --off HEADLESS-1 || fail "wlopm --off failed"
# A function, run again at each try (wait_for's arguments are expanded once, at its call).
output_enabled_is() {
	[[ "$(output_enabled)" == "$1" ]]
}
wait_for "the output switched off" output_enabled_is false
assert_eq off "$(power_mode)" "the mode wlopm reads after --off"
assert_eq "$before" "$(geometry org.example.Shown)" "the window's place while the output is off"
echo "off: the output is disabled and the window keeps its place ($before)"

timeout 20 wlopm --on HEADLESS-1 || fail "wlopm --on failed"
wait_for "the output switched on" output_enabled_is true
assert_eq on "$(power_mode)" "the mode wlopm reads after --on"
shot="$TEST_TMP/on.png"
screenshot HEADLESS-1 "$shot"
red=$(png_probe "$shot" count-color 255 0 0 2 $((x + w / 4)) $((y + h / 4)) $((w / 2)) $((h / 2)))
assert_eq $(((w / 2) * (h / 2))) "$red" "red pixels of the window after switching back on"
echo "on: the window is drawn again where it was"
