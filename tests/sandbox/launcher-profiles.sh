#!/usr/bin/env bash
# Profiles (docs/policy.md) as cordon-run applies them: --profile NAME picks a built-in or a
# policy.ini profile, an [app ID] section picks one for its app, and each grants what it says
# (network, devices, the devel relaxation of seccomp) and nothing more.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init

# Whose network the sandbox has: "host" when its network namespace is the host's (the same
# namespace, by inode: an interface count proves nothing on a host with only lo), "own" with
# only a loopback interface of its own. Anything else (the launch failed) fails the test.
host_net=$(readlink /proc/self/ns/net)
network() {
	local out
	out=$(run_sandboxed "$@" -- sh -c 'readlink /proc/self/ns/net; wc -l </proc/net/dev' 2>&1) ||
		fail "the network probe did not run ($*): $out"
	if [[ "$out" == "$host_net"$'\n'* ]]; then
		echo host
	elif [[ "$out" == net:*$'\n'3 ]]; then
		echo own
	else
		fail "unexpected network probe output ($*): $out"
	fi
}
assert_eq own "$(network)" "the network with the default profile (only lo)"
assert_eq own "$(network --profile default)" "the network with --profile default"
assert_eq host "$(network --profile network-client)" "the network with network-client"
assert_eq host "$(network --profile game)" "the network with game"
assert_eq host "$(network --profile devel)" "the network with devel"

# devel lifts the ptrace rule; the others keep it. The probe must have run to its summary
# line, and say which way the ptrace attempt went: "lifted" or "refused".
probe_ptrace() {
	local out
	out=$(run_sandboxed "$@" -- /app/sandbox-probe 2>&1) || true
	grep -q '^[0-9]* refused as expected, [0-9]* not$' <<<"$out" ||
		fail "sandbox-probe did not run to its end ($*): $out"
	if grep -qx 'FAIL x86_64 ptrace(ATTACH child): expected EPERM, got success' <<<"$out"; then
		echo lifted
	elif grep -qx 'ok x86_64 ptrace(ATTACH child) refused with EPERM' <<<"$out"; then
		echo refused
	else
		fail "sandbox-probe tried no native ptrace ($*): $out"
	fi
}
assert_eq lifted "$(probe_ptrace --profile devel)" "ptrace with the devel profile"
assert_eq refused "$(probe_ptrace --profile game)" "ptrace with the game profile"

# game binds /dev/dri (when the host has one), default does not.
if [[ -d /dev/dri ]]; then
	assert_eq yes "$(run_sandboxed --profile game -- sh -c '[ -d /dev/dri ] && echo yes')" \
		"/dev/dri with the game profile"
fi
assert_eq no "$(run_sandboxed -- sh -c '[ -e /dev/dri ] && echo yes || echo no')" \
	"/dev/dri with the default profile"

# policy.ini: the app's section picks its profile; --profile still wins over it.
mkdir -p "$XDG_CONFIG_HOME/cordon"
printf '[app %s]\nprofile = network-client\n' "$APP_ID" >"$XDG_CONFIG_HOME/cordon/policy.ini"
assert_eq host "$(network)" "the network of an app whose section picks network-client"
assert_eq own "$(network --profile default)" "--profile default over the app's section"
# A profile of the file's own.
printf '[profile offline-dev]\nallow = devel\n[app %s]\nprofile = offline-dev\n' "$APP_ID" \
	>"$TEST_TMP/policy.ini"
assert_eq own "$(network --policy "$TEST_TMP/policy.ini")" "a profile from --policy FILE"
assert_eq lifted "$(probe_ptrace --policy "$TEST_TMP/policy.ini")" "allow = devel from --policy FILE"

# Mistakes: the file and line, or the unknown profile; exit 2; nothing started.
printf '[app %s]\nshare = everything\n' "$APP_ID" >"$TEST_TMP/bad.ini"
rc=0
err=$(run_sandboxed --policy "$TEST_TMP/bad.ini" -- true 2>&1) || rc=$?
assert_eq 2 "$rc" "exit status with a bad policy file"
grep -qF "$TEST_TMP/bad.ini:2:" <<<"$err" || fail "no file:line in '$err'"
rc=0
err=$(run_sandboxed --profile nonesuch -- true 2>&1) || rc=$?
assert_eq 2 "$rc" "exit status with an unknown profile"
grep -q "no such profile" <<<"$err" || fail "unclear message for an unknown profile: $err"
[[ -z "$(leftover_scopes)" ]] || fail "a refused launch left a cgroup"
