#!/usr/bin/env bash
# Attack (docs/security.md, mediation): a systemd app that the policy marks as sandboxed
# (policy.ini `sandboxed = true`) splits itself over sub-cgroups of its unit: its window
# in one, a worker in another. Grouped by its client's leaf sub-cgroup, freezing the
# hidden app stopped only the window's part and the worker ran on. The app is its unit:
# `cordonctl apps` names the unit, and once the window is minimized the unit is frozen
# whole, the worker included (its stamp stops moving). Positive control: restored, both
# run again.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

test_cgroup app-gnome-org.example.Marked-$$.scope
unit=$TEST_CGROUP
[[ -e "$unit/cgroup.freeze" ]] || skip "no cgroup.freeze (kernel before 5.2)"
mkdir "$unit/window" "$unit/worker"
mount=$CORDON_CGROUP_MOUNT

cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Marked]
sandboxed = true
INI
printf '[freeze]\ndelay = 300ms\n' >"$TEST_TMP/cordon.ini"
cordon_start --verbose --config "$TEST_TMP/cordon.ini" --policy "$TEST_TMP/policy.ini"
frozen() {
	grep -qx 'frozen 1' "$1/cgroup.events"
}
app_json() {
	ctl --json apps | jq -c 'first(.[] | select(.app_id == "org.example.Marked"))'
}
file_is() {
	[[ "$(cat "$1")" == "$2" ]]
}

tick="$TEST_TMP/tick"
start_client worker "${IN_CGROUP[@]}" "$unit/worker" \
	sh -c 'while :; do date +%s%N >"$1"; sleep 0.05; done' worker "$tick"
start_client window "${IN_CGROUP[@]}" "$unit/window" "$TC/focus-client" --app-id marked
wait_for_window marked
wait_for "the worker to run" test -s "$tick"
json=$(app_json)
assert_eq "systemd-app true" "$(jq -r '"\(.engine) \(.sandboxed)"' <<<"$json")" \
	"the marked app as cordonctl apps lists it"
assert_eq "${unit#"$mount"}" "$(jq -r .cgroup <<<"$json")" "the app's cgroup (its unit, not a sub-cgroup)"

# Hidden: the whole unit is frozen, the worker in its own sub-cgroup with it.
ctl minimize marked >/dev/null
wait_for "the unit to be frozen" frozen "$unit"
wait_for "the worker's sub-cgroup to be frozen" frozen "$unit/worker"
before=$(cat "$tick")
# Half a second of a visible host window's frame callbacks: the worker would have
# stamped ten times.
start_client clock "$TC/frame-client" --app-id clock --width 8 --height 8 --no-opaque-region
wait_for "the clock to tick" log_count_above clock '^frame ' 30
assert_eq "$before" "$(cat "$tick")" "the worker's stamp while its app is frozen"

# Restored: thawed whole, the worker runs again.
ctl restore marked >/dev/null
! frozen "$unit" || fail "still frozen once restored"
wait_for "the worker to run again" not file_is "$tick" "$before"
echo "a marked systemd app is its unit: frozen whole, sub-cgroups included, and thawed whole"
