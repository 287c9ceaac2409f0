#!/usr/bin/env bash
# Attack: inside one sandbox, every process of the app runs as the same user and is dumpable
# after exec, so the kernel lets one write another's memory through /proc/PID/mem, and hand
# over its fds through pidfd_getfd. The app starts a second program (forked and exec'd) with a
# known buffer and tries /proc/PID/mem for writing, process_vm_writev, ptrace, pidfd_getfd and
# kcmp on it; the buffer must be unchanged afterwards. Controls: the sibling is visible, and
# --allow=devel (a debugger's profile) may write it again, so the refusal is the sandbox's.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/launcher/lib.sh"
cordon_test_init

out=$(attack -- siblings)
refused=("ok open /proc/SIBLING/mem O_RDWR: EACCES"
	"ok open /proc/SIBLING/mem O_WRONLY: EACCES"
	"ok process_vm_writev(sibling): EPERM"
	"ok ptrace(ATTACH, sibling): EPERM"
	"ok pidfd_getfd(sibling, 0): EPERM"
	"ok kcmp(self, sibling): EPERM"
	"ok the sibling's memory is untouched")
assert_attack "siblings" "$out" siblings "${refused[@]}"
grep -q "^control the sibling [0-9]* is visible in /proc" <<<"$out" ||
	fail "the sibling was not seen: $out"

# The same as an unprivileged user.
if ((EUID == 0)); then
	setup_user_home 65534
	make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"
	out=$(as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" --app "$ATTACK_DIR" \
		-- /app/launcher-attack siblings 2>&1) || true
	assert_attack "siblings, as nobody" "$out" siblings "${refused[@]}"
fi

# Ordinary writes still work: a file in /tmp and in HOME, /dev/null, and /dev/stdout when it
# is a file of the host's.
out=$(run_sandboxed -- sh -c 'echo a >/tmp/a && echo b >"$HOME/b" && echo c >/dev/null &&
	cat /tmp/a "$HOME/b" && echo to-stdout >>/dev/stdout' 2>&1 >"$TEST_TMP/stdout") ||
	fail "ordinary writes inside failed: $out"
assert_eq "a
b
to-stdout" "$(cat "$TEST_TMP/stdout")" "what the app wrote"

# With --allow=devel (gdb writes breakpoints through /proc/PID/mem) the same attempt opens
# the file: the refusal above comes from the sandbox, not from the kernel's defaults.
out=$(attack --allow=devel -- siblings)
grep -qx "ran siblings" <<<"$out" || fail "devel: the probe did not run: $out"
grep -q '^FAIL open /proc/SIBLING/mem O_RDWR: expected EACCES, got success' <<<"$out" ||
	fail "devel: /proc/PID/mem of a sibling still not writable: $out"
echo "ok: one process of the app cannot write another's memory"
