#!/usr/bin/env bash
# The control socket trusted every process of the user (SECURITY-NOTES): a process in a
# Flatpak scope that could see the socket granted itself permissions with cordonctl, and
# could type into other apps and take screenshots. Its peers are now identified as Wayland
# clients are (the cgroup tag): here cordonctl runs in an app-flatpak-*.scope cgroup and
# tries permissions, key, screenshot, windows, selection (what other apps copied) and quit:
# each is refused with a message and has no effect (the permission store unchanged, no key
# delivered, no file, cordon still running), one log line names the app, and the host's
# cordonctl still does all of it. A policy may give the app read-only commands
# (control-commands), never the others. A peer that asks without reading is cut off, and
# cordon's memory stays bounded.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/resources/lib.sh"

app=org.example.Ctl
cordon_test_init
policy="$TEST_TMP/policy.ini"
: >"$policy"
small_asan_quarantine
cordon_start --policy "$policy"
test_cgroup "app-flatpak-$app-1.scope"
app_cgroup=$TEST_CGROUP
# A unit name the tag parser rejects: a peer there is an unknown sandbox, refused the same.
test_cgroup 'app-gnome-org.Foo\xzz-1.scope'
unknown_cgroup=$TEST_CGROUP

# sandboxed_ctl OUT ARGS...: cordonctl from inside the app's cgroup; stdout and stderr in
# $TEST_TMP/OUT.{out,err}; its exit status is returned.
sandboxed_ctl() {
	local out=$1
	shift
	"${IN_CGROUP[@]}" "${CTL_CGROUP:-$app_cgroup}" "$CORDONCTL" --socket "$CORDON_SOCKET" \
		"$@" >"$TEST_TMP/$out.out" 2>"$TEST_TMP/$out.err"
}
# refused OUT COMMAND ARGS...: the sandboxed cordonctl fails, saying why.
refused() {
	local out=$1 who=${CTL_WHO:-flatpak $app}
	shift
	if sandboxed_ctl "$out" "$@"; then
		fail "cordonctl $* from the sandbox succeeded: $(cat "$TEST_TMP/$out.out")"
	fi
	grep -qF "refuses \"$1\" from a sandboxed process ($who)" "$TEST_TMP/$out.err" ||
		fail "cordonctl $* from the sandbox failed without saying why: $(cat "$TEST_TMP/$out.err")"
}

start_client keys "$TC/key-client" --app-id key-client
wait_for_window key-client
click_window key-client
wait_log keys '^keyboard-enter$'
# Positive controls: the host's cordonctl drives all of it.
ctl key click a >/dev/null
wait_log keys '^key sym=a .*state=pressed'
ctl permissions grant org.example.Other camera >/dev/null
perms=$(ctl --json permissions list)
[[ "$perms" == *org.example.Other* ]] || fail "the host's grant is not listed: $perms"
screenshot HEADLESS-1 "$TEST_TMP/host.png"
ctl --json selection | jq -e 'length == 2' >/dev/null || fail "the host's selection failed"

# The attack.
since=$SECONDS
keys_before=$(log_count keys '^key ')
refused grant permissions grant "$app" camera
refused revoke permissions revoke org.example.Other camera
refused key key click b
refused shot screenshot HEADLESS-1 "$TEST_TMP/attack.png"
refused windows windows
refused selection selection
refused quit quit
CTL_CGROUP=$unknown_cgroup CTL_WHO="an unknown sandbox" refused unknown-grant \
	permissions grant "$app" camera
CTL_CGROUP=$unknown_cgroup CTL_WHO="an unknown sandbox" refused unknown-key key click b
assert_eq "$perms" "$(ctl --json permissions list)" "the permission store after the attack"
[[ ! -e "$TEST_TMP/attack.png" ]] || fail "the sandbox's screenshot was written"
# A key the host sends now arrives: had the sandbox's arrived, it would be before it.
ctl key click c >/dev/null
wait_log keys '^key sym=c .*state=pressed'
assert_eq "$keys_before" "$(log_count keys '^key sym=[ab] ')" \
	"keys delivered (only the host's a before the attack)"
! log_has keys '^key sym=b ' || fail "the sandbox's key reached the focused window"
_check_cordons_alive
lines=$(grep -c "Control socket: refused .* (flatpak $app), a sandboxed process" "$CORDON_LOG" ||
	true)
assert_log_lines "$lines" "$since" "the refusals of the app's commands"

# A policy may give the app read-only commands, and only those.
cordon_stop
cat >"$policy" <<EOF_POLICY
[app $app]
control-commands = windows, outputs, selection
EOF_POLICY
cordon_start --policy "$policy"
sandboxed_ctl granted windows || fail "windows, granted by the policy, failed: $(cat "$TEST_TMP/granted.err")"
# The probe of the attack above works: granted, the same command answers.
sandboxed_ctl granted-selection selection ||
	fail "selection, granted by the policy, failed: $(cat "$TEST_TMP/granted-selection.err")"
sandboxed_ctl granted-json --json outputs ||
	fail "outputs, granted by the policy, failed: $(cat "$TEST_TMP/granted-json.err")"
jq -e '.[0].name == "HEADLESS-1"' "$TEST_TMP/granted-json.out" >/dev/null ||
	fail "outputs from the sandbox: $(cat "$TEST_TMP/granted-json.out")"
refused clients clients
refused key2 key click b
# A policy naming a command that is not read-only does not load.
printf '[app %s]\ncontrol-commands = key\n' "$app" >"$TEST_TMP/bad.ini"
if "$CORDON" --headless --socket never-started --policy "$TEST_TMP/bad.ini" \
	>"$TEST_TMP/bad.log" 2>&1; then
	fail "cordon started with control-commands = key"
fi
grep -q "'key' is not a value of 'control-commands'" "$TEST_TMP/bad.log" ||
	fail "the bad policy's error: $(tail -n 3 "$TEST_TMP/bad.log")"

# A peer that never reads its replies is cut off; cordon's memory stays bounded.
base=$(anon_kib)
"$ATTACK/ipc-hog" "$CORDON_SOCKET" 200000 >"$TEST_TMP/hog.log" 2>&1 || true
result=$(cat "$TEST_TMP/hog.log")
echo "hog: $result; cordon RssAnon $base KiB before, $(anon_kib) KiB after" >&2
[[ "$result" == cut-off\ after=* ]] || fail "the peer that never reads was not cut off: $result"
n=${result#cut-off after=}
n=${n%% *}
((n > 1000)) || fail "the peer was cut off after only $n requests (the probe barely ran)"
(($(anon_kib) - base < 16 * 1024)) || fail "cordon grew by $(($(anon_kib) - base)) KiB"
grep -q "left [0-9]* bytes of replies unread: disconnected" "$CORDON_LOG" ||
	fail "no log line for the peer cut off"
ctl windows >/dev/null || fail "the host's cordonctl failed after the hog"
