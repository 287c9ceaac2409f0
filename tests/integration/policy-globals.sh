#!/usr/bin/env bash
# Per-app global grants from policy.ini: a sandboxed app granted layer-shell sees it
# and can put up a panel, another sandboxed app does not; the grant follows the
# sandbox tag's app id (here from a security context), never the app_id a window sets.
# Granting the security-context manager only makes it visible: using it is still
# refused (nested). Every grantable name is a global cordon really offers, and a
# misspelt one stops cordon with the file and line.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wayland-info >/dev/null || skip "wayland-info not found (Debian package wayland-utils)"
SC="$TC/security-context-client"

globals_of() {
	timeout 20 wayland-info | grep -o "interface: '[a-z_0-9]*'" | cut -d"'" -f2 | sort
}

# The names the policy accepts for "globals", from the key table itself.
grantable=$(sed -n '/global_words\[\] = {/,/NULL/p' "$CORDON_SOURCE_ROOT/common/policy.c" |
	grep -o '"[a-z_0-9]*"' | tr -d '"')
[[ $(wc -l <<<"$grantable") -ge 10 ]] || fail "could not read the grantable globals: $grantable"
# The filter's host-only table: those of its names a policy cannot grant stay hidden.
host_only=$(sed -n '/host_only\[\] = {/,/^};/p' "$CORDON_SOURCE_ROOT/compositor/global_filter.c" |
	grep -o '^\s*{"[a-z_0-9]*"' | tr -d '{"\t ')
[[ $(wc -l <<<"$host_only") -ge 10 ]] || fail "could not read the host-only globals: $host_only"
never_granted=$(grep -vxF -f <(echo "$grantable") <<<"$host_only" || true)

cordon_test_init
policy="$TEST_TMP/policy.ini"
cat >"$policy" <<EOF
[profile panels]
globals = zwlr_layer_shell_v1

[app org.example.Panel]
profile = panels
globals = zwlr_layer_shell_v1, wp_security_context_manager_v1

[app org.example.Other]

[app org.example.All]
globals = $(paste -sd, <<<"$grantable")
EOF

cordon_start --policy "$policy"
host_globals=$(globals_of)
for name in $grantable; do
	grep -qx "$name" <<<"$host_globals" || fail "the grantable global $name is not offered by cordon"
done

start_client panel-launcher "$SC" --listen "$TEST_TMP/panel.sock" --engine cordon \
	--app-id org.example.Panel --commit
start_client other-launcher "$SC" --listen "$TEST_TMP/other.sock" --engine cordon \
	--app-id org.example.Other --commit
start_client all-launcher "$SC" --listen "$TEST_TMP/all.sock" --engine cordon \
	--app-id org.example.All --commit
wait_log panel-launcher '^ready$'
wait_log other-launcher '^ready$'
wait_log all-launcher '^ready$'

panel_globals=$(WAYLAND_DISPLAY="$TEST_TMP/panel.sock" globals_of)
other_globals=$(WAYLAND_DISPLAY="$TEST_TMP/other.sock" globals_of)
grep -qx zwlr_layer_shell_v1 <<<"$panel_globals" || fail "the granted app does not see layer-shell"
! grep -qx zwlr_layer_shell_v1 <<<"$other_globals" || fail "an app without the grant sees layer-shell"
! grep -qx zwlr_screencopy_manager_v1 <<<"$panel_globals" || fail "the granted app sees screencopy"
# Granted everything, a sandboxed app sees what the host sees but what no policy grants.
assert_eq "$(grep -vxF -f <(echo "$never_granted") <<<"$host_globals")" \
	"$(WAYLAND_DISPLAY="$TEST_TMP/all.sock" globals_of)" \
	"the globals of an app granted every privileged one"

# The grant is usable: a panel through the granted listener gets its configure; the
# same panel through the other listener finds no layer-shell. Its window app_id claims
# to be the granted app, which changes nothing.
start_client panel env WAYLAND_DISPLAY="$TEST_TMP/panel.sock" "$TC/panel-client" --height 40
wait_for "the granted panel's configure" log_has panel '^layer-configure width=1280 height=40$'
out=$(WAYLAND_DISPLAY="$TEST_TMP/other.sock" timeout 20 "$TC/panel-client" --height 40 2>&1) &&
	fail "a panel without the grant ran: $out"
grep -q "offers no zwlr_layer_shell_v1" <<<"$out" || fail "unexpected panel failure: $out"
start_client liar env WAYLAND_DISPLAY="$TEST_TMP/other.sock" "$TC/focus-client" \
	--app-id org.example.Panel
wait_for_window org.example.Panel
liar_pid=$(window_json org.example.Panel | jq -r .pid)
assert_eq "org.example.Other" "$(ctl --json clients | jq -r --argjson pid "$liar_pid" \
	'first(.[] | select(.pid == $pid)).app_id')" "the tag of a window claiming another app id"

# The manager, granted, is visible but refused: a sandboxed client makes no listener.
grep -qx wp_security_context_manager_v1 <<<"$panel_globals" ||
	fail "the granted app does not see the security-context manager"
out=$(WAYLAND_DISPLAY="$TEST_TMP/panel.sock" timeout 20 "$SC" --listen "$TEST_TMP/nested.sock" \
	--engine cordon --app-id org.example.Escape --commit 2>&1) && fail "nested listener accepted: $out"
assert_eq "protocol-error interface=wp_security_context_manager_v1 code=2" \
	"$(grep '^protocol-error' <<<"$out")" "the nested error"
! WAYLAND_DISPLAY="$TEST_TMP/nested.sock" timeout 5 wayland-info >/dev/null 2>&1 ||
	fail "the nested listener accepts clients"

# A misspelt global is a load error with the line, and cordon does not start.
bad="$TEST_TMP/bad-policy.ini"
printf '[app org.example.Typo]\nglobals = zwlr_layer_shell_v1, zwlr_screencopy_manager\n' >"$bad"
out=$(timeout 20 "$CORDON" --headless --socket "wayland-bad-$$" --policy "$bad" 2>&1) &&
	fail "cordon started with a misspelt global"
grep -q "bad-policy.ini:2: 'zwlr_screencopy_manager' is not a value of 'globals'" <<<"$out" ||
	fail "unclear error for a misspelt global: $out"
