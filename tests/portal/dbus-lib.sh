# Shared by the D-Bus portal tests (tests/portal/dbus-*.sh): a private session bus
# whose activated xdg-desktop-portal picks cordon (XDG_CURRENT_DESKTOP=cordon, the build
# tree's cordon.portal through XDG_DESKTOP_PORTAL_DIR), cordon with the auto UI, and an
# app that xdg-desktop-portal takes for a Flatpak: a bwrap root with /.flatpak-info
# naming it, in a cgroup app-flatpak-APP-N.scope so that cordon tags its Wayland
# clients the same.
: "${CORDON_PORTAL_DESC_DIR:?CORDON_PORTAL_DESC_DIR must name the folder of the built cordon.portal}"
: "${CORDON_TEST_DBUS_PORTAL_CLIENT:?}"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

for tool in dbus-daemon gdbus bwrap /usr/libexec/xdg-desktop-portal \
	/usr/libexec/xdg-document-portal; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

# dbus_portal_start APP_ID [CORDON ARGS...]: the bus, cordon and the frontend.
dbus_portal_start() {
	dbus_backend_start "$@"
	# The bus starts the frontend on its first call; the Response signals come from it.
	frontend_start
}

# dbus_backend_start APP_ID [CORDON ARGS...]: the bus and cordon, no frontend yet.
dbus_backend_start() {
	DBUS_APP=$1
	shift
	cordon_test_init
	# The activation environment is the bus's: xdg-desktop-portal gets these from it.
	export XDG_CURRENT_DESKTOP=cordon
	# xdg-desktop-portal 1.22 reads its portals.conf from XDG_DESKTOP_PORTAL_DIR when that
	# is set: give it the tree's cordon-portals.conf beside cordon.portal, as installed,
	# so the backend is chosen the way a session chooses it (not by the deprecated UseIn).
	export XDG_DESKTOP_PORTAL_DIR="$TEST_TMP/portals"
	mkdir -p "$XDG_DESKTOP_PORTAL_DIR"
	cp "$CORDON_PORTAL_DESC_DIR/cordon.portal" \
		"$CORDON_SOURCE_ROOT/portals/dbus/cordon-portals.conf" "$XDG_DESKTOP_PORTAL_DIR/"
	start_session_bus
	portal_start "$@"
	portal_sandbox_init "$DBUS_APP"
	wait_for "cordon to own its portal name" grep -q "D-Bus portal: serving as" "$CORDON_LOG"
	_set_in_flatpak
}

_frontend_up() {
	gdbus call --session --dest org.freedesktop.portal.Desktop \
		--object-path /org/freedesktop/portal/desktop \
		--method org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1
}
frontend_start() {
	wait_for "xdg-desktop-portal on the bus" _frontend_up
	FRONTEND_PID=$(gdbus call --session --dest org.freedesktop.DBus \
		--object-path /org/freedesktop/DBus --method \
		org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.portal.Desktop |
		sed 's/^(uint32 \([0-9]*\),)$/\1/')
	wait_for "cordon to know the frontend" grep -q "D-Bus portal: the frontend is :" "$CORDON_LOG"
}

# in_flatpak CMD...: CMD as the app: in its cgroup, in a root of its own that holds
# /.flatpak-info (what xdg-desktop-portal reads through /proc/PID/root) and an instance
# with its bwrapinfo.json, as Flatpak makes them (tests/portal/in-flatpak.sh), with the
# host's /usr and /etc read-only and the bus, the Wayland socket and the test's folder.
# "${IN_FLATPAK[@]}" CMD... is the same as a command (for start_client).
_set_in_flatpak() {
	IN_FLATPAK=("${in_sandbox[@]}" bash "$CORDON_SOURCE_ROOT/tests/portal/in-flatpak.sh"
		"$DBUS_APP" bwrap --ro-bind /usr /usr --symlink usr/bin /bin
		--symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin
		--ro-bind /etc /etc --proc /proc --dev /dev --bind "$XDG_RUNTIME_DIR" "$XDG_RUNTIME_DIR"
		--bind "$TEST_TMP" "$TEST_TMP" --ro-bind "$CORDON_SOURCE_ROOT" "$CORDON_SOURCE_ROOT"
		--setenv DBUS_SESSION_BUS_ADDRESS "$DBUS_SESSION_BUS_ADDRESS" --)
}
in_flatpak() {
	"${IN_FLATPAK[@]}" "$@"
}

# portal_request METHOD [CLIENT ARGS...]: calls org.freedesktop.portal.FileChooser.METHOD
# as the app (tests/portal/dbus-portal-client.c) and waits for its Response. Sets RC,
# RESPONSE_CODE (empty after a D-Bus error, then in DBUS_ERROR) and URIS (one a line).
portal_request() {
	RC=0
	OUT=$(in_flatpak "$CORDON_TEST_DBUS_PORTAL_CLIENT" "$@" 2>"$TEST_TMP/client.err") || RC=$?
	RESPONSE_CODE=$(sed -n 's/^response //p' <<<"$OUT")
	DBUS_ERROR=$(sed -n 's/^error //p' <<<"$OUT")
	URIS=$(sed -n 's/^uri //p' <<<"$OUT")
	if [[ -z "$RESPONSE_CODE$DBUS_ERROR" && "$OUT" != closed ]]; then
		cat "$TEST_TMP/client.err" >&2
	fi
}

# uri_path URI: the path of a file:// URI, decoded.
uri_path() {
	[[ "$1" == file://* ]] || fail "'$1' is not a file URI"
	/usr/bin/python3 -c 'import sys, urllib.parse; print(urllib.parse.unquote(sys.argv[1][7:]))' "$1"
}

# app_view PATH: a document path as the app sees it (what Flatpak mounts as its
# /run/user/UID/doc: the document portal's by-app view, which checks the app's grant).
app_view() {
	case "$1" in
	"$XDG_RUNTIME_DIR/doc/"*) printf '%s\n' "$XDG_RUNTIME_DIR/doc/by-app/$DBUS_APP/${1#"$XDG_RUNTIME_DIR/doc/"}" ;;
	*) fail "'$1' is not in the document portal" ;;
	esac
}

# pending N: true when cordon has N requests waiting for the user.
pending() {
	[[ "$(ctl --json portal-requests | jq length)" == "$1" ]]
}
