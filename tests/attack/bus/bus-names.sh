#!/usr/bin/env bash
# Attack: through its session bus the app calls what it was not granted: the portal
# backends (org.freedesktop.impl.portal.*: cordon's own, which would show a dialog no
# frontend vetted), org.freedesktop.systemd1 (starts units on the host), the secret
# service (org.freedesktop.secrets) and a name the profile did not grant; and it tries to
# own names that are not its own (a portal's, another app's). Fakes of the services on the
# host record every call they get. Evidence: each call is refused, no fake got one from the
# app, cordon asked the user nothing; controls: a host client reaches every fake, the app
# reaches the name its profile grants (dbus-talk), owns its own id and the name dbus-own
# grants.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"

bus_start
serve_fakes org.freedesktop.systemd1 org.freedesktop.secrets org.example.NotGranted \
	org.example.Granted
policy="$TEST_TMP/policy.ini"
cat >"$policy" <<EOF_POLICY
[app $APP_ID]
dbus-talk = org.example.Granted
dbus-own = org.example.Extra
EOF_POLICY

# Controls first: a host client reaches every fake.
for name in org.freedesktop.systemd1 org.freedesktop.secrets org.example.NotGranted; do
	/usr/bin/python3 "$BUS_PROBE_DIR/bus-probe.py" call "$name" from-host |
		grep -q "^answered $name hit$" || fail "the host could not call the fake $name"
done
assert_eq 3 "$(grep -c "from-host" "$FAKE_LOG")" "calls the fakes got from the host"

before=$(grep -c "auto: request" "$CORDON_LOG" || true)
probe --policy "$policy" -- call org.freedesktop.systemd1 from-app
out=$OUT
for name in org.freedesktop.secrets org.example.NotGranted org.example.Granted; do
	probe --policy "$policy" -- call "$name" from-app
	out+=$'\n'$OUT
done
probe --policy "$policy" -- driver StartServiceByName '(su)' '["org.freedesktop.systemd1", 0]'
out+=$'\n'$OUT
echo "$out"
for name in org.freedesktop.systemd1 org.freedesktop.secrets org.example.NotGranted; do
	grep -q "^refused $name " <<<"$out" || fail "the app's call to $name was not refused: $out"
done
grep -q "^refused StartServiceByName " <<<"$out" || fail "the app could start a service: $out"
grep -qx "answered org.example.Granted hit" <<<"$out" ||
	fail "the granted name did not answer (the probe never reached the bus?): $out"
assert_eq "hit /org/cordon/Test from-app" "$(grep from-app "$FAKE_LOG")" \
	"calls from the app the fakes got (only the granted one)"
echo "calls: systemd1, secrets, an ungranted name and StartServiceByName refused; the granted name answered"

# cordon's backend, called as xdg-desktop-portal would: no dialog, no request.
probe -- driver NameHasOwner '(s)' '["org.freedesktop.impl.portal.desktop.cordon"]'
grep -q "^answered NameHasOwner (False,)$" <<<"$OUT" ||
	fail "the app sees cordon's backend on its bus: $OUT"
RC=0
out=$(run_app -- gdbus call --session --dest org.freedesktop.impl.portal.desktop.cordon \
	--object-path /org/freedesktop/portal/desktop \
	--method org.freedesktop.impl.portal.FileChooser.OpenFile \
	/org/freedesktop/portal/desktop/request/x/y "$APP_ID" "" "title" "{}" 2>&1) || RC=$?
[[ $RC -ne 0 ]] || fail "the app called cordon's backend: $out"
grep -q "ServiceUnknown\|AccessDenied" <<<"$out" || fail "gdbus did not run inside: $out"
gdbus call --session --dest org.freedesktop.impl.portal.desktop.cordon \
	--object-path /org/freedesktop/portal/desktop --method org.freedesktop.DBus.Peer.Ping \
	>/dev/null || fail "cordon's backend does not answer the host"
assert_eq "$before" "$(grep -c "auto: request" "$CORDON_LOG" || true)" "dialogs cordon asked for"
echo "impl.portal: cordon's backend is invisible to the app ($out)"

# Names: another app's, a portal's, and a name below the app's own that dbus-own did not give.
probe --policy "$policy" -- own org.example.Other
out=$OUT
for name in org.freedesktop.portal.Desktop org.freedesktop.impl.portal.desktop.cordon \
	"$APP_ID" "$APP_ID.Helper" org.example.Extra; do
	probe --policy "$policy" -- own "$name"
	out+=$'\n'$OUT
done
echo "$out"
for name in org.example.Other org.freedesktop.portal.Desktop \
	org.freedesktop.impl.portal.desktop.cordon; do
	grep -q "^refused own $name " <<<"$out" || fail "the app could own $name: $out"
done
for name in "$APP_ID" "$APP_ID.Helper" org.example.Extra; do
	grep -qx "answered own $name 1" <<<"$out" || fail "the app could not own $name: $out"
done
echo "own: others' names refused; its id, names below it and dbus-own's granted"
