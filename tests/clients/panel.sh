#!/usr/bin/env bash
# A layer-shell panel's exclusive zone: a maximized window fills what the panel
# leaves, and grows back over the space when the panel goes.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
TC=$CORDON_TEST_CLIENTS

cordon_start --output 1280x720
start_client panel "$TC/panel-client" --height 40
wait_for "the panel's configure" grep -q '^layer-configure width=1280 height=40$' \
	"$TEST_TMP/panel.log"

start_client app "$TC/focus-client" --app-id app
wait_for_window app
# The default binding Logo+Up maximizes the focused window.
ctl key super+Up
maximized_below_panel() {
	window_json app | jq -e '.maximized and .y >= 40 and .y + .height <= 720
		and .height >= 720 - 40 - 2 * 8' >/dev/null
}
wait_for "the maximized window below the panel" maximized_below_panel

stop_client panel
maximized_full() {
	window_json app | jq -e '.maximized and .y < 40 and .height > 720 - 40' >/dev/null
}
wait_for "the maximized window to take the panel's space" maximized_full
