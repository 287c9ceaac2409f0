#!/usr/bin/env bash
# wayland-info, a plain client, sees every global cordon promises to unsandboxed
# clients, and a seat with both a pointer and a keyboard.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"

cordon_start
info="$TEST_TMP/wayland-info.txt"
timeout 20 wayland-info >"$info" 2>"$TEST_TMP/wayland-info.log" ||
	fail "wayland-info exited with status $?"

expected=(
	wl_compositor wl_subcompositor wl_shm wl_data_device_manager
	zwp_primary_selection_device_manager_v1 zxdg_output_manager_v1 wp_viewporter
	wp_presentation zwlr_screencopy_manager_v1 zwlr_export_dmabuf_manager_v1
	zwlr_data_control_manager_v1 ext_data_control_manager_v1 zwlr_layer_shell_v1
	zwlr_foreign_toplevel_manager_v1 xdg_activation_v1 zwp_virtual_keyboard_manager_v1
	zwlr_virtual_pointer_manager_v1 ext_idle_notifier_v1 zwlr_gamma_control_manager_v1
	zwlr_output_manager_v1 xdg_wm_base zxdg_decoration_manager_v1 wl_seat wl_output
	wp_cursor_shape_manager_v1 zwp_relative_pointer_manager_v1 zwp_pointer_constraints_v1
	zwp_keyboard_shortcuts_inhibit_manager_v1 ext_session_lock_manager_v1
	wp_single_pixel_buffer_manager_v1 wp_alpha_modifier_v1 wp_fractional_scale_manager_v1
	wp_content_type_manager_v1 xdg_wm_dialog_v1 xdg_toplevel_icon_manager_v1 xdg_system_bell_v1
	ext_foreign_toplevel_list_v1 ext_image_copy_capture_manager_v1
	ext_output_image_capture_source_manager_v1 ext_foreign_toplevel_image_capture_source_manager_v1
)
missing=()
for interface in "${expected[@]}"; do
	grep -q "^interface: '$interface'," "$info" || missing+=("$interface")
done
if ((${#missing[@]})); then
	fail "globals missing from wayland-info: ${missing[*]} (full list in wayland-info.txt)"
fi

# wayland-info prints the seat's properties indented under its interface line.
capabilities=$(awk '
	/^interface: / { in_seat = ($0 ~ /^interface: .wl_seat./) }
	in_seat && /capabilities:/ { sub(/.*capabilities:[ \t]*/, ""); print; exit }
' "$info")
for capability in pointer keyboard; do
	[[ " $capabilities " == *" $capability "* ]] ||
		fail "wl_seat capabilities are '$capabilities': no $capability"
done

outputs=$(grep -c "^interface: 'wl_output'," "$info")
assert_eq 1 "$outputs" "number of wl_output globals with one --output"
echo "all ${#expected[@]} globals present; seat capabilities: $capabilities"
