# Shared by the X11 sandbox tests (tests/attack/x11, tests/x11/sandbox): sourced after
# tests/lib/harness.sh, tests/sandbox/lib.sh and tests/clients/lib.sh.
#
# A sandbox here is a shell in cordon-run --x11 that runs what the test writes to it, so
# that several X programs share one sandbox instance (one X server) as an app's processes
# would. Its output goes to $TEST_TMP/NAME.log.
for tool in xdotool xinput xclip xlogo xdpyinfo; do
	command -v "$tool" >/dev/null || skip "$tool not found (Debian: x11-apps x11-utils xclip xdotool xinput)"
done
command -v Xwayland >/dev/null || skip "Xwayland not found"

declare -A X_SANDBOX_FD=()
declare -A X_SANDBOX_APP=()

# x_sandbox NAME APP_ID [CORDON-RUN OPTIONS...]: starts the sandbox and waits until its X
# server answers.
x_sandbox() {
	local name=$1 app=$2 fifo fd
	shift 2
	fifo="$TEST_TMP/$name.in"
	mkfifo "$fifo"
	# Read-write: opening does not wait for the reader, and the writer stays open.
	exec {fd}<>"$fifo"
	X_SANDBOX_FD[$name]=$fd
	X_SANDBOX_APP[$name]=$app
	start_client "$name" sh -c 'exec "$@" <"$0"' "$fifo" "$CORDON_RUN" --x11 --app-id "$app" \
		"$@" -- sh -c 'while IFS= read -r line; do eval "$(printf %s "$line" | base64 -d)"; done'
	x_run "$name" 'xdpyinfo >/dev/null && echo "x server up"' | grep -q "x server up" ||
		fail "the X server of sandbox $name does not answer: $(cat "$TEST_TMP/$name.log")"
}

# _x_send NAME SCRIPT: one line to the sandbox's shell (base64, so scripts may span lines).
_x_send() {
	printf '%s\n' "$2" | base64 -w0 >&"${X_SANDBOX_FD[$1]}"
	printf '\n' >&"${X_SANDBOX_FD[$1]}"
}

# x_bg NAME COMMAND: runs COMMAND in the background inside the sandbox.
x_bg() {
	_x_send "$1" "( $2 ) &"
}

# x_run NAME COMMAND: runs COMMAND inside the sandbox, waits for it (at most the test's
# timeout) and prints its output and then "status N".
x_run() {
	# A mark of its own: x_run often runs in a command substitution, where no counter kept
	# in the test's shell would advance.
	local name=$1 n
	n=$(date +%s%N)
	# A newline before the end mark, for output that ends without one (xclip -o).
	_x_send "$name" "echo '<<<$n'; ( $2
) 2>&1; echo \" \$?\"; echo '>>>$n'"
	wait_for "sandbox $name to run: $2" grep -q "^>>>$n\$" "$TEST_TMP/$name.log"
	sed -n "/^<<<$n\$/,/^>>>$n\$/p" "$TEST_TMP/$name.log" | sed '1d;$d' | awk '
		{ if (NR > 1) print prev; prev = $0 }
		END {
			# The last line holds the unfinished end of the output (maybe empty), a blank and
			# the status.
			i = match(prev, / [0-9]+$/)
			if (i > 1) print substr(prev, 1, i - 1)
			print "status " substr(prev, i + 1)
		}'
}

# x_end NAME: the sandbox's shell exits, and the sandbox with it.
x_end() {
	local fd=${X_SANDBOX_FD[$1]}
	_x_send "$1" 'exit 0'
	wait_for "sandbox $1 to end" not client_alive "$1"
	exec {fd}>&-
}

# x_window_of SANDBOX_APP_ID [TITLE]: the window JSON of that sandbox's X window (with that
# title); "host" for an unsandboxed one.
_x_window_json() {
	local app=$1 title=${2:-}
	windows_json | jq -c --arg a "$app" --arg t "$title" 'first(.[] | select(
		(if $a == "host" then (.sandboxed | not) else .sandbox_app_id == $a end) and
		($t == "" or .title == $t)))'
}
x_window_of() {
	local json
	json=$(_x_window_json "$@")
	[[ -n "$json" && "$json" != null ]] || fail "no window of $1${2:+ titled $2}"
	printf '%s\n' "$json"
}
_x_has_window() {
	local json
	json=$(_x_window_json "$@")
	[[ -n "$json" && "$json" != null ]]
}
wait_x_window() {
	wait_for "a window of $1${2:+ titled $2}" _x_has_window "$@"
}

# x_focus_press SANDBOX_APP_ID TITLE: the user gives that window the keyboard and clicks in
# its middle (a press the mediation counts, once the window has been visible a while).
x_focus_press() {
	local json id x y
	json=$(x_window_of "$1" "$2")
	id=$(jq -r .id <<<"$json")
	ctl focus "$id" >/dev/null
	wait_for "window $id to have focus" _x_focused "$id"
	wait_for "window $id to take input as the user's" _x_trusted "$id"
	x=$(jq -r '.x + (.width / 2 | floor)' <<<"$json")
	y=$(jq -r '.y + (.height / 2 | floor)' <<<"$json")
	ctl pointer move "$x" "$y" >/dev/null
	ctl pointer button left click >/dev/null
}
_x_focused() {
	windows_json | jq -e --argjson i "$1" 'any(.[]; .id == $i and .focused)' >/dev/null
}
_x_trusted() {
	windows_json | jq -e --argjson i "$1" 'any(.[]; .id == $i and .input_trusted)' >/dev/null
}

# x_cordon_start [CORDON ARGS...]: cordon_start, noting the host's X display (the DISPLAY
# cordon gives what it starts) in HOST_X_DISPLAY.
x_cordon_start() {
	cordon_test_init
	cordon_start --startup "echo \"\$DISPLAY\" > '$TEST_TMP/host-display.tmp' && mv '$TEST_TMP/host-display.tmp' '$TEST_TMP/host-display'" "$@"
	wait_for "cordon's startup command" test -e "$TEST_TMP/host-display"
	HOST_X_DISPLAY=$(cat "$TEST_TMP/host-display")
	[[ "$HOST_X_DISPLAY" == :[0-9]* ]] || fail "cordon started no X server for host apps"
}
