#!/usr/bin/env bash
# cordon-run's session bus (docs/sandbox.md "The session bus"): xdg-dbus-proxy listens
# before the app starts, its socket is the sandbox's only bus (DBUS_SESSION_BUS_ADDRESS),
# it ends with the sandbox however the sandbox ends (exit, SIGTERM, cordon-run SIGKILLed),
# an abstract upstream address works, --no-dbus gives no bus; and GSettings persist per app
# in the app's own config dir (keyfile backend), never in the host's settings.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"

bus_start
MOUNTS_BEFORE=$(host_mounts)
uid=$(id -u)

# The bus answers the app's very first call: the proxy listened before the app started.
out=$(run_app -- sh -c 'echo "address $DBUS_SESSION_BUS_ADDRESS"; echo "backend $GSETTINGS_BACKEND"
	gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.GetId') || fail "the first call inside failed: $out"
grep -qx "address unix:path=/run/user/$uid/bus" <<<"$out" || fail "the address inside: $out"
grep -qx "backend keyfile" <<<"$out" || fail "GSETTINGS_BACKEND inside: $out"
grep -q "^('[0-9a-f]\{32\}',)$" <<<"$out" || fail "the bus did not answer the first call: $out"
assert_nothing_left "a run with the bus"
echo "the first call is answered; nothing left after the app exits"

# proxy_of PID: the xdg-dbus-proxy child of cordon-run PID, if any.
proxy_of() {
	local stat
	for stat in /proc/[0-9]*/stat; do
		read -r -a f <"$stat" 2>/dev/null || continue
		[[ "${f[3]}" == "$1" && "${f[1]}" == "(xdg-dbus-proxy)" ]] && echo "${f[0]}"
	done
	return 0
}
for how in TERM KILL; do
	start_client "held-$how" "$CORDON_RUN" --app-id "$APP_ID" --app "$BUS_PROBE_DIR" -- \
		sh -c 'echo started; exec sleep 600'
	run_pid=$(client_pid "held-$how")
	wait_for "the app to start" grep -q started "$TEST_TMP/held-$how.log"
	proxy=$(proxy_of "$run_pid")
	[[ -n "$proxy" ]] || fail "no xdg-dbus-proxy under cordon-run $run_pid"
	kill "-$how" "$run_pid"
	wait_for "the proxy to end after SIG$how to cordon-run" sh -c "! kill -0 $proxy 2>/dev/null"
	wait_for "cordon-run to end" sh -c "! kill -0 $run_pid 2>/dev/null"
	echo "SIG$how to cordon-run: the proxy (pid $proxy) ended with the sandbox"
done
# What a SIGKILLed cordon-run cannot remove (docs/sandbox.md): its socket dirs and scope.
rm -rf "$XDG_RUNTIME_DIR"/cordon-run-*
_remove_scopes() {
	local scope
	for scope in $(leftover_scopes); do
		rmdir "$scope" 2>/dev/null || return 1
	done
}
wait_for "the SIGKILLed sandbox's scope to empty" _remove_scopes
assert_nothing_left "SIGTERM and SIGKILL"

# --no-dbus: no bus, no identity file.
out=$(run_app --no-dbus -- sh -c 'ls -A "$XDG_RUNTIME_DIR"; echo "address=${DBUS_SESSION_BUS_ADDRESS:-}"
	test -e /.flatpak-info && echo identity; true')
! grep -qx bus <<<"$out" || fail "--no-dbus left a bus socket: $out"
grep -qx "address=" <<<"$out" || fail "--no-dbus set an address: $out"
! grep -qx identity <<<"$out" || fail "--no-dbus left /.flatpak-info: $out"
echo "--no-dbus: no bus, no /.flatpak-info"

# An abstract upstream address (dbus-launch's kind): the proxy shares the host's network
# namespace, the app does not need to.
abstract="cordon-test-bus-$$"
sed "s|<listen>.*</listen>|<listen>unix:abstract=$abstract</listen>|" "$TEST_TMP/session-bus.conf" \
	>"$TEST_TMP/abstract-bus.conf"
start_client abstract-bus dbus-daemon --nofork --nopidfile --config-file="$TEST_TMP/abstract-bus.conf"
wait_for "the abstract bus" busctl --address="unix:abstract=$abstract" status
out=$(DBUS_SESSION_BUS_ADDRESS="unix:abstract=$abstract" run_app -- gdbus call --session \
	--dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
	--method org.freedesktop.DBus.GetId) || fail "the app's bus to an abstract upstream: $out"
assert_eq "('$(busctl --address="unix:abstract=$abstract" call org.freedesktop.DBus \
	/org/freedesktop/DBus org.freedesktop.DBus GetId | cut -d'"' -f2)',)" "$out" \
	"the bus id inside (the abstract bus's)"
echo "an abstract upstream: proxied"

# The system bus: absent by default, and with dbus-system-talk only the names it grants (a
# private bus stands for the system's, at DBUS_SYSTEM_BUS_ADDRESS).
system_sock="$TEST_TMP/system-bus"
sed "s|<listen>.*</listen>|<listen>unix:path=$system_sock</listen>|" "$TEST_TMP/session-bus.conf" \
	>"$TEST_TMP/system-bus.conf"
start_client system-bus dbus-daemon --nofork --nopidfile --config-file="$TEST_TMP/system-bus.conf"
wait_for "the private system bus" busctl --address="unix:path=$system_sock" status
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$system_sock"
: >"$TEST_TMP/system-fakes.log"
DBUS_SESSION_BUS_ADDRESS=$DBUS_SYSTEM_BUS_ADDRESS start_client system-fakes /usr/bin/python3 \
	"$BUS_PROBE_DIR/bus-probe.py" serve "$TEST_TMP/system-fakes.log" org.example.SysGranted \
	org.example.SysOther
wait_for "the system bus fakes" grep -q "^serving$" "$TEST_TMP/system-fakes.log"
system_calls='for name in org.example.SysGranted org.example.SysOther; do
	gdbus call --system --dest $name --object-path /org/cordon/Test \
		--method org.cordon.Test.Hit inside >/dev/null 2>&1 && echo "answered $name"
	done; ls /run/dbus 2>/dev/null; echo "system=${DBUS_SYSTEM_BUS_ADDRESS:-}"'
out=$(run_app -- sh -c "$system_calls")
assert_eq "system=" "$out" "the system bus without dbus-system-talk"
printf '[app %s]\ndbus-system-talk = org.example.SysGranted\n' "$APP_ID" >"$TEST_TMP/system.ini"
out=$(run_app --policy "$TEST_TMP/system.ini" -- sh -c "$system_calls")
assert_eq "answered org.example.SysGranted
system_bus_socket
system=unix:path=/run/dbus/system_bus_socket" "$out" "the system bus with dbus-system-talk"
assert_eq 1 "$(grep -c inside "$TEST_TMP/system-fakes.log")" "calls the system fakes got"
unset DBUS_SYSTEM_BUS_ADDRESS
echo "system bus: none by default; with dbus-system-talk only the granted name answers"

# GSettings: per app, persistent, in the app's config dir.
schema=org.gnome.desktop.interface
grep -qs '<key name="color-scheme"' "/usr/share/glib-2.0/schemas/$schema.gschema.xml" ||
	skip "gsettings-desktop-schemas (org.gnome.desktop.interface color-scheme) is not installed"
run_app -- gsettings set "$schema" color-scheme prefer-dark
out=$(run_app -- gsettings get "$schema" color-scheme)
assert_eq "'prefer-dark'" "$out" "color-scheme in a second run of $APP_ID"
keyfile="$XDG_DATA_HOME/cordon/apps/$APP_ID/config/glib-2.0/settings/keyfile"
grep -qx "color-scheme='prefer-dark'" "$keyfile" || fail "the app's keyfile: $(cat "$keyfile" 2>&1)"
other=$("$CORDON_RUN" --app-id "$APP_ID.Other" --app "$BUS_PROBE_DIR" -- gsettings get "$schema" color-scheme)
assert_eq "'default'" "$other" "color-scheme of another app"
host=$(GSETTINGS_BACKEND=keyfile gsettings get "$schema" color-scheme)
assert_eq "'default'" "$host" "color-scheme of the host (its keyfile in $XDG_CONFIG_HOME)"
[[ ! -e "$XDG_CONFIG_HOME/dconf" ]] || fail "something wrote the host's dconf: $(ls -R "$XDG_CONFIG_HOME/dconf")"
echo "gsettings: set, restart, get: 'prefer-dark' for $APP_ID only, in $keyfile"

# The accessibility bus: through the proxy when the host's runs (at-spi-bus-launcher,
# started here as a desktop starts it), with only the registry's calls Flatpak allows.
a11y=$(gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus \
	--method org.a11y.Bus.GetAddress 2>/dev/null | sed -n "s/^('\(.*\)',)$/\1/p") || true
[[ -n "$a11y" ]] || skip "at-spi-bus-launcher (at-spi2-core) did not start"
host_id=$(gdbus call --address "$a11y" --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
	--method org.freedesktop.DBus.GetId)
out=$(run_app -- sh -c 'echo "address $AT_SPI_BUS_ADDRESS"
	gdbus call --address "$AT_SPI_BUS_ADDRESS" --dest org.freedesktop.DBus \
		--object-path /org/freedesktop/DBus --method org.freedesktop.DBus.GetId
	gdbus call --address "$AT_SPI_BUS_ADDRESS" --dest org.a11y.atspi.Registry \
		--object-path /org/a11y/atspi/registry \
		--method org.a11y.atspi.Registry.GetRegisteredEvents >/dev/null && echo "registry answered"
	gdbus call --address "$AT_SPI_BUS_ADDRESS" --dest org.a11y.atspi.Registry \
		--object-path /org/a11y/atspi/registry \
		--method org.a11y.atspi.Registry.RegisterEvent "object:" "[]" "" 2>&1 | grep -o AccessDenied
	true') || fail "the accessibility probe failed: $out"
grep -qx "address unix:path=/run/user/$uid/at-spi/bus" <<<"$out" || fail "AT_SPI_BUS_ADDRESS: $out"
grep -qxF "$host_id" <<<"$out" || fail "the app's accessibility bus is not the host's: $out"
grep -qx "registry answered" <<<"$out" || fail "the registry's allowed call: $out"
grep -qx "AccessDenied" <<<"$out" || fail "a call outside the rules was not refused: $out"
printf '[app %s]\ndbus-a11y = false\n' "$APP_ID" >"$TEST_TMP/no-a11y.ini"
out=$(run_app --policy "$TEST_TMP/no-a11y.ini" -- sh -c 'ls -A "$XDG_RUNTIME_DIR"; echo "a=${AT_SPI_BUS_ADDRESS:-}"')
! grep -qx at-spi <<<"$out" && grep -qx "a=" <<<"$out" || fail "dbus-a11y = false: $out"
echo "accessibility: the host's AT-SPI bus through the proxy, filtered; none with dbus-a11y = false"
