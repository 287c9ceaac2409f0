# Shared by the session-bus tests (tests/sandbox/launcher-dbus*.sh, tests/attack/bus/):
# a private session bus whose activated xdg-desktop-portal picks cordon as its backend
# (XDG_CURRENT_DESKTOP=cordon, the build tree's cordon.portal), cordon with the auto UI,
# and run_app, which starts the probe (tests/sandbox/bus-probe.py) or any command in
# cordon-run with the bus proxy. Sourced after harness.sh and sandbox/lib.sh.
: "${CORDON_PORTAL_DESC_DIR:?CORDON_PORTAL_DESC_DIR must name the folder of the built cordon.portal}"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

for tool in dbus-daemon gdbus xdg-dbus-proxy /usr/bin/python3 /usr/libexec/xdg-desktop-portal \
	/usr/libexec/xdg-document-portal; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
/usr/bin/python3 -c 'from gi.repository import Gio' 2>/dev/null || skip "python3-gi is not installed"

BUS_PROBE_DIR="$CORDON_SOURCE_ROOT/tests/sandbox"

# bus_start [CORDON ARGS...]: the bus, cordon (auto UI) and per-app dirs in $TEST_TMP.
bus_start() {
	cordon_test_init
	# BUS_DESKTOP and BUS_PORTAL_DIR: another backend beside cordon (launcher-dbus-portals).
	export XDG_CURRENT_DESKTOP="${BUS_DESKTOP:-cordon}"
	export XDG_DESKTOP_PORTAL_DIR="${BUS_PORTAL_DIR:-$CORDON_PORTAL_DESC_DIR}"
	export XDG_DATA_HOME="$TEST_TMP/data" XDG_CONFIG_HOME="$TEST_TMP/config"
	mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
	start_session_bus
	portal_start --verbose "$@"
	wait_for "cordon to own its portal name" grep -q "D-Bus portal: serving as" "$CORDON_LOG"
	# cordon starts the document portal; its FUSE mount is the host's from then on.
	gdbus call --session --dest org.freedesktop.portal.Documents \
		--object-path /org/freedesktop/portal/documents \
		--method org.freedesktop.portal.Documents.GetMountPoint >/dev/null
	wait_for "the document portal's mount" grep -qF " $XDG_RUNTIME_DIR/doc " /proc/self/mounts
}

# run_app [CORDON-RUN OPTIONS...] -- COMMAND...: COMMAND in a sandbox of $APP_ID with the
# probe's folder at /app (the probe is /app/bus-probe.py).
run_app() {
	"$CORDON_RUN" --app-id "$APP_ID" --app "$BUS_PROBE_DIR" "$@"
}

# probe [CORDON-RUN OPTIONS...] -- PROBE ARGS...: the probe in the sandbox; sets OUT and RC.
probe() {
	local opts=()
	while (($#)) && [[ "$1" != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	RC=0
	OUT=$(run_app "${opts[@]}" -- /usr/bin/python3 /app/bus-probe.py "$@" 2>"$TEST_TMP/probe.err") ||
		RC=$?
	if ((RC != 0)); then
		cat "$TEST_TMP/probe.err" >&2
	fi
}

# serve_fakes NAME...: a host process owning each NAME; every call it gets is a line of
# $FAKE_LOG ("hit PATH ARG").
serve_fakes() {
	FAKE_LOG="$TEST_TMP/fakes.log"
	: >"$FAKE_LOG"
	start_client fakes /usr/bin/python3 "$BUS_PROBE_DIR/bus-probe.py" serve "$FAKE_LOG" "$@"
	wait_for "the fake services" grep -q "^serving$" "$FAKE_LOG"
}
