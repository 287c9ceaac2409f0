#!/usr/bin/env bash
# An app that draws to a visible output is not hidden (docs/freeze.md): with its window
# minimized but a layer surface of its own mapped (granted layer-shell by its policy),
# it is not frozen; once the layer surface goes, it is frozen after the delay.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

test_cgroup "app-flatpak-org.example.Widget-$$.scope"
scope=$TEST_CGROUP
[[ -e "$scope/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"
cordon_test_init
delay_ms=400
cat >"$TEST_TMP/cordon.ini" <<INI
[freeze]
delay = ${delay_ms}ms
INI
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Widget]
globals = zwlr_layer_shell_v1
INI
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"
frozen() {
	grep -qx 'frozen 1' "$scope/cgroup.events"
}

start_client window "${IN_CGROUP[@]}" "$scope" "$TC/focus-client" --app-id widget-window
wait_for_window widget-window
start_client panel "${IN_CGROUP[@]}" "$scope" "$TC/panel-client" --height 30
wait_log panel '^layer-configure '

# The window minimized, the panel still on the output: the app stays awake.
ctl minimize widget-window >/dev/null
sleep "$(awk -v d="$delay_ms" 'BEGIN { print 3 * d / 1000 }')"
! frozen || fail "an app with a layer surface on a visible output was frozen"
assert_eq thawed "$(ctl --json apps | jq -r '.[] | select(.app_id == "org.example.Widget") | .state')" \
	"the app's state while its panel shows"

# The panel goes: nothing of the app is visible, so it is frozen after the delay.
stop_client panel
wait_for "the app to be frozen once its panel is gone" frozen
echo "ok: a visible layer surface keeps its app awake; without it the app is frozen"
