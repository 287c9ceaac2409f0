#!/usr/bin/env bash
# Attack: the seccomp filter was a deny list, so every system call it did not name got
# through, the newest ones first (libseccomp 2.5.4 does not know them). From inside, the
# app calls statmount, listmount, lsm_*, mseal, the *xattrat family, open_tree_attr,
# file_getattr and file_setattr by number, and a number past every table (1000), on the
# x86_64, x32 and i386 ABIs: all must fail with ENOSYS. The host answers those calls (not
# ENOSYS), so the refusal is the filter's.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/launcher/lib.sh"
cordon_test_init

host=$("$ATTACK_DIR/launcher-attack" syscalls --host)
grep -qx "ran syscalls" <<<"$host" || fail "the probe did not run on the host: $host"
known=$(grep -c '^host x86_64 ' <<<"$host")
host_enosys=$(grep '^host x86_64 ' <<<"$host" | grep -v 'syscall 1000' | grep -c ': ENOSYS$' || true)
# This kernel (6.18) has them all; an older one would answer ENOSYS itself for some.
((host_enosys == 0)) || echo "note: the host kernel lacks $host_enosys of the new calls"

out=$(attack -- syscalls)
assert_attack "new syscalls" "$out" syscalls \
	"ok x86_64 mseal: ENOSYS" "ok x86_64 statmount: ENOSYS" "ok x86_64 listmount: ENOSYS" \
	"ok x86_64 lsm_get_self_attr: ENOSYS" "ok x86_64 setxattrat: ENOSYS" \
	"ok x86_64 open_tree_attr: ENOSYS" "ok x86_64 file_setattr: ENOSYS" \
	"ok x86_64 syscall 1000: ENOSYS" "ok x32 mseal: ENOSYS" "ok x32 syscall 1000: ENOSYS"
n=$(sed -n 's/^\([0-9]*\) calls ENOSYS.*/\1/p' <<<"$out")
if grep -q 'no i386 on this kernel' <<<"$out"; then
	assert_eq $((known * 2)) "$n" "calls refused with ENOSYS on x86_64 and x32"
else
	assert_eq $((known * 3)) "$n" "calls refused with ENOSYS on x86_64, x32 and i386"
	grep -qx "ok i386 mseal: ENOSYS" <<<"$out" || fail "i386 mseal not refused: $out"
fi
grep -q '^control getpid: [0-9]' <<<"$out" || fail "getpid failed inside: $out"
echo "ok: $n calls newer than the filter's table fail with ENOSYS"
