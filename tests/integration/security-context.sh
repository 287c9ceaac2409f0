#!/usr/bin/env bash
# wp_security_context_v1 end to end, with a test client as the sandbox launcher:
# clients through its listener carry the engine, app id and instance it set (over
# their host cgroup), cannot see or use the manager themselves, every documented
# error is posted, and closing close_fd stops the listener while clients already
# connected keep working with their tag.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"

cordon_start
SC="$TC/security-context-client"
sock="$TEST_TMP/app.sock"

globals_of() {
	timeout 20 wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2
}

# client_json PID: the cordonctl clients entry of that pid.
client_json() {
	ctl --json clients | jq -c --argjson pid "$1" 'first(.[] | select(.pid == $pid))'
}

# The host sees the manager; it made no listener yet.
grep -qx wp_security_context_manager_v1 <<<"$(globals_of)" ||
	fail "the host client does not see wp_security_context_manager_v1"

start_client launcher "$SC" --listen "$sock" --engine org.flatpak --app-id org.example.Ctx \
	--instance 17 --commit -- "$TC/focus-client" --app-id ctx-window --width 200 --height 150
wait_log launcher '^ready$'
wait_for_window ctx-window

# The tag is the listener's, though the app runs in the test's own (host) cgroup; the
# app_id it set itself is only a label.
pid=$(window_json ctx-window | jq -r .pid)
client=$(client_json "$pid")
assert_eq "true flatpak org.example.Ctx 17 security-context" \
	"$(jq -r '"\(.sandboxed) \(.engine) \(.app_id) \(.instance) \(.tag_source)"' <<<"$client")" \
	"the tag of a client through the listener"
assert_eq "true flatpak org.example.Ctx" \
	"$(window_json ctx-window | jq -r '"\(.sandboxed) \(.sandbox_engine) \(.sandbox_app_id)"')" \
	"the window's owner tag"
# Apps are frozen through their cgroup: a client whose cgroup (here the test's own) does
# not name the listener's sandbox must not make that cgroup an app cordon could freeze.
assert_eq 0 "$(ctl --json apps | jq '[.[] | select(.app_id == "org.example.Ctx")] | length')" \
	"apps made from a client of the listener in a host cgroup"
# The launcher itself is the host.
launcher_client=$(client_json "$(client_pid launcher)")
assert_eq "false host host" \
	"$(jq -r '"\(.sandboxed) \(.engine) \(.tag_source)"' <<<"$launcher_client")" "the launcher's tag"

# Through the listener: no privileged global, the manager included.
ctx_globals=$(WAYLAND_DISPLAY="$sock" globals_of)
grep -qx wl_compositor <<<"$ctx_globals" || fail "a client through the listener misses wl_compositor"
for global in wp_security_context_manager_v1 zwlr_screencopy_manager_v1 zwlr_data_control_manager_v1 \
		zwlr_layer_shell_v1 zwp_virtual_keyboard_manager_v1; do
	! grep -qx "$global" <<<"$ctx_globals" || fail "a client through the listener sees $global"
done
assert_eq "$(wc -l <<<"$ctx_globals")" "$(client_json "$pid" | jq .globals)" \
	"globals the app through the listener sees"
grep -q "^pid=$pid .* flatpak org.example.Ctx instance=17 \[sandboxed\] from security-context$" \
	<<<"$(ctl clients)" || fail "cordonctl clients does not show the context's tag: $(ctl clients)"

# Nested: a client of the listener that binds the hidden manager by its name anyway
# (names are guessable) is refused with a protocol error, and makes no listener.
name=$(log_last launcher '^manager-name ' | cut -d' ' -f2)
[[ -n "$name" ]] || fail "the launcher printed no manager name"
nested_out=$(WAYLAND_DISPLAY="$sock" timeout 20 "$SC" --manager-name "$name" \
	--listen "$TEST_TMP/nested.sock" --engine cordon --commit 2>&1) && nested_rc=0 || nested_rc=$?
assert_eq 1 "$nested_rc" "exit status of the nested launcher ($nested_out)"
# libwayland's own refusal of a global the filter hides (WL_DISPLAY_ERROR_INVALID_OBJECT).
assert_eq "protocol-error interface=wl_registry code=0" "$(grep '^protocol-error' <<<"$nested_out")" \
	"the nested launcher's error"
! WAYLAND_DISPLAY="$TEST_TMP/nested.sock" timeout 5 wayland-info >/dev/null 2>&1 ||
	fail "the nested listener accepts clients"

# expect_error "INTERFACE CODE" ARGS...: a launcher sending ARGS gets that protocol error.
expect_error() {
	local want=$1 out rc
	shift
	out=$(timeout 20 "$SC" "$@" 2>&1) && rc=0 || rc=$?
	assert_eq 1 "$rc" "exit status for $* ($out)"
	assert_eq "protocol-error interface=$want" "$(grep '^protocol-error' <<<"$out")" \
		"the error for $*"
}
bad="$TEST_TMP/bad.sock"
# invalid_listen_fd (1): not a listening unix stream socket.
for kind in unbound dgram inet pipe; do
	expect_error "wp_security_context_manager_v1 code=1" --listen-kind "$kind" --listen "$bad"
done
expect_error "wp_security_context_manager_v1 code=1" --close-kind file --listen "$bad"
# already_set (2).
expect_error "wp_security_context_v1 code=2" --listen "$bad" --engine a --engine b
expect_error "wp_security_context_v1 code=2" --listen "$bad" --app-id a --app-id a
expect_error "wp_security_context_v1 code=2" --listen "$bad" --instance 1 --instance 2
# invalid_metadata (3): empty, or what would forge a log line or overflow the tag.
expect_error "wp_security_context_v1 code=3" --listen "$bad" --engine ""
expect_error "wp_security_context_v1 code=3" --listen "$bad" --app-id ""
expect_error "wp_security_context_v1 code=3" --listen "$bad" --instance ""
expect_error "wp_security_context_v1 code=3" --listen "$bad" --app-id $'org.x\nengine: host'
expect_error "wp_security_context_v1 code=3" --listen "$bad" --app-id "$(printf 'a%.0s' {1..300})"
# An app id outside common/app_id.c's rule: no policy or grant could ever name it.
expect_error "wp_security_context_v1 code=3" --listen "$bad" --app-id "../x"
# already_used (1): anything but destroy after commit.
expect_error "wp_security_context_v1 code=1" --listen "$bad" --commit --app-id late
expect_error "wp_security_context_v1 code=1" --listen "$bad" --commit --commit
# The per-client cap on listeners: the 33rd is refused (an implementation error).
cap_args=()
for i in $(seq 1 33); do
	cap_args+=(--listen "$TEST_TMP/cap-$i.sock")
done
expect_error "wl_display code=3" "${cap_args[@]}"
# Unset metadata is allowed, and still sandboxed.
start_client bare "$SC" --listen "$TEST_TMP/bare.sock" --commit -- "$TC/focus-client" --app-id bare-window
wait_for_window bare-window
bare=$(client_json "$(window_json bare-window | jq -r .pid)")
assert_eq "true unknown  security-context" \
	"$(jq -r '"\(.sandboxed) \(.engine) \(.app_id) \(.tag_source)"' <<<"$bare")" "a client of a bare context"
stop_client bare
wait_for_window_gone bare-window

# Closing close_fd stops the listener: new connections are refused (cordon closed its
# listening socket, the launcher had closed its own), the connected app keeps its tag
# and keeps working.
kill -USR1 "$(client_pid launcher)"
wait_log launcher '^close-fd-closed$'
listener_closed() {
	! WAYLAND_DISPLAY="$sock" timeout 5 wayland-info >/dev/null 2>&1
}
wait_for "the listener to stop" listener_closed
assert_eq "true flatpak org.example.Ctx 17 security-context" \
	"$(client_json "$pid" | jq -r '"\(.sandboxed) \(.engine) \(.app_id) \(.instance) \(.tag_source)"')" \
	"the tag after the listener stopped"
presses=$(log_count launcher '^button name=left .*state=pressed')
click_window ctx-window
wait_for "the app to still get clicks" \
	log_count_above launcher '^button name=left .*state=pressed' "$presses"

# Shutting down with listeners still open (committed, and not yet committed) frees them:
# under ASan a leaked context or fd source fails this stop.
start_client live "$SC" --listen "$TEST_TMP/live.sock" --app-id org.example.Live --commit \
	--listen "$TEST_TMP/pending.sock" --app-id org.example.Pending
wait_log live '^ready$'
cordon_stop
