#!/usr/bin/env bash
# An app shipped as one squashfs image runs from /app, read-only, mounted by the kernel (root)
# or served by squashfuse (the unprivileged way, also chosen with --image-mount=fuse);
# afterwards no loop device, mount or squashfuse is left. A missing or bogus image is refused
# with a clear message.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
command -v mksquashfs >/dev/null || skip "mksquashfs not found (Debian package squashfs-tools)"
cordon_test_init
MOUNTS_BEFORE=$(host_mounts)

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

# run_image [CORDON-RUN OPTIONS...]: the app from the image, and the type of /app's mount.
run_image() {
	"$@" --no-wayland --app-id "$APP_ID" --image "$image" -- sh -c '
	hello world
	sed -n "s/^[^ ]* [^ ]* [^ ]* [^ ]* \/app .* - \([^ ]*\) .*/\1/p" /proc/self/mountinfo
	touch /app/new 2>/dev/null && echo "wrote /app"
	true'
}
squashfuse_left() {
	pgrep -u "$1" -x squashfuse >/dev/null
}

if ((EUID != 0)); then
	if [[ -r /dev/fuse && -w /dev/fuse ]] && command -v squashfuse >/dev/null; then
		assert_eq "hello from the image: world
fuse" "$(run_image "$CORDON_RUN")" "the app from its image through squashfuse"
		! squashfuse_left "$EUID" || fail "squashfuse still runs"
		exit 0
	fi
	expect_image_refusal "squashfuse needs /dev/fuse" "$CORDON_RUN" --no-wayland \
		--app-id "$APP_ID" --image "$image" -- true
	skip "this user may not use /dev/fuse: no unprivileged image mount here"
fi

out=$(run_image "$CORDON_RUN")
assert_eq "hello from the image: world
squashfs" "$out" "the app from its image, at /app (found through PATH=/app/bin)"
[[ -z "$(losetup -j "$image")" ]] || fail "a loop device still holds the image: $(losetup -j "$image")"
assert_nothing_left "a run from an image"

# squashfuse, as the unprivileged path runs it: the FUSE mount made in the sandbox's user
# namespace, squashfuse on the host side, gone afterwards.
if command -v squashfuse >/dev/null; then
	assert_eq "hello from the image: world
fuse" "$(run_image "$CORDON_RUN" --image-mount=fuse)" "the app from its image through squashfuse"
	! squashfuse_left 0 || fail "squashfuse still runs after the app exited"
	assert_nothing_left "a run through squashfuse"
fi

# Unprivileged: squashfuse where the user may use FUSE, else a clear refusal.
setup_user_home 65534
make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"
chmod 0644 "$image"
expect_image_refusal "--image-mount=kernel: mounting a squashfs image in the kernel needs root" \
	as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$image" \
	--image-mount=kernel -- true
if setpriv --reuid=65534 --regid=65534 --clear-groups test -r /dev/fuse -a -w /dev/fuse; then
	assert_eq "hello from the image: world
fuse" "$(run_image as_user 65534 "$CORDON_RUN")" "an unprivileged app from its image"
	! squashfuse_left 65534 || fail "squashfuse still runs after the app exited"
else
	rc=0
	err=$(as_user 65534 "$CORDON_RUN" --no-wayland --app-id "$APP_ID" --image "$image" -- true \
		2>&1) || rc=$?
	assert_eq 125 "$rc" "an unprivileged run from an image without /dev/fuse"
	grep -q "squashfuse needs /dev/fuse: Permission denied" <<<"$err" ||
		fail "unclear refusal: $err"
	_log "note: /dev/fuse is not usable by nobody here: the unprivileged image run was refused as expected"
fi
[[ -z "$(find "$DELEGATED" -mindepth 1 -type d)" ]] || fail "a scope was left in the delegated cgroup"
