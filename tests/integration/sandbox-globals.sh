#!/usr/bin/env bash
# Sandbox identity end to end: a client inside a flatpak-named cgroup is tagged
# from the kernel's view of its socket and does not see privileged globals; a
# host client beside it sees them all. The app_id a client sets changes nothing.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"

test_cgroup app-flatpak-org.example.Sandboxed-42.scope
scope=$TEST_CGROUP
# A unit name the tag parser rejects (a bad \x escape): its clients' sandbox is unknown.
test_cgroup 'app-gnome-org.Foo\xzz-1.scope'
malformed=$TEST_CGROUP
mount=$CORDON_CGROUP_MOUNT

cordon_start
# "${in_scope[@]}" CMD...: runs CMD inside the sandbox-named cgroup; in_malformed
# inside the one with the malformed name.
in_scope=("${IN_CGROUP[@]}" "$scope")
in_malformed=("${IN_CGROUP[@]}" "$malformed")

privileged=(zwlr_screencopy_manager_v1 zwlr_data_control_manager_v1 ext_data_control_manager_v1
	zwp_virtual_keyboard_manager_v1 zwlr_virtual_pointer_manager_v1 zwlr_layer_shell_v1
	zwlr_foreign_toplevel_manager_v1 zwlr_export_dmabuf_manager_v1
	zwlr_output_manager_v1 zwlr_gamma_control_manager_v1 ext_idle_notifier_v1
	ext_image_copy_capture_manager_v1 ext_output_image_capture_source_manager_v1
	ext_foreign_toplevel_image_capture_source_manager_v1 ext_foreign_toplevel_list_v1
	zwp_keyboard_shortcuts_inhibit_manager_v1 ext_session_lock_manager_v1)
everyday=(wl_compositor wl_shm wl_seat xdg_wm_base wl_data_device_manager wl_output
	wp_cursor_shape_manager_v1 zwp_relative_pointer_manager_v1 zwp_pointer_constraints_v1
	wp_viewporter wp_single_pixel_buffer_manager_v1 wp_alpha_modifier_v1
	wp_fractional_scale_manager_v1 wp_content_type_manager_v1 wp_presentation
	xdg_wm_dialog_v1 xdg_toplevel_icon_manager_v1 xdg_system_bell_v1)

host_globals=$(wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2)
sandbox_globals=$("${in_scope[@]}" wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2)
# Fail closed: a client whose sandbox cannot be told is treated as sandboxed.
unknown_globals=$("${in_malformed[@]}" wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2)
for global in "${privileged[@]}"; do
	grep -qx "$global" <<<"$host_globals" || fail "the host client does not see $global"
	! grep -qx "$global" <<<"$sandbox_globals" || fail "the sandboxed client sees $global"
	! grep -qx "$global" <<<"$unknown_globals" || fail "the unknown-sandbox client sees $global"
done
for global in "${everyday[@]}"; do
	grep -qx "$global" <<<"$sandbox_globals" || fail "the sandboxed client misses $global"
done

# The tag, as cordonctl reports it, comes from the cgroup; the client's own app_id
# claims to be a host tool and changes nothing.
start_client app "${in_scope[@]}" "$CORDON_TEST_CLIENTS/focus-client" --app-id org.gnome.Shell
wait_for_window org.gnome.Shell
pid=$(window_json org.gnome.Shell | jq -r .pid)
client=$(ctl --json clients | jq -c --argjson pid "$pid" '.[] | select(.pid == $pid)')
assert_eq true "$(jq -r .sandboxed <<<"$client")" "sandboxed flag"
assert_eq flatpak "$(jq -r .engine <<<"$client")" "engine"
assert_eq org.example.Sandboxed "$(jq -r .app_id <<<"$client")" "app id from the cgroup"
assert_eq 42 "$(jq -r .instance <<<"$client")" "instance"
window=$(window_json org.gnome.Shell)
assert_eq "true flatpak org.example.Sandboxed" \
	"$(jq -r '"\(.sandboxed) \(.sandbox_engine) \(.sandbox_app_id)"' <<<"$window")" \
	"the window's owner tag"

# Tagged once, at connect: moving the client out of its cgroup afterwards (here as
# root; the launcher keeps apps from doing it) changes nothing.
echo "$pid" >"$mount/cgroup.procs"
client=$(ctl --json clients | jq -c --argjson pid "$pid" '.[] | select(.pid == $pid)')
assert_eq "true flatpak org.example.Sandboxed" \
	"$(jq -r '"\(.sandboxed) \(.engine) \(.app_id)"' <<<"$client")" "the tag after a cgroup move"

# The unknown-sandbox client, as cordonctl reports it.
start_client unknown "${in_malformed[@]}" "$CORDON_TEST_CLIENTS/focus-client" --app-id unknown
wait_for_window unknown
upid=$(window_json unknown | jq -r .pid)
client=$(ctl --json clients | jq -c --argjson pid "$upid" '.[] | select(.pid == $pid)')
assert_eq "true true unknown" \
	"$(jq -r '"\(.identified) \(.sandboxed) \(.engine)"' <<<"$client")" "an unknown sandbox"

# How many globals each client can see, as cordonctl counts them, is what wayland-info
# saw from the same place: all of them for the host, the allow-list in the sandbox.
start_client host "$CORDON_TEST_CLIENTS/focus-client" --app-id host-window
wait_for_window host-window
hpid=$(window_json host-window | jq -r .pid)
assert_eq "$(wc -l <<<"$host_globals")" "$(ctl --json clients | jq --argjson pid "$hpid" \
	'first(.[] | select(.pid == $pid)).globals')" "globals a host client sees"
assert_eq "$(wc -l <<<"$sandbox_globals")" "$(ctl --json clients | jq --argjson pid "$pid" \
	'first(.[] | select(.pid == $pid)).globals')" "globals the sandboxed client sees"
# Where each tag came from: the sandbox's cgroup; for the test's own client, a cgroup
# naming no app is "host" (under a systemd app scope it would be that app, from the cgroup).
assert_eq cgroup "$(ctl --json clients | jq -r --argjson pid "$pid" \
	'first(.[] | select(.pid == $pid)).tag_source')" "the sandboxed client's tag source"
assert_eq true "$(ctl --json clients | jq -r --argjson pid "$hpid" \
	'first(.[] | select(.pid == $pid)) | (.engine == "host") == (.tag_source == "host")')" \
	"the host client's tag source"
# The plain listings show the tag beside the label the app chose (and the label cordon
# draws from the tag).
grep -q "org.gnome.Shell .*\[sandboxed flatpak org.example.Sandboxed\] label=#[0-9a-f]\{6\} \"org.example.Sandboxed · flatpak\"$" \
	<<<"$(ctl windows)" ||
	fail "cordonctl windows does not show the owner's tag: $(ctl windows)"
grep -q "^pid=$pid .*globals=$(wc -l <<<"$sandbox_globals") flatpak org.example.Sandboxed instance=42 \[sandboxed\] from cgroup$" \
	<<<"$(ctl clients)" || fail "cordonctl clients does not show the tag: $(ctl clients)"
