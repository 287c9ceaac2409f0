# Helpers for cordon-app's tests (docs/apps.md): keys, images, bundles, stores and a store
# served over HTTP on loopback. Sourced after tests/lib/harness.sh.
command -v mksquashfs >/dev/null || skip "mksquashfs not found (Debian package squashfs-tools)"
PYTHON=/usr/bin/python3
[[ -x $PYTHON ]] || skip "python3 not found (Debian package python3)"
cordon_test_init
APPS_WORK="$TEST_TMP/apps-work"
mkdir -p "$APPS_WORK"
export CORDON_RUN

# make_key NAME: a key pair; prints nothing, $APPS_WORK/NAME.key and NAME.pub.
make_key() {
	"$CORDON_BUNDLE" keygen "$APPS_WORK/$1.key" >"$APPS_WORK/$1.pub"
}
pub() {
	cat "$APPS_WORK/$1.pub"
}

# make_image OUT VERSION: a squashfs whose /app/bin/hello prints "hello VERSION ARGS" and
# whose /app/bin/shm prints the same and then runs weston-simple-shm (a window).
make_image() {
	local out=$1 version=$2 tree="$APPS_WORK/tree-$RANDOM$RANDOM"
	mkdir -p "$tree/bin"
	printf '#!/bin/sh\necho "hello %s $*"\n' "$version" >"$tree/bin/hello"
	printf '#!/bin/sh\necho "shm %s"\nexec weston-simple-shm\n' "$version" >"$tree/bin/shm"
	chmod 0755 "$tree/bin/hello" "$tree/bin/shm"
	mksquashfs "$tree" "$out" -noappend -quiet >/dev/null
}

# make_icon OUT: a 32x32 PNG.
make_icon() {
	$PYTHON -c "
import struct, sys, zlib
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
raw = b''.join(b'\x00' + b'\x30\x60\xc0\xff' * 32 for _ in range(32))
open(sys.argv[1], 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 32, 32, 8, 6, 0, 0, 0))
    + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))" "$1"
}

# make_bundle OUT KEY ID VERSION [COMMAND [PERMISSIONS-JSON [ARCH]]]
make_bundle() {
	local out=$1 key=$2 id=$3 version=$4 command=${5:-/app/bin/hello}
	local permissions=${6:-'{"share": "network"}'} arch=${7:-$(uname -m)}
	local image="$APPS_WORK/image-$version.squashfs"
	[[ -e $image ]] || make_image "$image" "$version"
	[[ -e "$APPS_WORK/icon.png" ]] || make_icon "$APPS_WORK/icon.png"
	jq -n --arg id "$id" --arg v "$version" --arg cmd "$command" --arg arch "$arch" \
		--argjson perms "$permissions" \
		'{id: $id, version: $v, name: "Test \($id)", summary: "a test app", arch: $arch,
		  "min-cordon": "0.1", command: [$cmd], permissions: $perms, categories: ["Utility"]}' \
		>"$APPS_WORK/manifest.json"
	"$CORDON_BUNDLE" build "$APPS_WORK/$key.key" "$APPS_WORK/manifest.json" "$image" \
		"$APPS_WORK/icon.png" "$out" || fail "cordon-bundle build $out failed"
}

# publish DIR KEY SERIAL BUNDLE...: DIR/index.json listing the bundles (copied into DIR),
# signed with KEY.
publish() {
	local dir=$1 key=$2 serial=$3 entries=() b
	shift 3
	mkdir -p "$dir"
	for b in "$@"; do
		cp "$b" "$dir/"
		local manifest
		manifest=$($PYTHON -c "
import struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack('<I', d[12:16])[0]
sys.stdout.write(d[64:64 + n].decode())" "$b")
		entries+=("$(jq -c --arg file "$(basename "$b")" --arg sha "$(sha256sum "$b" | cut -d' ' -f1)" \
			--argjson size "$(stat -c %s "$b")" \
			'{id, version, file: $file, sha256: $sha, size: $size}' <<<"$manifest")")
	done
	printf '%s\n' "${entries[@]}" | jq -s --argjson serial "$serial" '{serial: $serial, apps: .}' \
		>"$dir/index.json"
	"$CORDON_BUNDLE" sign-index "$APPS_WORK/$key.key" "$dir/index.json" ||
		fail "signing $dir/index.json failed"
}

# serve DIR: an HTTP server on 127.0.0.1 for DIR; sets STORE_URL.
serve() {
	local dir=$1 name="http-$RANDOM"
	start_client "$name" $PYTHON -u -m http.server --bind 127.0.0.1 --directory "$dir" 0
	wait_for "the HTTP server of $dir" grep -q "port [0-9]" "$TEST_TMP/$name.log"
	local port
	port=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$TEST_TMP/$name.log" | head -1)
	STORE_URL="http://127.0.0.1:$port"
}

capp() {
	"$CORDON_APP" "$@"
}

# expect_refusal CODE PATTERN CMD...: CMD exits with CODE and says PATTERN.
expect_refusal() {
	local code=$1 pattern=$2 rc=0 out
	shift 2
	out=$("$@" 2>&1) || rc=$?
	assert_eq "$code" "$rc" "exit status of: $*"
	grep -qF -- "$pattern" <<<"$out" || fail "expected '$pattern' from '$*', got: $out"
}

# disk_state: a digest of every installed file (path, type, link target, content) and of
# policy.ini and the store list, to compare before and after. installed/ itself and its lock
# file appear with the first command that takes the lock.
disk_state() {
	(
		cd "$TEST_TMP"
		local skip=(! -path data/cordon/installed ! -path data/cordon/installed/.lock)
		find data config "${skip[@]}" -printf '%p %y %l\n' | sort
		find data config "${skip[@]}" -type f -print0 | sort -z | xargs -0 -r sha256sum
	) | sha256sum
}

# run_installed ID: what the installed app prints, started as its desktop entry says.
run_installed() {
	local image
	image=$(capp info "$1" --json | jq -r .image)
	"$CORDON_RUN" --no-wayland --app-id "$1" --image "$image" -- /app/bin/hello
}
