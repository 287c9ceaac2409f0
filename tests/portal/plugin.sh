#!/usr/bin/env bash
# The dialog plugin ABI: a plugin built out of tree against the installed header
# (meson install to a temporary prefix, then pkg-config) is loaded from the
# configured plugin dir, draws above the app windows, takes the keyboard while it is
# shown (the app under it sees none of it) and the pointer over it, and answers; a
# plugin built for another ABI version, or one that is missing, is refused with a log
# line and the built-in UI stays.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"
for tool in meson ninja pkg-config; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done

cordon_test_init
prefix="$TEST_TMP/prefix"
meson setup "$TEST_TMP/cordon-build" "$CORDON_SOURCE_ROOT" --prefix "$prefix" -Dtests=false \
	>"$TEST_TMP/install.log" 2>&1 || fail "meson setup of cordon failed (install.log)"
meson install -C "$TEST_TMP/cordon-build" --no-rebuild --tags devel >>"$TEST_TMP/install.log" \
	2>&1 || fail "meson install of the plugin header failed (install.log)"
pc=$(find "$prefix" -name cordon-portal-ui.pc)
[[ -n "$pc" ]] || fail "no cordon-portal-ui.pc installed under $prefix"
[[ -f "$prefix/include/cordon/portal-ui.h" ]] || fail "portal-ui.h not installed"
[[ -f "$prefix/include/cordon/camera-frame.h" ]] || fail "camera-frame.h not installed"
assert_eq 4 "$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=abi_version cordon-portal-ui)" \
	"the ABI version in the .pc file"
plugins="$TEST_TMP/plugin-build"
PKG_CONFIG_PATH=$(dirname "$pc") meson setup "$plugins" \
	"$CORDON_SOURCE_ROOT/tests/portal/example-plugin" >"$TEST_TMP/plugin.log" 2>&1 ||
	fail "the out-of-tree plugin does not configure (plugin.log)"
ninja -C "$plugins" >>"$TEST_TMP/plugin.log" 2>&1 || fail "the plugin does not build (plugin.log)"

portal_sandbox_init org.example.Plugin
host="$TEST_TMP/host"
mkdir -p "$host" "$TEST_TMP/out"
echo "chosen by the plugin" >"$host/file.txt"
export XDG_STATE_HOME="$TEST_TMP/state"
config() {
	printf '[portal]\nui = %s\nplugin-dir = %s\nui-options = %s\n' "$1" "$plugins" \
		"$host/file.txt" >"$TEST_TMP/cordon.ini"
}
config example-ui
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
grep -q "Loaded the portal UI plugin 'example' from $plugins/example-ui.so" "$CORDON_LOG" ||
	fail "the plugin was not loaded"
grep -q "example plugin: ready, ABI 4" "$CORDON_LOG" || fail "the plugin did not start"

# An app window that covers the middle of the screen, with the keyboard.
start_client app "$CORDON_TEST_CLIENTS/key-client" --app-id under --width 1280 --height 720
wait_for_window under
wait_for_focus under
screenshot HEADLESS-1 "$TEST_TMP/before.png"
assert_eq 0 "$(color_permille "$TEST_TMP/before.png" "255 0 255" 8 440 240 400 40)" \
	"magenta before any dialog"

pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
# The dialog (400x240, centred) shows its magenta title bar above the app window.
title_shown() {
	screenshot HEADLESS-1 "$TEST_TMP/dialog.png"
	(($(color_permille "$TEST_TMP/dialog.png" "255 0 255" 8 440 240 400 40) > 990))
}
# A key held down in the app while the dialog comes (the key that asked for it, say).
ctl key press a >/dev/null
wait_for "the app to get the press" grep -q "key sym=a .*state=pressed" "$TEST_TMP/app.log"
start_client chooser "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the request" pending 1
wait_for "the dialog above the app" title_shown
# A Return the moment the dialog shows is dropped by cordon (the grace period): the
# plugin, which would choose on Return, never sees it.
ctl key click Return >/dev/null
assert "the plugin did not answer a Return typed within the grace" pending 1
grep -q "ignored a key press within" "$CORDON_LOG" || fail "cordon did not drop the Return"
dialog_ready
# Its release still reaches the app, or the app would repeat the key forever.
ctl key release a >/dev/null
wait_for "the app to get the release" grep -q "key sym=a .*state=released" "$TEST_TMP/app.log"
grep -q "example plugin: dialog for 'org.example.Plugin' (flatpak, sandboxed)" "$CORDON_LOG" ||
	fail "the plugin did not get the app's identity from its tag"

# Keys go to the dialog, not to the app under it.
ctl key click x >/dev/null
wait_for "the plugin to get the key" grep -q "example plugin: key .* 'x'" "$CORDON_LOG"
! grep -q "key sym=x" "$TEST_TMP/app.log" || fail "the app saw a key typed into the dialog"
ctl key click Return >/dev/null
wait_for "cordon-portal to finish" not client_alive chooser
assert_eq "chosen by the plugin" "$(cat "$TEST_TMP/out/file.txt")" "the file chosen by Return"
wait_for "the dialog to go" not title_shown
# Once the dialog is gone, the app has the keyboard again.
ctl key click y >/dev/null
wait_for "the app to get keys again" grep -q "key sym=y" "$TEST_TMP/app.log"

# The pointer: a click on the plugin's button (400+140.., 240+160..) chooses.
rm -f "$TEST_TMP/out/file.txt"
start_client chooser2 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the second dialog" title_shown
dialog_ready
ctl pointer move 640 424 >/dev/null
ctl pointer button left click >/dev/null
wait_for "cordon-portal to finish after the click" not client_alive chooser2
assert_eq "chosen by the plugin" "$(cat "$TEST_TMP/out/file.txt")" "the file chosen by a click"

# Escape cancels.
start_client chooser3 "${in_sandbox[@]}" "$CORDON_PORTAL" open-file --output "$TEST_TMP/out"
wait_for "the third dialog" title_shown
dialog_ready
ctl key click Escape >/dev/null
wait_for "the cancel" grep -qx "cordon-portal: cancelled" "$TEST_TMP/chooser3.log"
cordon_stop

# A plugin built for another ABI version is refused; so is a missing one.
config wrong-abi
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
grep -q "Portal UI plugin $plugins/wrong-abi.so has ABI version 999, cordon needs 1 to 4; keeping the built-in UI" \
	"$CORDON_LOG" || fail "the wrong ABI was not refused with a log line"
! grep -q "Loaded the portal UI plugin" "$CORDON_LOG" || fail "the wrong-ABI plugin was loaded"
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI did not stay"
cordon_stop
# A plugin of ABI 1 still loads; camera requests, which it does not know, fail as unavailable.
config abi-one
mkdir -p "$XDG_DATA_HOME/cordon/camera-providers"
printf '[Camera Provider]\nName = P\nMimeTypes = image/png\nExec = %s\n' "$CORDON_CAMERA_PATTERN" \
	>"$XDG_DATA_HOME/cordon/camera-providers/pattern.provider"
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
grep -q "Loaded the portal UI plugin 'example' from $plugins/abi-one.so" "$CORDON_LOG" ||
	fail "the ABI 1 plugin was not loaded"
rc=0
"${in_sandbox[@]}" "$CORDON_PORTAL" take-photo --output "$TEST_TMP/photo.png" \
	2>"$TEST_TMP/photo.err" || rc=$?
assert_eq 3 "$rc" "a photo with an ABI 1 plugin"
grep -q "unavailable: no dialog can be shown" "$TEST_TMP/photo.err" ||
	fail "the photo says: $(cat "$TEST_TMP/photo.err")"
grep -q "The portal UI 'example' (ABI 1) has no camera dialog" "$CORDON_LOG" ||
	fail "cordon did not log why"
cordon_stop
config missing
cordon_start --verbose --config "$TEST_TMP/cordon.ini"
grep -q "Cannot load the portal UI plugin $plugins/missing.so: .*; keeping the built-in UI" \
	"$CORDON_LOG" || fail "a missing plugin was not reported"
grep -q "Portal dialogs by the 'builtin' UI" "$CORDON_LOG" || fail "the built-in UI did not stay"
cordon_stop
