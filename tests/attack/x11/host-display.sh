#!/usr/bin/env bash
# Attack: sandbox A connects to other X servers by their display numbers: the host's (where
# host X apps run) and sandbox B's. Their filesystem sockets are not in A's /tmp (only its own
# X0 is), and wlroots' Xwayland also listens on an abstract socket (@/tmp/.X11-unix/XN),
# which A must not reach either: A's network namespace has its own abstract namespace, and
# with --share=network Landlock's scope keeps A out of the host's (cordon-run refuses --x11
# with --share=network where the kernel cannot scope). Controls: A's own display answers,
# and a host process does reach both other X servers through their abstract sockets.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"
command -v python3 >/dev/null || skip "python3 not found"

x_cordon_start
# -v: cordon-run says which host display it was given.
x_sandbox b "$APP_ID.B" -v
display_b=$(x_run b 'xdpyinfo | sed -n "s/^name of display: *//p"' | head -n 1)
assert_eq ":0" "$display_b" "B's display as B sees it"
number_b=$(sed -n 's/.*X display :\([0-9]*\) of .*/\1/p' "$TEST_TMP/b.log" | head -n 1)
[[ -n "$number_b" ]] || fail "cordon-run -v did not say B's display number: $(cat "$TEST_TMP/b.log")"
number_host=${HOST_X_DISPLAY#:}
# The host's X server starts at its first connection: make it run.
DISPLAY=$HOST_X_DISPLAY xdpyinfo >/dev/null || fail "the host's X server does not answer"

# Controls: a host process reaches both X servers through their abstract sockets.
abstract_connects() {
	python3 -c 'import socket,sys
s = socket.socket(socket.AF_UNIX)
s.connect("\0/tmp/.X11-unix/X" + sys.argv[1])' "$1"
}
for n in "$number_host" "$number_b"; do
	abstract_connects "$n" || fail "control: the host cannot reach @/tmp/.X11-unix/X$n"
done

# attempts SANDBOX: A tries each other X server's abstract socket (what Xlib tries first for
# :N) and its path in /tmp/.X11-unix (what it tries next), and its own display; one line
# each. (A's own display is :0 inside, which may be the host's number outside: that path is
# A's own socket, so only the others' paths are tried.)
probe='import errno, socket, sys
for n in sys.argv[1:]:
    for name, addr in (("abstract", "\0/tmp/.X11-unix/X" + n), ("path", "/tmp/.X11-unix/X" + n)):
        if name == "path" and n == "0":
            continue
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(addr)
            print(name, n, "connected")
        except OSError as e:
            print(name, n, "refused", errno.errorcode[e.errno])
        s.close()'
for variant in default share-network; do
	opts=()
	[[ $variant == share-network ]] && opts=(--share=network)
	x_sandbox "a-$variant" "$APP_ID.A" "${opts[@]}"
	out=$(x_run "a-$variant" "python3 -c '$probe' $number_host $number_b
		xdpyinfo >/dev/null 2>&1 && echo own display answers")
	grep -qx "own display answers" <<<"$out" || fail "$variant: A's own display does not answer:
$out"
	for n in "$number_host" "$number_b"; do
		grep -q "^abstract $n refused" <<<"$out" || fail "$variant: A reached @/tmp/.X11-unix/X$n:
$out"
		[[ $n == 0 ]] || grep -q "^path $n refused" <<<"$out" ||
			fail "$variant: A reached /tmp/.X11-unix/X$n:
$out"
	done
	x_end "a-$variant"
done
echo "ok: a sandbox reaches no X server but its own, with or without the host's network"
