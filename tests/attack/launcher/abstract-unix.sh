#!/usr/bin/env bash
# Attack: with --share=network the sandbox shares the host's network namespace, and with it
# the host's abstract unix sockets (X11's @/tmp/.X11-unix/X0, abstract D-Bus addresses). A
# host process listens on an abstract socket (and answers a host client, so it is real); the
# app with --share=network tries to connect and must be refused (EPERM, Landlock's scope).
# Controls: the network is really shared (the app reaches a TCP listener on the host's
# loopback), and abstract sockets between the app's own processes still work.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/launcher/lib.sh"
cordon_test_init
command -v python3 >/dev/null || skip "python3 not found"

name="cordon-attack-x11-$$"
python3 - "$name" "$TEST_TMP/ready" <<'PY' &
import os, socket, sys
name, ready = sys.argv[1], sys.argv[2]
ab = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ab.bind("\0" + name)
ab.listen(8)
tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
tcp.bind(("127.0.0.1", 0))
tcp.listen(8)
with open(ready + ".tmp", "w") as f:
    f.write(str(tcp.getsockname()[1]))
os.rename(ready + ".tmp", ready)
import selectors
sel = selectors.DefaultSelector()
sel.register(ab, selectors.EVENT_READ, b"abstract secret\n")
sel.register(tcp, selectors.EVENT_READ, b"tcp hello\n")
while True:
    for key, _ in sel.select():
        conn, _ = key.fileobj.accept()
        conn.sendall(key.data)
        conn.close()
PY
server=$!
stop_server() { kill "$server" 2>/dev/null || true; }
on_teardown stop_server
wait_for "the host's listeners" test -s "$TEST_TMP/ready"
port=$(cat "$TEST_TMP/ready")

# The host reaches its own abstract socket: the listener is there to be attacked.
got=$(python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect("\0"+sys.argv[1]); print(s.recv(64).decode().strip())' "$name")
assert_eq "abstract secret" "$got" "a host client of the abstract socket"

out=$(attack --share=network -- abstract "$name")
assert_attack "abstract socket" "$out" abstract "ok connect @$name: EPERM"
out=$(attack --share=network -- tcp "$port")
assert_attack "tcp control" "$out" tcp "control tcp 127.0.0.1:$port read 'tcp hello'"
out=$(attack --share=network -- abstract-own)
assert_attack "own abstract socket" "$out" abstract-own \
	"control an abstract socket between the app's own processes works"
# The network-client profile shares the network the same way.
out=$(attack --profile network-client -- abstract "$name")
assert_attack "abstract socket, network-client" "$out" abstract "ok connect @$name: EPERM"
echo "ok: the host's abstract unix sockets are out of a --share=network sandbox's reach"
