#!/usr/bin/env bash
# The seccomp filter from inside: sandbox-probe tries every denied syscall and ioctl on the
# x86_64, i386 and x32 ABIs (TIOCSTI and TIOCLINUX with and without high bits set in the
# request) and each must be refused with the expected errno. The same probe on the host shows
# the refusals come from the sandbox, not from the kernel or missing privileges. As root, the
# same again as an unprivileged user.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init

# check_probe LABEL CMD...: CMD runs the probe in a sandbox; every line must be ok or skip.
check_probe() {
	local label=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	if ((rc != 0)) || grep -q '^FAIL' <<<"$out"; then
		fail "$label: not every denied call was refused:
$(grep -v '^ok' <<<"$out")"
	fi
	# 60+ calls natively, the same again through x32 and i386, minus what an ABI lacks. A
	# kernel that takes no i386 system calls at all (int $0x80 faults; the probe tries it in a
	# child and says so) has no i386 table for the filter to miss.
	local refused abis=3 expected=(
		"ok x86_64 ioctl(TIOCSTI) refused with EPERM"
		"ok x86_64 ioctl(TIOCSTI|1<<32) refused with EPERM"
		"ok x86_64 ioctl(TIOCLINUX|1<<32) refused with EPERM"
		"ok x32 ioctl(TIOCSTI|1<<32) refused with EPERM"
		"ok x86_64 clone3 refused with ENOSYS"
		"ok x86_64 open_tree(/) refused with ENOSYS"
		"ok x86_64 io_uring_setup refused with ENOSYS")
	if grep -q '^skip i386: the kernel runs no i386 system calls' <<<"$out"; then
		abis=2
	else
		expected+=("ok i386 ioctl(TIOCSTI) refused with EPERM"
			"ok i386 unshare(CLONE_NEWUSER) refused with EPERM"
			"ok i386 socketcall(SYS_SOCKET, AF_PACKET) refused with EAFNOSUPPORT")
	fi
	refused=$(grep -c '^ok ' <<<"$out")
	((refused >= 57 * abis)) || fail "$label: only $refused refusals probed on $abis ABIs"
	for line in "${expected[@]}"; do
		grep -qxF "$line" <<<"$out" || fail "$label: missing '$line'"
	done
	printf '%s: %s\n' "$label" "$(tail -n 1 <<<"$out")" >&2
}

check_probe "as $(id -un)" run_sandboxed -- /app/sandbox-probe
run_sandboxed -- /app/sandbox-probe --allowed >/dev/null ||
	fail "fork, AF_UNIX, netlink route or personality(PER_LINUX) is refused inside"

# On the host the same calls go through or fail differently: the filter refuses them inside.
baseline=$("$PROBE_DIR/sandbox-probe" --baseline </dev/null)
for label in "process_vm_readv(self)" "ioctl(TIOCSTI)" "ioctl(TIOCSTI|1<<32)" \
	"personality(READ_IMPLIES_EXEC)" "unshare(CLONE_NEWUSER)" "clone3" "open_tree(/)" \
	"keyctl(GET_KEYRING_ID)" "io_uring_setup" "get_mempolicy" "adjtimex(read)"; do
	grep -qF "differs x86_64 $label " <<<"$baseline" ||
		fail "on the host, $label is refused as in the sandbox: the test proves nothing"
done

# --allow=devel lets ptrace through, and only ptrace.
devel=$(run_sandboxed --allow=devel -- /app/sandbox-probe 2>&1) || true
grep -qF "FAIL x86_64 ptrace(ATTACH child): expected EPERM, got success" <<<"$devel" ||
	fail "--allow=devel does not allow ptrace"
! grep '^FAIL' <<<"$devel" | grep -v ' ptrace(' ||
	fail "--allow=devel lets more than ptrace through"

# With --share=network AF_INET is allowed, other families still not.
net=$(run_sandboxed --share=network -- /app/sandbox-probe 2>&1) || true
grep -qF "FAIL x86_64 socket(AF_INET) without network: expected EAFNOSUPPORT, got success" \
	<<<"$net" || fail "--share=network does not allow AF_INET"
grep -qF "ok x86_64 socket(AF_PACKET) refused with EAFNOSUPPORT" <<<"$net" ||
	fail "--share=network lets AF_PACKET through"

if ((EUID == 0)); then
	setup_user_home 65534
	make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"
	check_probe "as nobody" as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" \
		--app "$PROBE_DIR" -- /app/sandbox-probe
fi
