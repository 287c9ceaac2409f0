#!/usr/bin/env bash
# cordon-run under a headless cordon: the app's only Wayland socket is a security-context
# listener cordon made for it, so weston-simple-shm, wayland-info, wl-clipboard and two
# copy/paste windows inside are tagged cordon/ID/INSTANCE (and the tag from the sandbox's cgroup says the same), see no
# privileged global, and cannot reach the host's wayland or control socket.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
for tool in weston-simple-shm wayland-info wl-copy wl-paste; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done
cordon_start --verbose
MOUNTS_BEFORE=$(host_mounts)

# client_json PID: cordonctl's entry for the client of PID.
client_json() {
	ctl --json clients | jq -c --argjson pid "$1" 'first(.[] | select(.pid == $pid))'
}

# check_tag LABEL PID: cordon tags the client of PID as this app, from the security context,
# and the cgroup the process is in names the same app and instance. Prints the instance.
check_tag() {
	local label=$1 pid=$2 client instance cgroup
	client=$(client_json "$pid")
	[[ -n "$client" && "$client" != null ]] || fail "$label: cordon lists no client of pid $pid"
	assert_eq "true cordon $APP_ID security-context" \
		"$(jq -r '"\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"' <<<"$client")" \
		"$label: the client's tag"
	instance=$(jq -r .instance <<<"$client")
	[[ "$instance" =~ ^[0-9a-f]{16}$ ]] || fail "$label: instance id '$instance'"
	cgroup=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	assert_eq "app-cordon-$APP_ID-$instance.scope" "$(basename "$cgroup")" \
		"$label: the cgroup scope of the client"
	echo "$instance"
}

# weston-simple-shm maps a window; its client is the sandbox's, not the host's.
start_client shm "$CORDON_RUN" --app-id "$APP_ID" -- weston-simple-shm
wait_for_window org.freedesktop.weston.simple-shm
shm_pid=$(window_json org.freedesktop.weston.simple-shm | jq -r .pid)
[[ "$shm_pid" != "$(client_pid shm)" ]] || fail "the window belongs to cordon-run itself"
shm_instance=$(check_tag weston-simple-shm "$shm_pid")

# A second instance of the same app: another instance id, side by side.
start_client shm2 "$CORDON_RUN" --app-id "$APP_ID" -- weston-simple-shm
wait_for "a second simple-shm window" \
	sh -c "$CORDONCTL --socket $CORDON_SOCKET --json windows | jq -e '[.[] | select(.app_id == \"org.freedesktop.weston.simple-shm\")] | length == 2'"
shm2_pid=$(ctl --json windows | jq -r --argjson p "$shm_pid" \
	'first(.[] | select(.app_id == "org.freedesktop.weston.simple-shm" and .pid != $p)).pid')
shm2_instance=$(check_tag "second instance" "$shm2_pid")
[[ "$shm_instance" != "$shm2_instance" ]] || fail "two instances share instance id $shm_instance"

# Inside: only wayland-0 in the runtime dir; the host's sockets are not reachable.
out=$("$CORDON_RUN" --app-id "$APP_ID" --app "$PROBE_DIR" -- sh -c '
	ls -A "$XDG_RUNTIME_DIR"; echo "display $WAYLAND_DISPLAY"
	/app/sandbox-probe --connect "$1/$2"; /app/sandbox-probe --connect "$3"' sh \
	"$XDG_RUNTIME_DIR" "$WAYLAND_DISPLAY" "$CORDON_SOCKET") || fail "inside: $out"
assert_eq "wayland-0
display wayland-0
ok cannot connect to $XDG_RUNTIME_DIR/$WAYLAND_DISPLAY: No such file or directory
ok cannot connect to $CORDON_SOCKET: No such file or directory" "$out" "the runtime dir inside"

# wayland-info inside lists the everyday globals and no privileged one.
globals=$("$CORDON_RUN" --app-id "$APP_ID" -- wayland-info |
	grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2) || fail "wayland-info failed inside"
for global in wl_compositor wl_shm wl_seat xdg_wm_base wl_output; do
	grep -qx "$global" <<<"$globals" || fail "wayland-info inside misses $global"
done
for global in zwlr_screencopy_manager_v1 zwlr_data_control_manager_v1 \
	zwp_virtual_keyboard_manager_v1 zwlr_virtual_pointer_manager_v1 zwlr_layer_shell_v1 \
	zwlr_foreign_toplevel_manager_v1 zwlr_export_dmabuf_manager_v1 zwlr_output_manager_v1 \
	zwlr_gamma_control_manager_v1 zwlr_input_inhibit_manager_v1 \
	wp_security_context_manager_v1 ext_session_lock_manager_v1; do
	! grep -qx "$global" <<<"$globals" || fail "wayland-info inside sees $global"
done

# The clipboard between two instances of the app. They are two sandboxes, so cordon
# mediates (docs/mediation.md): wl-copy inside cannot set the selection, since it has no
# input event of the user's to show for it, and wl-paste inside gets nothing; a window
# the user types into copies, and another instance's window pastes after a key press in it.
# The test clients are the app's files at /app; LeakSanitizer cannot run where ptrace is
# denied, so an ASan build's clients run without it inside.
in_app=("$CORDON_RUN" --app-id "$APP_ID" --app "$CORDON_TEST_CLIENTS"
	--setenv ASAN_OPTIONS=detect_leaks=0 --)
text="from the sandbox $$"
start_client copy "$CORDON_RUN" --app-id "$APP_ID" -- wl-copy --foreground -- "$text"
# Its window maps but is not given the keyboard (a sandboxed window gets it from the
# user only), so it has nothing to set the selection with.
unfocused_sandbox_window() {
	windows_json | jq -e 'any(.[]; .sandboxed and (.focused | not))' >/dev/null
}
wait_for "wl-copy's window to map without the focus" unfocused_sandbox_window
[[ "$(timeout 5 wl-paste -n 2>/dev/null)" != "$text" ]] ||
	fail "wl-copy in the sandbox set the host's selection without a user action"
# wl-paste inside must have run and connected (its exit status printed after it: 124 when it
# waited for a focus that never came), and got no text: a refusal, not a launch that never
# happened.
got=$(timeout 15 "$CORDON_RUN" --app-id "$APP_ID" -- sh -c \
	'timeout 3 wl-paste -n 2>&1; rc=$?; echo; echo "wl-paste exit $rc"' 2>&1) || fail "wl-paste inside: $got"
grep -qx "wl-paste exit [1-9][0-9]*" <<<"$got" || fail "wl-paste did not run inside: $got"
! grep -qF "$text" <<<"$got" || fail "wl-copy in the sandbox set the selection without a user action"
stop_client copy

start_client writer "${in_app[@]}" /app/clip-client --app-id writer --copy "$text"
wait_for_window writer
ctl focus writer >/dev/null
wait_for_focus writer
# A press counts once the window has been shown a while (docs/security.md).
wait_input_trusted writer
ctl key click a >/dev/null
wait_log writer '^copied serial='
start_client reader "${in_app[@]}" /app/clip-client --app-id reader --paste text/plain \
	--out /dev/stdout
wait_for_window reader
ctl focus reader >/dev/null
wait_for_focus reader
# A press counts once the window has been shown a while (docs/security.md).
wait_input_trusted reader
ctl key click a >/dev/null
wait_log reader "^pasted bytes=$(printf '%s' "$text" | wc -c)\$"
grep -qxF "$text" "$TEST_TMP/reader.log" ||
	fail "the other instance pasted something else: $(head -c 300 "$TEST_TMP/reader.log")"
copy_pid=$(ctl --json clients | jq -r --arg a "$APP_ID" --arg s "$shm_instance" \
	--arg t "$shm2_instance" \
	'first(.[] | select(.app_id == $a and .instance != $s and .instance != $t)).pid')
check_tag clip-client "$copy_pid" >/dev/null

# When the app exits the listener goes: its socket dir is removed and cordon stops
# listening on it (the launcher closed close_fd).
stop_client shm
stop_client shm2
stop_client writer
stop_client reader
wait_for "the sandboxed clients to go" \
	sh -c "! $CORDONCTL --socket $CORDON_SOCKET --json clients | jq -e 'any(.[]; .app_id == \"$APP_ID\")'"
assert_nothing_left "the Wayland launches"
listeners_all_closed() {
	local opened closed
	opened=$(grep -c "Security context listening (cordon $APP_ID" "$CORDON_LOG")
	closed=$(grep -c "Security context closed by its launcher (cordon $APP_ID" "$CORDON_LOG")
	((opened >= 6 && opened == closed))
}
wait_for "cordon to close every listener the launches made" listeners_all_closed

# cordon gone: a clear refusal, nothing left.
cordon_stop
rc=0
err=$("$CORDON_RUN" --app-id "$APP_ID" -- true 2>&1) || rc=$?
assert_eq 125 "$rc" "cordon-run without a running cordon"
grep -q "is cordon running?" <<<"$err" || fail "unclear message without cordon: $err"
assert_nothing_left "a launch without cordon"
