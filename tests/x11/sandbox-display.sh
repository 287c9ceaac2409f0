#!/usr/bin/env bash
# A sandbox's own X display (cordon-run --x11, docs/x11.md): its X server is tagged with the
# sandbox (cordonctl x11-servers and windows), the sandbox sees only its own socket as
# /tmp/.X11-unix/X0 with DISPLAY=:0 and no XAUTHORITY, a GTK 3 app over X11 in it shows
# its pixels where cordonctl says and takes what the user types, its override-redirect
# window shows at its X position; when the sandbox ends, its X server, socket and every fd
# cordon held for it go (cordon's fd and process counts return to where they were), and
# displays are capped per app.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/sandbox/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
source "$CORDON_SOURCE_ROOT/tests/attack/x11/lib.sh"
python3 -c 'import gi; gi.require_version("Gtk", "3.0")' 2>/dev/null ||
	skip "GTK 3 introspection (gir1.2-gtk-3.0) is not installed"

x_cordon_start
# Only the host's X server so far.
assert_eq 1 "$(ctl --json x11-servers | jq length)" "X servers before any sandbox"
# cordon's children, and the host's X server (each sandbox's is checked to be gone by its pid).
processes() {
	echo "$(pgrep -c -P "$CORDON_PID" || true) $(pgrep -c -f "^Xwayland $HOST_X_DISPLAY " || true)"
}
# The baseline with the host's X server running: the first X connection of cordon's own
# (a window manager's) opens what the X libraries keep for the process (/dev/urandom).
DISPLAY=$HOST_X_DISPLAY xdpyinfo >/dev/null || fail "the host's X server does not answer"
fd_names >"$TEST_TMP/fds-before"
fds_before=$(fd_count)
processes_before=$(processes)

# gtk_sandbox NAME: a sandbox with a GTK 3 app over X11, checked, used and ended.
gtk_sandbox() {
	local name=$1 app="$APP_ID.$1" out server socket display xpid json id x y w h permille
	x_sandbox "$name" "$app" --app "$CORDON_SOURCE_ROOT/tests/x11"
	out=$(x_run "$name" 'echo "DISPLAY=$DISPLAY XAUTHORITY=${XAUTHORITY-unset}"; ls -A /tmp/.X11-unix')
	assert_eq "DISPLAY=:0 XAUTHORITY=unset
X0
status 0" "$out" "the sandbox's display"
	server=$(ctl --json x11-servers | jq -c --arg a "$app" 'first(.[] | select(.app_id == $a))')
	[[ -n "$server" && "$server" != null ]] || fail "no X server of $app in cordonctl x11-servers"
	assert_eq true "$(jq .sandboxed <<<"$server")" "the sandbox's X server is sandboxed"
	assert_eq cordon "$(jq -r .engine <<<"$server")" "its engine"
	assert_eq true "$(jq .running <<<"$server")" "it runs once the sandbox's X client connected"
	socket=$(jq -r .socket <<<"$server")
	display=$(jq -r .display <<<"$server")
	[[ -S "$socket" ]] || fail "no socket at $socket on the host"
	xpid=$(pgrep -f "^Xwayland $display " | head -n 1) || true
	[[ -n "$xpid" ]] || fail "no Xwayland process for $display"

	# A GTK 3 app over X11 in the sandbox.
	x_bg "$name" 'GDK_BACKEND=x11 python3 /app/x11-window.py --title sandboxed-gtk --color 30,160,90 --popup 40,40,60,200,40,40 > /tmp/gtk.log 2>&1'
	wait_x_window "$app" sandboxed-gtk
	json=$(x_window_of "$app" sandboxed-gtk)
	assert_eq true "$(jq .sandboxed <<<"$json")" "the X11 window is sandboxed"
	assert_eq "$app" "$(jq -r .sandbox_app_id <<<"$json")" "the X11 window's app"
	assert_eq xwayland "$(jq -r .tag_source <<<"$json")" "where its tag comes from"
	assert_eq "$display" "$(jq -r .x11_display <<<"$json")" "its X display"
	x=$(jq .x <<<"$json") y=$(jq .y <<<"$json") w=$(jq .width <<<"$json") h=$(jq .height <<<"$json")
	_window_drawn() {
		screenshot HEADLESS-1 "$TEST_TMP/shot.png"
		(($(color_permille "$TEST_TMP/shot.png" "30 160 90" 8 "$x" $((y + h - 60)) "$w" 60) >= 990))
	}
	wait_for "the X11 window's colour at its box" _window_drawn
	permille=$(color_permille "$TEST_TMP/shot.png" "30 160 90" 8 $((x + w + 12)) "$y" 10 "$h")
	((permille == 0)) || fail "the window's colour is drawn right of its box ($permille‰)"
	_popup_drawn() {
		screenshot HEADLESS-1 "$TEST_TMP/popup.png"
		(($(color_permille "$TEST_TMP/popup.png" "200 40 40" 8 40 40 60 60) >= 990))
	}
	# Its menus show while it has the keyboard (attack-x11-menu-cover: not before).
	id=$(jq -r .id <<<"$json")
	ctl focus "$id" >/dev/null
	wait_for "the X11 window to have focus" _x_focused "$id"
	wait_for "the sandbox's override-redirect window at 40,40" _popup_drawn
	# What the user types reaches it.
	type_text "hello sandbox"
	typed() {
		x_run "$name" 'grep -c "typed: hello sandbox" /tmp/gtk.log' | head -n 1 | grep -qv '^0$'
	}
	wait_for "the typed text in the sandboxed X11 app" typed

	# The sandbox ends: its X server, its socket and what cordon held for it go.
	x_end "$name"
	no_server() {
		ctl --json x11-servers | jq -e --arg a "$app" 'all(.[]; .app_id != $a)' >/dev/null
	}
	wait_for "the sandbox's X server to leave cordonctl x11-servers" no_server
	xserver_gone() {
		[[ ! -e /proc/$xpid ]] || grep -q '^State:.*Z' "/proc/$xpid/status"
	}
	wait_for "the sandbox's Xwayland (pid $xpid) to exit" xserver_gone
	[[ ! -e "$socket" ]] || fail "the X socket $socket is left behind"
}

gtk_sandbox A
# cordon holds no more fds than before (cursor themes and clients' sockets come and go), but
# for one the X libraries open once per process, the first time an X client's window is
# handled, and keep (/dev/urandom).
once=0
fd_names | grep -qx /dev/urandom && ! grep -qx /dev/urandom "$TEST_TMP/fds-before" && once=1
fds_back() {
	(($(fd_count) <= $1))
}
wait_for "cordon's fds to return to $fds_before (+$once; now $(fd_count))" fds_back $((fds_before + once))
assert_eq "$processes_before" "$(processes)" "cordon's children and the X servers running"
# A second sandbox, the same way: nothing more is left.
fds_before=$(fd_count)
gtk_sandbox B
wait_for "cordon's fds to return to $fds_before after a second sandbox (now $(fd_count))" \
	fds_back "$fds_before"
assert_eq "$processes_before" "$(processes)" "cordon's children and the X servers running"

# The cap: 8 displays per app. Eight sandboxes of one app that never start X (their X servers
# wait for a first client) get theirs; a ninth is refused, with the reason.
capped="$APP_ID.Capped"
for i in 1 2 3 4 5 6 7 8; do
	start_client "capped-$i" "$CORDON_RUN" --x11 --app-id "$capped" -- sleep 120
done
eight() {
	(($(ctl --json x11-servers | jq --arg a "$capped" '[.[] | select(.app_id == $a)] | length') == 8))
}
wait_for "eight displays of one app" eight
no_capped() {
	ctl --json x11-servers | jq -e --arg a "$capped" 'all(.[]; .app_id != $a)' >/dev/null
}
status=0
out=$("$CORDON_RUN" --x11 --app-id "$capped" -- true 2>&1) || status=$?
assert_eq 125 "$status" "cordon-run's status when the app has all its displays"
grep -q "no X display for the app: this app has as many X displays as it may (8)" <<<"$out" ||
	fail "cordon-run did not say why: $out"
# Another app is not held back by this one.
x_sandbox other "$APP_ID.Other"
x_end other
for i in 1 2 3 4 5 6 7 8; do
	stop_client "capped-$i"
done
wait_for "the capped app's displays to go" no_capped
wait_for "cordon's fds to return to $fds_before (now $(fd_count)) once every sandbox ended" \
	fds_back "$fds_before"
echo "ok: a sandbox's X display is its own, tagged, shown where cordonctl says, and gone with it"
