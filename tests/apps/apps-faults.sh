#!/usr/bin/env bash
# kill -9 during install and update leaves a runnable app: the new version, or the old one
# (nothing, on a first install), never a half-written one; the next run finishes the job.
# Each step of the transaction is hit on purpose (CORDON_APP_KILL_AT), then random kills of
# an install of a larger bundle at random moments.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

ID=org.example.Faults
make_key alpha
capp store add alpha "$APPS_WORK/store" --key "$(pub alpha)" --apps "$ID" >/dev/null
make_bundle "$APPS_WORK/f-1.0.cordon" alpha "$ID" 1.0
make_bundle "$APPS_WORK/f-1.1.cordon" alpha "$ID" 1.1

# consistent EXPECTED...: the installed version is one of EXPECTED (or "none"), it runs and
# prints that version, and its launcher entry (if any) names an image that exists.
consistent() {
	local version desktop="$XDG_DATA_HOME/applications/$ID.desktop"
	version=$(capp info "$ID" --json 2>/dev/null | jq -r .version) || version=none
	[[ -n $version ]] || version=none
	local ok=0 e
	for e in "$@"; do
		[[ $e == "$version" ]] && ok=1
	done
	((ok)) || fail "after a kill: version '$version', expected one of $*"
	if [[ $version != none ]]; then
		assert_eq "hello $version " "$(run_installed "$ID")" "the app after a kill ($(ls -l "$XDG_DATA_HOME/cordon/installed/$ID" | tr "\n" " "))"
	fi
	if [[ -e $desktop ]]; then
		local image
		image=$(sed -n 's/^Exec=.* --image \([^ ]*\) .*/\1/p' "$desktop")
		[[ -f $image ]] || fail "the launcher entry names a missing image $image"
	fi
}

killed_install() {
	local step=$1 bundle=$2 rc=0
	CORDON_APP_KILL_AT=$step capp install "$bundle" --yes >/dev/null 2>&1 || rc=$?
	assert_eq 137 "$rc" "cordon-app killed at $step"
}

# First install, killed at each step: no app, or the complete one.
for step in staging before-rename before-switch after-switch profile-written; do
	killed_install "$step" "$APPS_WORK/f-1.0.cordon"
	consistent none 1.0
	capp install "$APPS_WORK/f-1.0.cordon" --yes >/dev/null || fail "install after a kill at $step"
	consistent 1.0
	[[ -f "$XDG_DATA_HOME/applications/$ID.desktop" ]] || fail "no launcher entry after $step"
	[[ -z "$(find "$XDG_DATA_HOME/cordon/installed" -name '.staging-*' -o -name '*.tmp')" ]] ||
		fail "leftovers after the repair of $step"
	capp remove "$ID" >/dev/null
done

# Update, killed at each step: 1.0 or 1.1, always runnable.
capp install "$APPS_WORK/f-1.0.cordon" --yes >/dev/null
for step in staging before-rename before-switch after-switch profile-written; do
	killed_install "$step" "$APPS_WORK/f-1.1.cordon"
	consistent 1.0 1.1
	capp install "$APPS_WORK/f-1.1.cordon" --yes >/dev/null || fail "update after a kill at $step"
	consistent 1.1
	capp rollback "$ID" >/dev/null
	consistent 1.0
done

# Random moments: a 40 MB image takes long enough to be hit while it is copied and hashed.
tree="$APPS_WORK/big/bin"
mkdir -p "$tree"
printf '#!/bin/sh\necho "hello 2.0 $*"\n' >"$tree/hello"
chmod 0755 "$tree/hello"
head -c $((40 << 20)) /dev/urandom >"$tree/blob"
mksquashfs "$APPS_WORK/big" "$APPS_WORK/image-2.0.squashfs" -noappend -quiet -noI -noD >/dev/null
make_bundle "$APPS_WORK/f-2.0.cordon" alpha "$ID" 2.0
interrupted=0
for i in $(seq 1 20); do
	"$CORDON_APP" install "$APPS_WORK/f-2.0.cordon" --yes >/dev/null 2>&1 &
	pid=$!
	# The fault's timing, not a wait for a condition: a random moment of the transaction.
	sleep "0.$(printf '%03d' $((RANDOM % 150)))"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	consistent 1.0 1.1 2.0
	if [[ $(capp info "$ID" --json | jq -r .version) == 2.0 ]]; then
		capp rollback "$ID" >/dev/null
	else
		interrupted=$((interrupted + 1))
	fi
done
((interrupted > 0)) || fail "no random kill landed before the switch: the loop tested nothing"
_log "random kills: $interrupted of 20 landed before the switch"
capp install "$APPS_WORK/f-2.0.cordon" --yes >/dev/null || fail "the install after the kills"
consistent 2.0

# An update from a store, killed at each step: the download is an unnamed file, so nothing
# of it is left; the app stays 2.0 or becomes 3.0.
make_bundle "$APPS_WORK/f-3.0.cordon" alpha "$ID" 3.0
publish "$APPS_WORK/store" alpha 1 "$APPS_WORK/f-3.0.cordon"
for step in staging before-rename before-switch after-switch profile-written; do
	rc=0
	CORDON_APP_KILL_AT=$step capp update --yes >/dev/null 2>&1 || rc=$?
	assert_eq 137 "$rc" "cordon-app update killed at $step"
	consistent 2.0 3.0
	[[ -z "$(find "$XDG_DATA_HOME/cordon" -name '.download-*')" ]] || fail "a download was left"
	capp update --yes >/dev/null || fail "the update after a kill at $step"
	consistent 3.0
	capp rollback "$ID" >/dev/null
	consistent 2.0
done
