#!/usr/bin/env bash
# Real programs inside cordon-run under a headless cordon, with the seccomp allow-list
# (unknown system calls ENOSYS) and the app's Landlock domain in force: foot runs a shell,
# a GTK 3 application maps its window with a private D-Bus of its own (abstract sockets
# between the app's processes), and Python runs threads, subprocesses, a process pool,
# sqlite, ssl and asyncio. Each leaves evidence that it ran, on the host side.
set -euo pipefail
# GTK starts slowly, more so next to an ASan compositor on two cores.
: "${CORDON_TEST_TIMEOUT:=30}"
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
for tool in foot gtk3-widget-factory dbus-run-session /usr/bin/python3; do
	command -v "$tool" >/dev/null || skip "$tool not found"
done
[[ -n "$(fc-list "DejaVu Sans Mono" 2>/dev/null)" ]] || skip "no DejaVu Sans Mono (Debian package fonts-dejavu-core)"
cordon_start
# The per-app data dir is the app's ~/.local/share: what the app writes there, the host sees.
data="$XDG_DATA_HOME/cordon/apps/$APP_ID/data"

# foot, and a shell inside it that writes a marker.
start_client foot "$CORDON_RUN" --app-id "$APP_ID" --setenv LC_ALL=C.UTF-8 -- \
	foot --font="DejaVu Sans Mono:size=10" sh -c 'echo "foot ran $$" >"$HOME/.local/share/foot-marker"; exec sleep 600'
wait_for_window foot
assert_eq "true cordon $APP_ID" \
	"$(window_json foot | jq -r '"\(.sandboxed) \(.sandbox_engine) \(.sandbox_app_id)"')" \
	"foot's window tag"
wait_for "the shell in foot to run" test -s "$data/foot-marker"
grep -q '^foot ran [0-9]*$' "$data/foot-marker" || fail "foot's shell wrote: $(cat "$data/foot-marker")"
ctl close foot >/dev/null
wait_for_window_gone foot
wait_for "foot to exit after close" not client_alive foot

# GTK 3 with a private session bus inside the sandbox (as gtk.sh does on the host).
start_client gtk "$CORDON_RUN" --app-id "$APP_ID" --setenv GDK_BACKEND=wayland \
	--setenv NO_AT_BRIDGE=1 --setenv GSETTINGS_BACKEND=memory --setenv LC_ALL=C.UTF-8 -- \
	dbus-run-session -- gtk3-widget-factory
wait_for_window gtk3-widget-factory
assert_eq "true cordon $APP_ID" \
	"$(window_json gtk3-widget-factory | jq -r '"\(.sandboxed) \(.sandbox_engine) \(.sandbox_app_id)"')" \
	"the GTK window's tag"
read -r w h < <(window_json gtk3-widget-factory | jq -r '"\(.width) \(.height)"')
((w > 200 && h > 200)) || fail "the widget factory's window is ${w}x$h"
ctl close gtk3-widget-factory >/dev/null
wait_for_window_gone gtk3-widget-factory
wait_for "gtk3-widget-factory to quit after its window closed" not client_alive gtk

# Python: the usual standard library, each step printing what it got.
out=$("$CORDON_RUN" --no-wayland --app-id "$APP_ID" -- /usr/bin/python3 -c '
import asyncio, multiprocessing, os, socket, sqlite3, ssl, subprocess, tempfile, threading
got = []
t = threading.Thread(target=got.append, args=("thread",)); t.start(); t.join()
print(got[0])
print(subprocess.run(["echo", "subprocess"], capture_output=True, text=True).stdout.strip())
with multiprocessing.Pool(2) as pool:
    print("pool", sum(pool.map(abs, [-1, -2, -3])))
print("sqlite", sqlite3.connect(":memory:").execute("select 40 + 2").fetchone()[0])
print("ssl", ssl.create_default_context().verify_mode == ssl.CERT_REQUIRED)
with tempfile.NamedTemporaryFile("w+") as f:
    f.write("tmp"); f.flush(); f.seek(0); print("tempfile", f.read())
async def main():
    r, w = await asyncio.open_unix_connection(sock=socket.socketpair()[0])
    return "asyncio"
print(asyncio.run(main()))
' 2>&1) || fail "python inside failed: $out"
assert_eq "thread
subprocess
pool 6
sqlite 42
ssl True
tempfile tmp
asyncio" "$out" "python inside"
echo "ok: foot, GTK 3 and Python ran inside cordon-run"
