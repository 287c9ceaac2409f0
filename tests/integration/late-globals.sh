#!/usr/bin/env bash
# The global filter also decides for globals created after a client connected: a
# hot-plugged output (cordonctl output-add) is announced to a host client and to a
# sandboxed one alike, as one new global and nothing more, and the sandboxed client
# still sees no privileged global afterwards.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"

cordon_start
sock="$TEST_TMP/app.sock"
start_client host "$TC/focus-client" --app-id host-window
start_client launcher "$TC/security-context-client" --listen "$sock" --engine org.flatpak \
	--app-id org.example.Late --commit -- "$TC/focus-client" --app-id sandboxed-window
wait_for_window host-window
wait_for_window sandboxed-window
host_pid=$(window_json host-window | jq -r .pid)
sandboxed_pid=$(window_json sandboxed-window | jq -r .pid)

globals_count() {
	ctl --json clients | jq --argjson pid "$1" 'first(.[] | select(.pid == $pid)).globals'
}
host_before=$(globals_count "$host_pid")
sandboxed_before=$(globals_count "$sandboxed_pid")
((sandboxed_before < host_before)) || fail "the sandboxed client sees as many globals as the host"

# Bad sizes are refused with a reason.
for size in 0x600 800x 800x600x1 abc 99999x10; do
	! ctl output-add "$size" >/dev/null 2>&1 || fail "output-add $size was accepted"
done

name=$(ctl --json output-add 800x600 | jq -r .name)
assert_eq 2 "$(ctl --json outputs | jq length)" "outputs after output-add"
count_is() {
	[[ "$(globals_count "$1")" == "$2" ]]
}
wait_for "the host client to be told of the new output" count_is "$host_pid" $((host_before + 1))
wait_for "the sandboxed client to be told of the new output" \
	count_is "$sandboxed_pid" $((sandboxed_before + 1))

# A new connection through the listener sees both outputs, and still nothing privileged.
info=$(WAYLAND_DISPLAY="$sock" timeout 20 wayland-info)
assert_eq 2 "$(grep -c "interface: 'wl_output'" <<<"$info")" "outputs a sandboxed client sees"
for global in zwlr_screencopy_manager_v1 zwlr_output_manager_v1 zwlr_layer_shell_v1; do
	! grep -q "interface: '$global'" <<<"$info" || fail "the sandboxed client sees $global"
done
grep -q "$name" <<<"$(ctl outputs)" || fail "the new output $name is not listed"
