#!/usr/bin/env bash
# An app shipped as one squashfs image runs from /app, read-only; afterwards no loop device
# or mount of it is left. A missing or bogus image is refused with a clear message; without
# root the refusal says why (the kernel mounts squashfs only for real root).
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
command -v mksquashfs >/dev/null || skip "mksquashfs not found (Debian package squashfs-tools)"
cordon_test_init
MOUNTS_BEFORE=$(wc -l </proc/self/mountinfo)

mkdir -p "$TEST_TMP/tree/bin"
cat >"$TEST_TMP/tree/bin/hello" <<'SH'
#!/bin/sh
echo "hello from the image: $*"
SH
chmod 0755 "$TEST_TMP/tree/bin/hello"
image="$TEST_TMP/app.squashfs"
mksquashfs "$TEST_TMP/tree" "$image" -noappend -quiet >/dev/null

expect_image_refusal() {
	local pattern=$1 rc=0 err
	shift
	err=$("$@" 2>&1) || rc=$?
	assert_eq 125 "$rc" "exit status of a refused image"
	grep -qF -- "$pattern" <<<"$err" || fail "expected '$pattern', got '$err'"
	assert_nothing_left "a refused image"
}
expect_image_refusal "--image $TEST_TMP/missing.squashfs: No such file or directory" \
	"$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$TEST_TMP/missing.squashfs" -- true
head -c 8192 /dev/urandom >"$TEST_TMP/bogus.img"
expect_image_refusal "not a squashfs or erofs image" \
	"$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$TEST_TMP/bogus.img" -- true
rc=0
"$CORDON_RUN" --app-id "$APP_ID" --app "$TEST_TMP/tree" --image "$image" -- true 2>/dev/null ||
	rc=$?
assert_eq 2 "$rc" "--app and --image together"

if ((EUID != 0)); then
	expect_image_refusal "without root needs squashfuse" \
		"$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$image" -- true
	skip "mounting an image needs root here"
fi

out=$("$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$image" -- sh -c '
	hello world
	sed -n "s/^[^ ]* [^ ]* [^ ]* [^ ]* \/app .* - \([^ ]*\) .*/\1/p" /proc/self/mountinfo
	touch /app/new 2>/dev/null && echo "wrote /app"
	true')
assert_eq "hello from the image: world
squashfs" "$out" "the app from its image, at /app (found through PATH=/app/bin)"
[[ -z "$(losetup -j "$image")" ]] || fail "a loop device still holds the image: $(losetup -j "$image")"
assert_nothing_left "a run from an image"

# Unprivileged: a clear refusal, nothing left.
setup_user_home 65534
make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"
chmod 0644 "$image"
rc=0
err=$(as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$image" -- true 2>&1) ||
	rc=$?
assert_eq 125 "$rc" "an unprivileged run from an image"
grep -q "without root needs squashfuse" <<<"$err" || fail "unclear refusal: $err"
