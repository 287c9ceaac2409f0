#!/usr/bin/env bash
# Profiles (docs/policy.md) as cordon-run applies them: --profile NAME picks a built-in or a
# policy.ini profile, an [app ID] section picks one for its app, and each grants what it says
# (network, devices, the devel relaxation of seccomp) and nothing more.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init

host_ifs=$(wc -l </proc/net/dev)
interfaces() {
	run_sandboxed "$@" -- sh -c 'wc -l </proc/net/dev'
}
assert_eq 3 "$(interfaces)" "interfaces with the default profile (only lo)"
assert_eq 3 "$(interfaces --profile default)" "interfaces with --profile default"
assert_eq "$host_ifs" "$(interfaces --profile network-client)" "interfaces with network-client"
assert_eq "$host_ifs" "$(interfaces --profile game)" "interfaces with game"
assert_eq "$host_ifs" "$(interfaces --profile devel)" "interfaces with devel"

# devel lifts the ptrace rule; the others keep it.
probe_ptrace() {
	run_sandboxed "$@" -- /app/sandbox-probe 2>&1 | grep -c '^FAIL x86_64 ptrace' || true
}
assert_eq 1 "$(probe_ptrace --profile devel)" "ptrace allowed by the devel profile"
assert_eq 0 "$(probe_ptrace --profile game)" "ptrace allowed by the game profile"

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
assert_eq "$host_ifs" "$(interfaces)" "interfaces for an app whose section picks network-client"
assert_eq 3 "$(interfaces --profile default)" "--profile default over the app's section"
# A profile of the file's own.
printf '[profile offline-dev]\nallow = devel\n[app %s]\nprofile = offline-dev\n' "$APP_ID" \
	>"$TEST_TMP/policy.ini"
assert_eq 3 "$(interfaces --policy "$TEST_TMP/policy.ini")" "a profile from --policy FILE"
assert_eq 1 "$(probe_ptrace --policy "$TEST_TMP/policy.ini")" "allow = devel from --policy FILE"

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
