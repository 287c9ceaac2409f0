#!/usr/bin/env bash
# A user adds two stores (one over HTTP on loopback, one a folder, each with its own key),
# installs a signed app from each, starts one from the launcher (gtk-launch, then gio launch)
# and sees its window tagged with its app id, updates it, rolls it back and removes both:
# the desktop entry, icon and policy profile come and go with the app, its data only with
# --delete-data.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"
command -v gtk-launch >/dev/null || skip "gtk-launch not found (Debian package libgtk-3-bin)"
command -v weston-simple-shm >/dev/null || skip "weston-simple-shm not found (Debian package weston)"
cordon_start

make_key alpha
make_key beta
SHM=org.example.Shm
HELLO=net.other.Hello
make_bundle "$APPS_WORK/shm-1.0.cordon" alpha "$SHM" 1.0 /app/bin/shm
make_bundle "$APPS_WORK/hello-1.0.cordon" beta "$HELLO" 1.0 /app/bin/hello '{}'
publish "$APPS_WORK/store-alpha" alpha 1 "$APPS_WORK/shm-1.0.cordon"
publish "$APPS_WORK/store-beta" beta 1 "$APPS_WORK/hello-1.0.cordon"
serve "$APPS_WORK/store-alpha"

capp store add alpha "$STORE_URL" --key "$(pub alpha)" --apps 'org.example.*' >/dev/null
capp store add beta "$APPS_WORK/store-beta" --key "$(pub beta)" --apps "$HELLO" >/dev/null
assert_eq "alpha beta" "$(capp store list --json | jq -r 'map(.name) | join(" ")')" "the stores listed"

# Without --yes and without a terminal nothing is installed: permissions are shown first.
rc=0
out=$(capp install "alpha/$SHM" </dev/null 2>&1) || rc=$?
assert_eq 6 "$rc" "an install nobody confirmed"
grep -q "asks for these permissions" <<<"$out" || fail "permissions not shown: $out"
grep -q "share = network" <<<"$out" || fail "the permission not shown: $out"
[[ -z "$(capp list --json | jq -r '.[].id')" ]] || fail "an unconfirmed install installed"

out=$(capp install "alpha/$SHM" --yes) || fail "install from the HTTP store: $out"
grep -q "Downloading $SHM 1.0 from store alpha" <<<"$out" || fail "no download progress: $out"
grep -q "Installed $SHM 1.0 from store alpha" <<<"$out" || fail "not installed: $out"
capp install "beta/$HELLO" --yes >/dev/null || fail "install from the folder store"
assert_eq "$HELLO 1.0 beta
$SHM 1.0 alpha" "$(capp list --json | jq -r '.[] | "\(.id) \(.version) \(.store)"')" "cordon-app list"

# Every launcher finds it: the desktop entry, the icon, the profile in policy.ini.
desktop="$XDG_DATA_HOME/applications/$SHM.desktop"
[[ -f $desktop ]] || fail "no desktop entry"
grep -q "^Exec=$CORDON_RUN --app-id $SHM --image $XDG_DATA_HOME/cordon/installed/$SHM/current/image -- /app/bin/shm$" \
	"$desktop" || fail "Exec does not go through cordon-run: $(grep Exec "$desktop")"
[[ -f "$XDG_DATA_HOME/icons/hicolor/32x32/apps/$SHM.png" ]] || fail "no icon in the theme"
grep -q "^\[app $SHM\]" "$XDG_CONFIG_HOME/cordon/policy.ini" || fail "no profile in policy.ini"

start_client launch gtk-launch "$SHM"
wait_for "the window of $SHM started by gtk-launch" \
	sh -c "$CORDONCTL --socket $CORDON_SOCKET --json windows | jq -e '.[] | select(.sandbox_app_id == \"$SHM\" and .sandbox_engine == \"cordon\")'"
pid=$(ctl --json windows | jq -r "first(.[] | select(.sandbox_app_id == \"$SHM\")).pid")
kill "$pid"
wait_for_window_gone org.freedesktop.weston.simple-shm

# gio launch reads the same entry.
start_client gio-launch gio launch "$desktop"
wait_for "the window of $SHM started by gio launch" \
	sh -c "$CORDONCTL --socket $CORDON_SOCKET --json windows | jq -e '.[] | select(.sandbox_app_id == \"$SHM\")'"
pid=$(ctl --json windows | jq -r "first(.[] | select(.sandbox_app_id == \"$SHM\")).pid")
kill "$pid"
wait_for_window_gone org.freedesktop.weston.simple-shm

# cordon-app run, and its profile applied by cordon-run.
assert_eq "hello 1.0 a b" "$(capp run "$HELLO" -- a b)" "cordon-app run"

# The profile written at install is what cordon-run applies: the app that asked for the
# network sees the host's interfaces, the one that did not only its own loopback.
interfaces() {
	"$CORDON_RUN" --no-wayland --app-id "$1" --image "$(capp info "$1" --json | jq -r .image)" \
		-- sh -c 'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\n" " "'
}
host_interfaces=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\n" " ")
assert_eq "$host_interfaces" "$(interfaces "$SHM")" "the network of the app that asked for it"
assert_eq "lo " "$(interfaces "$HELLO")" "the network of the app that did not ask"

# The user narrows the permissions: cordon-run applies the narrowing, and an update asking
# for the same permissions keeps it.
sed -i "/^\[profile app-$SHM\]/,/^\[app/ s/^share = network/share =/" "$XDG_CONFIG_HOME/cordon/policy.ini"
assert_eq "lo " "$(interfaces "$SHM")" "the network of the app after the user narrowed it"

# Update: store alpha publishes 1.1 (serial 2).
make_bundle "$APPS_WORK/shm-1.1.cordon" alpha "$SHM" 1.1 /app/bin/shm
publish "$APPS_WORK/store-alpha" alpha 2 "$APPS_WORK/shm-1.0.cordon" "$APPS_WORK/shm-1.1.cordon"
out=$(capp update --yes) || fail "update: $out"
grep -q "Installed $SHM 1.1 from store alpha" <<<"$out" || fail "not updated: $out"
grep -q "$HELLO 1.0 is up to date" <<<"$out" || fail "the other app: $out"
grep -q "Kept the narrowed permissions" <<<"$out" || fail "the narrowing was not kept: $out"
grep -q "^share =$" "$XDG_CONFIG_HOME/cordon/policy.ini" || fail "the narrowed profile was replaced"
assert_eq "1.1 1.0" "$(capp info "$SHM" --json | jq -r '"\(.version) \(.previous)"')" "after the update"
assert_eq "hello 1.1 " "$(run_installed "$SHM")" "the updated app runs"
assert_eq 2 "$(capp store list --json | jq -r '.[] | select(.name == "alpha") | .serial')" \
	"the serial remembered"

# Rollback returns to 1.0, and the launcher starts 1.0.
capp rollback "$SHM" | grep -q "Rolled $SHM back from 1.1 to 1.0" || fail "rollback"
assert_eq "hello 1.0 " "$(run_installed "$SHM")" "the rolled-back app runs"
start_client launch2 gtk-launch "$SHM"
wait_for "the window after rollback" \
	sh -c "$CORDONCTL --socket $CORDON_SOCKET --json windows | jq -e '.[] | select(.sandbox_app_id == \"$SHM\")'"
wait_for "the app's output" grep -q "shm 1.0" "$TEST_TMP/launch2.log"
pid=$(ctl --json windows | jq -r "first(.[] | select(.sandbox_app_id == \"$SHM\")).pid")
kill "$pid"
wait_for_window_gone org.freedesktop.weston.simple-shm

# Remove: the data stays unless asked.
mkdir -p "$XDG_DATA_HOME/cordon/apps/$SHM/data" "$XDG_DATA_HOME/cordon/apps/$HELLO/data"
capp remove "$SHM" | grep -q "Removed $SHM 1.0 (its data is kept" || fail "remove"
capp remove "$HELLO" --delete-data | grep -q "Removed $HELLO 1.0 and its data" || fail "remove --delete-data"
[[ -z "$(capp list --json | jq -r '.[].id')" ]] || fail "apps still listed"
[[ ! -e $desktop && ! -e "$XDG_DATA_HOME/applications/$HELLO.desktop" ]] || fail "desktop entries left"
[[ -z "$(find "$XDG_DATA_HOME/icons" -name '*.png')" ]] || fail "icons left"
! grep -q "cordon-app\|\[app " "$XDG_CONFIG_HOME/cordon/policy.ini" || fail "profiles left in policy.ini"
[[ -d "$XDG_DATA_HOME/cordon/apps/$SHM/data" ]] || fail "the data of $SHM went without --delete-data"
[[ ! -e "$XDG_DATA_HOME/cordon/apps/$HELLO" ]] || fail "the data of $HELLO stayed with --delete-data"
[[ -z "$(ls -A "$XDG_DATA_HOME/cordon/installed" | grep -v '^\.lock$')" ]] || fail "files left in installed/"
rc=0
capp gtk >/dev/null 2>&1 || rc=$?
assert_eq 2 "$rc" "an unknown command"

# A bundle from a file, signed by a key no store has: installed only with the user's one-time
# trust (--trust-key); its image is erofs this time.
command -v mkfs.erofs >/dev/null || skip "mkfs.erofs not found (Debian package erofs-utils)"
make_key carol
mkdir -p "$APPS_WORK/erofs-tree/bin"
printf '#!/bin/sh\necho "hello erofs $*"\n' >"$APPS_WORK/erofs-tree/bin/hello"
chmod 0755 "$APPS_WORK/erofs-tree/bin/hello"
# make_bundle takes the image at image-VERSION.squashfs, whatever its filesystem.
mkfs.erofs "$APPS_WORK/image-7.0.squashfs" "$APPS_WORK/erofs-tree" >/dev/null 2>&1 ||
	fail "mkfs.erofs failed"
make_bundle "$APPS_WORK/carol.cordon" carol org.example.Carol 7.0
expect_refusal 3 "signature does not verify" capp install "$APPS_WORK/carol.cordon" --yes
capp install "$APPS_WORK/carol.cordon" --yes --trust-key "$(pub carol)" | grep -q "from a file" ||
	fail "the one-time trust"
assert_eq "hello erofs " "$(run_installed org.example.Carol)" "the app from an erofs image"
assert_eq "null $(pub carol)" "$(capp info org.example.Carol --json | jq -r '"\(.store) \(.key)"')" \
	"the origin of a file install"
capp remove org.example.Carol >/dev/null

# Two cordon-app runs at once never undo each other's changes: eight stores added in parallel
# are all there (each run reads and writes the store list under the lock).
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$CORDON_APP" store add "s$i" "$APPS_WORK/s$i" --key "$(pub beta)" --apps "net.s$i.App" \
		>/dev/null &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	wait "$pid" || fail "a parallel store add failed"
done
assert_eq "alpha beta s1 s2 s3 s4 s5 s6 s7 s8" \
	"$(capp store list --json | jq -r 'map(.name) | sort | join(" ")')" "stores added in parallel"
