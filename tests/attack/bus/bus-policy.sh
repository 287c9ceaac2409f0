#!/usr/bin/env bash
# Attack (on the profile writer's intent): a bus name in policy.ini that the bus would never
# match (a typo, a unique name, a digit first) must not leave the app silently with less, or
# with a rule xdg-dbus-proxy reads differently: cordon-run stops at start with the file,
# the line and the reason, and runs nothing. Controls: the same file with good names runs
# the app, and the names grant what they say.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
cordon_test_init
policy="$TEST_TMP/policy.ini"

check_refused() {
	local line=$1 value=$2 reason=$3
	{
		echo "[app $APP_ID]"
		echo "share ="
		echo "$value"
	} >"$policy"
	local rc=0 out
	out=$("$CORDON_RUN" --no-wayland --policy "$policy" --app-id "$APP_ID" -- \
		sh -c 'echo ran' 2>&1) || rc=$?
	assert_eq 2 "$rc" "exit status for '$value' ($out)"
	! grep -qx ran <<<"$out" || fail "the app ran with '$value'"
	grep -qF "$policy:$line: $reason" <<<"$out" || fail "the error for '$value': $out"
	echo "refused: $out"
}

check_refused 3 "dbus-talk = org.example.Good, 1org.example" \
	"'1org.example' in 'dbus-talk' has an element starting with a digit"
check_refused 3 "dbus-own = :1.42" "':1.42' in 'dbus-own' is a unique connection name"
check_refused 3 "dbus-see = org" "'org' in 'dbus-see' needs at least two elements"
check_refused 3 "dbus-talk = org..example" "'org..example' in 'dbus-talk' has an empty element"
check_refused 3 "dbus-talk = org.example/Evil" "'org.example/Evil' in 'dbus-talk' may only hold"
check_refused 3 "dbus-system-talk = org.freedesktop.*.x" "'org.freedesktop.*.x' in 'dbus-system-talk' may only hold"
check_refused 3 "dbus-a11y = maybe" "'dbus-a11y' must be true or false"
{
	echo "[profile busy]"
	echo "dbus-talk = org.example.Good, org.example.Tree.*"
	echo "dbus-own = org.mpris.MediaPlayer2.example"
	echo "[app $APP_ID]"
	echo "profile = busy"
	echo "dbus-see = org.example.Seen"
} >"$policy"
out=$("$CORDON_RUN" --no-wayland --no-dbus --policy "$policy" --app-id "$APP_ID" -- sh -c 'echo ran') ||
	fail "good names were refused: $out"
assert_eq ran "$out" "the app with good names"
echo "good names: the app runs"
