#!/usr/bin/env bash
# The session lock global is host-only unless policy.ini grants it to an app by name: a
# sandboxed app without the grant neither sees it nor locks, one with the grant (a
# sandboxed locker) locks, gets the keys, and unlocks.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
LOCKER="$TC/lock-client"

test_cgroup app-flatpak-org.example.Locker-1.scope
in_locker=("${IN_CGROUP[@]}" "$TEST_CGROUP")
test_cgroup app-flatpak-org.example.Other-1.scope
in_other=("${IN_CGROUP[@]}" "$TEST_CGROUP")
cordon_test_init
policy="$TEST_TMP/policy.ini"
cat >"$policy" <<EOF_POLICY
[app org.example.Locker]
globals = ext_session_lock_manager_v1
EOF_POLICY
cordon_start --policy "$policy"
start_client app "$TC/focus-client" --app-id app --color ffff00ff
wait_for_window app
wait_for_focus app

# Without the grant: no global, no lock.
start_client other "${in_other[@]}" "$LOCKER"
wait_for "the ungranted locker to end" not client_alive other
log_has other '^no-lock-manager$' || fail "an app without the grant saw the lock global"
window_is app '.focused' || fail "the app lost the focus to an ungranted locker"

# With the grant: it locks, the keys are its own, and its unlock gives the session back.
start_client locker "${in_locker[@]}" "$LOCKER" --color ffffff00 --unlock-key 88
wait_log locker '^locked$'
wait_log app '^keyboard-leave$'
wait_log locker '^keyboard-enter$'
ctl key click b >/dev/null
wait_log locker '^key code=48 state=pressed$'
! log_has app '^key code=48 ' || fail "the app got a key typed into the granted locker"
ctl key click F12 >/dev/null
wait_log locker '^unlocked$'
wait_for "the app to get the keyboard back" \
	sh -c '[ "$(grep -c "^keyboard-enter$" "$1")" -ge 2 ]' _ "$TEST_TMP/app.log"
echo "lock global: refused without the grant; a granted sandboxed locker locks and unlocks"
