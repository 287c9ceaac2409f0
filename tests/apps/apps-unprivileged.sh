#!/usr/bin/env bash
# cordon-app needs no privileges: an ordinary user (nobody) adds a store, installs an app into
# their own $XDG_DATA_HOME and runs it through cordon-run, whose image mount is then squashfuse;
# where that user may not use /dev/fuse, the start is refused with cordon-run's clear message.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

ID=org.example.User
make_key alpha
make_bundle "$APPS_WORK/u-1.0.cordon" alpha "$ID" 1.0 /app/bin/hello '{}'
publish "$APPS_WORK/store" alpha 1 "$APPS_WORK/u-1.0.cordon"
chmod -R a+rX "$APPS_WORK"
setup_user_home 65534
make_delegated_cgroup 65534 || fail "cannot make a delegated cgroup"

as_user 65534 "$CORDON_APP" store add alpha "$APPS_WORK/store" --key "$(pub alpha)" \
	--apps "$ID" >/dev/null || fail "store add as nobody"
out=$(as_user 65534 "$CORDON_APP" install "alpha/$ID" --yes) || fail "install as nobody: $out"
grep -q "Installed $ID 1.0 from store alpha" <<<"$out" || fail "not installed: $out"
home="$TEST_TMP/user-home"
[[ -f "$home/data/applications/$ID.desktop" ]] || fail "no desktop entry in nobody's data home"
[[ $(stat -c %u "$home/data/cordon/installed/$ID/current/image") == 65534 ]] ||
	fail "the image is not the user's"

# Started as the desktop entry says (no cordon runs for nobody here: --no-wayland).
read -ra exec_words <<<"$(sed -n 's/^Exec=//p' "$home/data/applications/$ID.desktop")"
rc=0
out=$(as_user 65534 "${exec_words[0]}" --no-wayland "${exec_words[@]:1}" from-nobody 2>&1) || rc=$?
if setpriv --reuid=65534 --regid=65534 --clear-groups test -r /dev/fuse -a -w /dev/fuse; then
	assert_eq 0 "$rc" "the app run by nobody ($out)"
	grep -q "hello 1.0 from-nobody" <<<"$out" || fail "the app's output: $out"
else
	assert_eq 125 "$rc" "a start without /dev/fuse"
	grep -q "squashfuse needs /dev/fuse" <<<"$out" || fail "unclear refusal: $out"
	_log "note: /dev/fuse is not usable by nobody here: the start was refused as cordon-run does"
fi
as_user 65534 "$CORDON_APP" remove "$ID" >/dev/null || fail "remove as nobody"
[[ ! -e "$home/data/applications/$ID.desktop" ]] || fail "the entry stayed"
