#!/usr/bin/env bash
# A real Flatpak (1.18) app under cordon. The test makes a tiny runtime from the host's
# wayland-info and weston-simple-shm (an ostree commit, as a runtime repository holds
# them), an app on it with --socket=wayland, and installs both for the user from a local
# repository; `flatpak run` then does what it does for any app: it finds
# wp_security_context_manager_v1 and hands cordon a listener with engine "flatpak", the
# app id and its instance id. cordon tags the app's connection from that (not from
# anything the app says), labels its window "org.example.App · flatpak", and the app
# sees none of the host-only globals that a host client sees.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
for tool in flatpak ostree bwrap wayland-info weston-simple-shm; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

cordon_test_init
export FLATPAK_USER_DIR="$TEST_TMP/flatpak"
repo="$TEST_TMP/repo"
runtime="$TEST_TMP/runtime"

# The runtime: the two clients and the libraries they load, nothing else.
mkdir -p "$runtime/files/bin" "$runtime/files/lib" "$runtime/files/lib64"
cp /usr/bin/wayland-info /usr/bin/weston-simple-shm /bin/sh "$runtime/files/bin/"
ldd /usr/bin/wayland-info /usr/bin/weston-simple-shm /bin/sh | awk '/=>/ { print $3 }' |
	sort -u | xargs -I{} cp {} "$runtime/files/lib/"
cp /lib64/ld-linux-x86-64.so.2 "$runtime/files/lib/"
ln -s ../lib/ld-linux-x86-64.so.2 "$runtime/files/lib64/ld-linux-x86-64.so.2"
# flatpak compares the commit's xa.metadata with the file byte for byte: no final newline
# to lose in $(...).
printf '[Runtime]\nname=org.example.Platform\nruntime=org.example.Platform/x86_64/1\nsdk=org.example.Platform/x86_64/1' \
	>"$runtime/metadata"
ostree --repo="$repo" init --mode=archive-z2
ostree --repo="$repo" commit -b runtime/org.example.Platform/x86_64/1 \
	--bind-ref=runtime/org.example.Platform/x86_64/1 --tree=dir="$runtime" \
	--add-metadata-string "xa.metadata=$(cat "$runtime/metadata")" >/dev/null
flatpak build-update-repo "$repo" >/dev/null
flatpak --user remote-add --no-gpg-verify local "$repo"
flatpak --user install -y --noninteractive local runtime/org.example.Platform/x86_64/1 >/dev/null

# The app: a window of weston-simple-shm's, and the Wayland socket.
app="$TEST_TMP/app"
flatpak build-init "$app" org.example.App org.example.Platform org.example.Platform 1 >/dev/null
printf '#!/bin/sh\nexec weston-simple-shm\n' >"$app/files/run"
chmod +x "$app/files/run"
flatpak build-finish --socket=wayland --command=/app/run "$app" >/dev/null
flatpak build-export "$repo" "$app" >/dev/null
flatpak --user install -y --noninteractive local app/org.example.App/x86_64/master >/dev/null
echo "flatpak $(flatpak --version | awk '{ print $2 }'): runtime and app installed"

cordon_start --verbose
start_client app flatpak run org.example.App
wait_for "flatpak's security context" grep -q \
	"Security context listening (flatpak org.example.App instance [0-9]*)" "$CORDON_LOG"
_labelled() {
	ctl --json windows | jq -e 'any(.[]; .label.text == "org.example.App · flatpak")' >/dev/null
}
wait_for "the Flatpak app's labelled window" _labelled
echo "the window is labelled '$(ctl --json windows | jq -r '.[0].label.text')'"

# What the app can bind, against what a host client can.
privileged='^(zwlr_screencopy_manager_v1|zwlr_layer_shell_v1|wp_security_context_manager_v1|zwp_virtual_keyboard_manager_v1|ext_data_control_manager_v1|zwp_input_method_manager_v2)$'
interfaces() { sed -n "s/^interface: '\([^']*\)'.*/\1/p"; }
host=$(timeout 20 wayland-info | interfaces)
inside=$(timeout 20 flatpak run --command=wayland-info org.example.App | interfaces)
assert_eq 6 "$(grep -cE "$privileged" <<<"$host")" "host-only globals a host client sees"
assert_eq 0 "$(grep -cE "$privileged" <<<"$inside")" "host-only globals the Flatpak app sees"
grep -qx wl_compositor <<<"$inside" || fail "wayland-info in the Flatpak app saw no wl_compositor"
echo "inside: $(grep -c . <<<"$inside") globals, none of the host-only ones"
