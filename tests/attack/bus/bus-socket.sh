#!/usr/bin/env bash
# Attack: the app goes around its proxy to the real bus: the host's bus socket by its path
# (the host's runtime dir), and a bus on an abstract address from a sandbox that shares the
# host's network (abstract sockets belong to the network namespace). Evidence: the path
# does not exist inside, the abstract connect is refused with EPERM (Landlock's scope),
# /run/user/UID holds no bus socket but the proxy's; controls: the host reaches both buses,
# and the app reaches its own (the proxy's) bus in the same run.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/bus-lib.sh"

bus_start
abstract="cordon-test-bus-$$"
conf="$TEST_TMP/abstract-bus.conf"
sed "s|<listen>.*</listen>|<listen>unix:abstract=$abstract</listen>|" "$TEST_TMP/session-bus.conf" >"$conf"
start_client abstract-bus dbus-daemon --nofork --nopidfile --config-file="$conf"
wait_for "the abstract bus" busctl --address="unix:abstract=$abstract" status
busctl --address="$DBUS_SESSION_BUS_ADDRESS" status >/dev/null || fail "the host cannot reach its bus"

uid=$(id -u)
out=$(run_app --share=network -- /usr/bin/python3 - "$XDG_RUNTIME_DIR/bus" "$abstract" <<'PY' 2>&1
import os, socket, sys
from gi.repository import Gio
def connect(what, address):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(address)
        print("connected " + what)
    except OSError as e:
        print("refused %s %s" % (what, e.errno))
connect("path", sys.argv[1])
connect("abstract", "\0" + sys.argv[2])
print("runtime " + " ".join(sorted(os.listdir(os.environ["XDG_RUNTIME_DIR"]))))
print("address " + os.environ["DBUS_SESSION_BUS_ADDRESS"])
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
names = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
    "ListNames", None, None, 0, 5000, None).unpack()[0]
print("names " + " ".join(n for n in names if not n.startswith(":")))
print("own bus " + bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
    "org.freedesktop.DBus", "GetId", None, None, 0, 5000, None).unpack()[0])
PY
) || fail "the probe failed inside: $out"
echo "$out"
grep -qx "refused path 2" <<<"$out" || fail "the host's bus socket is reachable by path: $out"
grep -qx "refused abstract 1" <<<"$out" || fail "the abstract bus was not refused with EPERM: $out"
grep -qx "address unix:path=/run/user/$uid/bus" <<<"$out" || fail "the bus address inside: $out"
grep -q "^own bus [0-9a-f]\{32\}$" <<<"$out" || fail "the app did not reach its own bus: $out"
# The bus it reaches is the filtered one: cordon's backend, on the real bus, is not listed.
gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
	--method org.freedesktop.DBus.ListNames | grep -q "'org.freedesktop.impl.portal.desktop.cordon'" ||
	fail "cordon's backend is not on the host's bus (the control)"
grep -q "^names .*org.freedesktop.impl.portal.desktop.cordon" <<<"$out" &&
	fail "the app's bus lists the real bus's names: $out"
runtime=$(sed -n 's/^runtime //p' <<<"$out")
for entry in $runtime; do
	case "$entry" in bus | wayland-0 | doc | at-spi) ;; *) fail "unexpected $entry in the runtime dir: $runtime" ;; esac
done
echo "the real bus: not reachable by path or abstract address; the proxy's is the only one"
