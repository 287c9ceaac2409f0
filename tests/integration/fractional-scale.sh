#!/usr/bin/env bash
# fractional-scale-v1 follows the output's scale: a window is told 120 (in 120ths) at
# scale 1, and 180 once wlr-randr (through wlr-output-management) sets the output to
# 1.5, and 120 again when it is set back.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wlr-randr >/dev/null || skip "wlr-randr not found (Debian package wlr-randr)"

cordon_start
start_client surface "$TC/surface-client" --app-id org.example.Scaled
wait_for_window org.example.Scaled
wait_log surface '^preferred-scale 120$'

timeout 20 wlr-randr --output HEADLESS-1 --scale 1.5 || fail "wlr-randr --scale 1.5 failed"
wait_log surface '^preferred-scale 180$'
assert_eq "Scale: 1.500000" "$(timeout 20 wlr-randr | grep -o 'Scale: [0-9.]*')" \
	"the scale wlr-randr reads back"

timeout 20 wlr-randr --output HEADLESS-1 --scale 1 || fail "wlr-randr --scale 1 failed"
# A function, run again at each try (arguments to wait_for are expanded once, at its call).
told_scale_1() {
	[[ "$(log_last surface '^preferred-scale')" == "preferred-scale 120" ]]
}
wait_for "the window told scale 1 again" told_scale_1
echo "preferred scale 120, 180 at output scale 1.5, 120 again"
