# Shared fixture for cordon's shell tests: each test sources this file, starts its own
# headless cordon in a private XDG_RUNTIME_DIR, drives it with cordonctl and real
# clients, and on exit tears everything down. A test fails if cordon crashed, exited
# non-zero, or its log holds a sanitizer report, even when every assertion passed:
# the ASan build of the suite is how leaks and use-after-free in the compositor show.
#
# Usage (from a test run by meson, which sets CORDON, CORDONCTL, CORDON_TEST_TOOLS...):
#
#	set -euo pipefail
#	source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
#	cordon_start
#	start_client shm weston-simple-shm
#	wait_for_window org.freedesktop.weston.simple-shm
#
# Environment: CORDON_TEST_TIMEOUT (seconds for each wait, default 15),
# CORDON_TEST_KEEP=1 keeps $TEST_TMP (logs, screenshots) after the test.

: "${CORDON:?CORDON must point to the cordon binary (run the tests with meson test)}"
: "${CORDONCTL:?CORDONCTL must point to the cordonctl binary}"
: "${CORDON_TEST_TIMEOUT:=15}"

# Sanitizer reports that make a test fail wherever they appear in cordon's log.
CORDON_SANITIZER_PATTERN='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:'

# A test must never reach the developer's session: no inherited display or socket.
unset DISPLAY WAYLAND_SOCKET WAYLAND_DISPLAY CORDON_SOCKET
# pixman works everywhere (no GPU in CI); no real input devices are opened.
export WLR_RENDERER=pixman
export WLR_LIBINPUT_NO_DEVICES=1

TEST_TMP=
CORDON_PID=
CORDON_LOG=
CORDON_HARNESS_PID=$BASHPID
CORDON_HARNESS_FAILED=0
CORDON_HARNESS_REPORTED=0
declare -a CORDON_CLIENT_NAMES=()
declare -A CORDON_CLIENT_PIDS=()
# Extra cordon instances, by Wayland socket name.
declare -a CORDON_EXTRA_NAMES=()
declare -A CORDON_EXTRA_PIDS=()
CORDON_EXTRA_SOCKET=
CORDON_START_COUNT=0
# Everything started, in order ("main", "client NAME", "extra NAME"): teardown goes in
# reverse, so a nested cordon goes before the Xvfb or cordon it runs in, and clients
# before the compositor they use.
declare -a CORDON_STARTED=()

_log() {
	printf '%s\n' "$*" >&2
}

# Makes $TEST_TMP and the private XDG_RUNTIME_DIR. Called by everything that needs
# them; a test that needs $TEST_TMP before starting anything calls it first.
cordon_test_init() {
	if [[ -n "$TEST_TMP" ]]; then
		return 0
	fi
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/cordon-test.XXXXXX")
	mkdir -m 0700 "$TEST_TMP/runtime"
	export XDG_RUNTIME_DIR="$TEST_TMP/runtime"
	# Clients read no user configuration and write nothing into $HOME.
	mkdir -p "$TEST_TMP/config" "$TEST_TMP/data" "$TEST_TMP/cache"
	export XDG_CONFIG_HOME="$TEST_TMP/config"
	export XDG_DATA_HOME="$TEST_TMP/data"
	export XDG_CACHE_HOME="$TEST_TMP/cache"
	# No test talks to the bus of whoever runs the suite; start_session_bus makes one.
	unset DBUS_SESSION_BUS_ADDRESS
	trap cordon_teardown EXIT
}

# True while PID is running; a zombie (exited, not yet reaped) counts as gone.
_alive() {
	local pid=$1 state
	[[ -r /proc/$pid/stat ]] || return 1
	state=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[[ -n "$state" && "$state" != Z && "$state" != X ]]
}

# Waits up to SECONDS for PID to end; false if it is still running.
_wait_gone() {
	local pid=$1 seconds=$2 deadline
	deadline=$(($(date +%s%N) + seconds * 1000000000))
	while _alive "$pid"; do
		if (($(date +%s%N) > deadline)); then
			return 1
		fi
		sleep 0.05
	done
}

_tail_logs() {
	local f
	[[ -n "$TEST_TMP" && -d "$TEST_TMP" ]] || return 0
	for f in "$TEST_TMP"/*.log; do
		[[ -e "$f" ]] || continue
		_log "----- last lines of $(basename "$f") -----"
		tail -n 40 "$f" >&2
	done
	_log "-----"
	CORDON_HARNESS_REPORTED=1
}

fail() {
	_log "FAIL: $*"
	_tail_logs
	CORDON_HARNESS_FAILED=1
	exit 1
}

skip() {
	_log "SKIP: $*"
	exit 77
}

assert_eq() {
	local expected=$1 actual=$2 msg=${3:-values differ}
	if [[ "$expected" != "$actual" ]]; then
		fail "$msg: expected '$expected', got '$actual'"
	fi
}

# Fails unless the command succeeds; for checks that read best as a command.
assert() {
	local msg=$1
	shift
	if ! "$@"; then
		fail "$msg (command failed: $*)"
	fi
}

# Fails if the main cordon (or an extra one) is no longer running: waiting the full
# timeout for a window from a compositor that crashed only hides the crash.
_check_cordons_alive() {
	local name
	if [[ -n "$CORDON_PID" ]] && ! _alive "$CORDON_PID"; then
		fail "cordon (pid $CORDON_PID) died; see cordon.log"
	fi
	for name in "${CORDON_EXTRA_NAMES[@]}"; do
		if [[ -n "${CORDON_EXTRA_PIDS[$name]}" ]] && ! _alive "${CORDON_EXTRA_PIDS[$name]}"; then
			fail "cordon instance $name (pid ${CORDON_EXTRA_PIDS[$name]}) died; see cordon-$name.log"
		fi
	done
}

# not CMD...: succeeds when CMD fails, for wait_for "x to go" not client_alive x.
not() {
	! "$@"
}

wait_for() {
	local description=$1 deadline
	shift
	deadline=$(($(date +%s%N) + CORDON_TEST_TIMEOUT * 1000000000))
	while true; do
		# In a subshell, so that a predicate calling fail only counts as "not yet".
		if ("$@") >/dev/null 2>&1; then
			return 0
		fi
		_check_cordons_alive
		if (($(date +%s%N) > deadline)); then
			fail "timed out waiting for $description"
		fi
		sleep 0.1
	done
}

# Starts cordon with the given log and socket name in the background and waits for its
# control socket. Prints nothing; sets _started_pid.
_launch_cordon() {
	local log=$1 socket_name=$2 description=$3 deadline
	shift 3
	# libwlroots has no frame pointers: with ASan's fast unwinder a leak allocated
	# inside it has a two-frame stack that lsan.supp's function names cannot match.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" "$@" >"$log" 2>&1 &
	_started_pid=$!
	local control="$XDG_RUNTIME_DIR/cordon.$socket_name.sock"
	deadline=$(($(date +%s%N) + CORDON_TEST_TIMEOUT * 1000000000))
	while [[ ! -S "$control" || ! -S "$XDG_RUNTIME_DIR/$socket_name" ]]; do
		if ! _alive "$_started_pid"; then
			local rc=0
			wait "$_started_pid" || rc=$?
			fail "$description exited with status $rc before its control socket appeared"
		fi
		if (($(date +%s%N) > deadline)); then
			fail "timed out waiting for the control socket of $description ($control)"
		fi
		sleep 0.05
	done
}

cordon_start() {
	cordon_test_init
	if [[ -n "$CORDON_PID" ]]; then
		fail "cordon_start: cordon is already running (call cordon_stop first)"
	fi
	local args=("$@") has_output=0 a
	for a in "${args[@]}"; do
		if [[ "$a" == --output || "$a" == --output=* ]]; then
			has_output=1
		fi
	done
	if ((!has_output)); then
		args+=(--output 1280x720)
	fi
	local name="wayland-test-$$"
	# A second start in the same test keeps the first log beside it.
	if ((CORDON_START_COUNT > 0)) && [[ -e "$TEST_TMP/cordon.log" ]]; then
		mv "$TEST_TMP/cordon.log" "$TEST_TMP/cordon-$CORDON_START_COUNT.log"
	fi
	CORDON_START_COUNT=$((CORDON_START_COUNT + 1))
	CORDON_LOG="$TEST_TMP/cordon.log"
	_launch_cordon "$CORDON_LOG" "$name" cordon \
		"$CORDON" --headless --socket "$name" "${args[@]}"
	CORDON_PID=$_started_pid
	CORDON_STARTED+=(main)
	export WAYLAND_DISPLAY="$name"
	export CORDON_SOCKET="$XDG_RUNTIME_DIR/cordon.$name.sock"
}

# cordon_start_command SOCKET_NAME CMD...: starts cordon as CMD starts it (an installed
# session's Exec line: no --headless, no --socket added; set WLR_BACKENDS for the backend)
# and waits until it listens at SOCKET_NAME, the name it chooses itself. It is then the
# main instance, as after cordon_start.
cordon_start_command() {
	cordon_test_init
	local name=$1
	shift
	[[ -z "$CORDON_PID" ]] || fail "cordon_start_command: cordon is already running"
	CORDON_START_COUNT=$((CORDON_START_COUNT + 1))
	CORDON_LOG="$TEST_TMP/cordon.log"
	_launch_cordon "$CORDON_LOG" "$name" "cordon ($1)" "$@"
	CORDON_PID=$_started_pid
	CORDON_STARTED+=(main)
	export WAYLAND_DISPLAY="$name"
	export CORDON_SOCKET="$XDG_RUNTIME_DIR/cordon.$name.sock"
}

# cordon_spawn_extra NAME [VAR=VALUE...] [CORDON ARGS...]
# Starts another cordon with Wayland socket NAME (in the same XDG_RUNTIME_DIR), the
# given environment and arguments (no --headless is added: pass it, or a backend
# through WLR_BACKENDS=...). It inherits WAYLAND_DISPLAY, so WLR_BACKENDS=wayland
# nests it in the main instance. Sets CORDON_EXTRA_SOCKET to its control socket;
# ctl_at NAME ARGS... talks to it. Its log is $TEST_TMP/cordon-NAME.log.
cordon_spawn_extra() {
	cordon_test_init
	local name=$1
	shift
	local envs=()
	while (($#)) && [[ "$1" == [A-Za-z_]*=* ]]; do
		envs+=("$1")
		shift
	done
	_launch_cordon "$TEST_TMP/cordon-$name.log" "$name" "cordon instance $name" \
		env "${envs[@]}" "$CORDON" --socket "$name" "$@"
	CORDON_EXTRA_NAMES+=("$name")
	CORDON_EXTRA_PIDS[$name]=$_started_pid
	CORDON_STARTED+=("extra $name")
	CORDON_EXTRA_SOCKET="$XDG_RUNTIME_DIR/cordon.$name.sock"
}

# nested_lsan_env: prints an LSAN_OPTIONS=... word for cordon_spawn_extra that adds
# the suppressions for wlroots' own leaks on nested backends to tests/lsan.supp.
nested_lsan_env() {
	local supp="$TEST_TMP/lsan-nested.supp"
	cat "$CORDON_SOURCE_ROOT/tests/lsan.supp" \
		"$CORDON_SOURCE_ROOT/tests/integration/lsan-nested-backends.supp" >"$supp" 2>/dev/null ||
		cp "$CORDON_SOURCE_ROOT/tests/integration/lsan-nested-backends.supp" "$supp"
	printf 'LSAN_OPTIONS=%s\n' "${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$supp"
}

extra_pid() {
	printf '%s\n' "${CORDON_EXTRA_PIDS[$1]}"
}

# extra_expect_exit NAME: the extra instance NAME is about to end on purpose (a quit the
# test asks for): wait_for stops taking its exit for a crash (take its extra_pid first).
extra_expect_exit() {
	CORDON_EXTRA_PIDS[$1]=
}

ctl() {
	"$CORDONCTL" --socket "$CORDON_SOCKET" "$@"
}

ctl_at() {
	local name=$1
	shift
	"$CORDONCTL" --socket "$XDG_RUNTIME_DIR/cordon.$name.sock" "$@"
}

# fd_count: how many fds cordon holds now. Read as the names in /proc/PID/fd only (a glob
# lists them without stat), so an fd closed while it is read is not an error.
fd_count() {
	local fds=("/proc/$CORDON_PID/fd"/*)
	echo "${#fds[@]}"
}

# fd_names: what cordon's fds point at, one per line, sorted; one closed meanwhile is left out.
fd_names() {
	local fd
	for fd in "/proc/$CORDON_PID/fd"/*; do
		readlink "$fd" 2>/dev/null || true
	done | sort
}

# start_client NAME CMD...: runs CMD in the background in its own process group (so
# teardown also reaches what it forks, such as dbus-run-session's bus), output in
# $TEST_TMP/NAME.log. Sets CLIENT_PID; client_pid NAME prints it later.
start_client() {
	cordon_test_init
	local name=$1
	shift
	setsid "$@" >"$TEST_TMP/$name.log" 2>&1 </dev/null &
	CLIENT_PID=$!
	CORDON_CLIENT_NAMES+=("$name")
	CORDON_CLIENT_PIDS[$name]=$CLIENT_PID
	CORDON_STARTED+=("client $name")
}

# Starts a private dbus-daemon (a client named session-bus) and exports its address,
# before cordon_start: cordon, xdg-desktop-portal and the document portal then share it.
_session_bus_up() {
	busctl --address="$DBUS_SESSION_BUS_ADDRESS" status >/dev/null 2>&1
}
start_session_bus() {
	cordon_test_init
	local conf="$TEST_TMP/session-bus.conf"
	cat >"$conf" <<EOF_CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$XDG_RUNTIME_DIR/bus</listen>
  <servicedir>$TEST_TMP/dbus-services</servicedir>
  <standard_session_servicedirs/>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF_CONF
	mkdir -p "$TEST_TMP/dbus-services"
	export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
	start_client session-bus dbus-daemon --nofork --nopidfile --config-file="$conf"
	wait_for "the session dbus-daemon" _session_bus_up
	# The bus activates the real services it lists (the document portal mounts its
	# FUSE file system at $XDG_RUNTIME_DIR/doc): nothing is left mounted after the test.
	on_teardown _unmount_documents
}
_unmount_documents() {
	if grep -qF " $XDG_RUNTIME_DIR/doc " /proc/self/mounts; then
		fusermount3 -u -z "$XDG_RUNTIME_DIR/doc" 2>/dev/null || umount -l "$XDG_RUNTIME_DIR/doc"
	fi
}

client_pid() {
	printf '%s\n' "${CORDON_CLIENT_PIDS[$1]}"
}

client_alive() {
	_alive "${CORDON_CLIENT_PIDS[$1]}"
}

# Stops one client (SIGTERM to its group, SIGKILL after 3 s) and reaps it.
stop_client() {
	local pid=${CORDON_CLIENT_PIDS[$1]:-}
	[[ -n "$pid" ]] || return 0
	if _alive "$pid"; then
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
		if ! _wait_gone "$pid" 3; then
			kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	wait "$pid" 2>/dev/null || true
	CORDON_CLIENT_PIDS[$1]=
}

# The windows cordon lists, as a JSON array (the result of `cordonctl --json windows`).
windows_json() {
	ctl --json windows
}

_has_window() {
	windows_json | jq -e --arg a "$1" 'any(.[]; .app_id == $a)' >/dev/null
}

wait_for_window() {
	wait_for "a window with app_id '$1'" _has_window "$1"
}

_has_no_window() {
	windows_json | jq -e --arg a "$1" 'all(.[]; .app_id != $a)' >/dev/null
}

wait_for_window_gone() {
	wait_for "the window with app_id '$1' to go away" _has_no_window "$1"
}

# _first_window DESCRIPTION WINDOWS-JSON JQ-OPTION NAME VALUE CONDITION: prints the
# first window that CONDITION (over $NAME) selects, or fails with "no window
# DESCRIPTION".
_first_window() {
	local description=$1 windows=$2 json
	json=$(jq -c "$3" "$4" "$5" "first(.[] | select($6))" <<<"$windows") || true
	if [[ -z "$json" || "$json" == null ]]; then
		fail "no window $description"
	fi
	printf '%s\n' "$json"
}

window_json() {
	_first_window "with app_id '$1'" "$(windows_json)" --arg a "$1" '.app_id == $a'
}

_window_focused() {
	windows_json | jq -e --arg a "$1" 'first(.[] | select(.app_id == $a)).focused == true' >/dev/null
}

wait_for_focus() {
	wait_for "the window with app_id '$1' to have focus" _window_focused "$1"
}

_has_window_pid() {
	windows_json | jq -e --argjson p "$1" 'any(.[]; .pid == $p)' >/dev/null
}

wait_for_window_pid() {
	wait_for "a window of pid $1" _has_window_pid "$1"
}

window_json_by_pid() {
	_first_window "of pid $1" "$(windows_json)" --argjson p "$1" '.pid == $p'
}

# The same for an extra instance, by its Wayland socket name.
_has_window_pid_at() {
	ctl_at "$1" --json windows | jq -e --argjson p "$2" 'any(.[]; .pid == $p)' >/dev/null
}

window_json_by_pid_at() {
	_first_window "of pid $2 in cordon instance $1" "$(ctl_at "$1" --json windows)" \
		--argjson p "$2" '.pid == $p'
}

png_probe() {
	"${CORDON_TEST_TOOLS:?CORDON_TEST_TOOLS is not set}/png-probe" "$@"
}

# color_permille FILE "R G B" TOLERANCE X Y W H: prints how many of every 1000 pixels
# of the region match the colour, for assertions like "at least 99% background".
color_permille() {
	local file=$1 rgb=$2 tolerance=$3 x=$4 y=$5 w=$6 h=$7 count
	if ((w <= 0 || h <= 0)); then
		echo 1000
		return 0
	fi
	# shellcheck disable=SC2086 # rgb is three words on purpose
	count=$(png_probe "$file" count-color $rgb "$tolerance" "$x" "$y" "$w" "$h") || return 1
	echo $((count * 1000 / (w * h)))
}

# screenshot OUTPUT FILE (cordonctl screenshot on the main cordon); screenshot_at NAME
# OUTPUT FILE for an extra instance. Both fail unless FILE was written.
screenshot() {
	ctl screenshot "$1" "$2" >/dev/null || fail "cordonctl screenshot $1 $2 failed"
	[[ -s "$2" ]] || fail "cordonctl screenshot $1 did not write $2"
}

screenshot_at() {
	ctl_at "$1" screenshot "$2" "$3" >/dev/null || fail "cordonctl screenshot $2 $3 failed on $1"
	[[ -s "$3" ]] || fail "cordonctl screenshot $2 on $1 did not write $3"
}

# type_text TEXT: types TEXT into the focused client with `cordonctl key`, one keysym
# per character (letters, digits, space and common punctuation).
type_text() {
	local text=$1 keys=() c i
	for ((i = 0; i < ${#text}; i++)); do
		c=${text:i:1}
		case "$c" in
		[a-zA-Z0-9]) keys+=("$c") ;;
		' ') keys+=(space) ;;
		/) keys+=(slash) ;;
		.) keys+=(period) ;;
		-) keys+=(minus) ;;
		_) keys+=(underscore) ;;
		'>') keys+=(greater) ;;
		'<') keys+=(less) ;;
		=) keys+=(equal) ;;
		:) keys+=(colon) ;;
		,) keys+=(comma) ;;
		"'") keys+=(apostrophe) ;;
		'"') keys+=(quotedbl) ;;
		'$') keys+=(dollar) ;;
		+) keys+=(plus) ;;
		*) fail "type_text: no keysym for '$c'" ;;
		esac
	done
	# cordon takes a bounded number of keys per request: send them in chunks.
	for ((i = 0; i < ${#keys[@]}; i += 32)); do
		ctl key click "${keys[@]:i:32}" >/dev/null ||
			fail "cordonctl key failed while typing '$text'"
	done
}

# Stops one cordon and checks how it ended: exit status 0, no sanitizer report.
# mode is "quit" (cordonctl quit, then SIGTERM, then SIGKILL) or a signal name.
# Returns non-zero (after logging why) when cordon ended badly.
_stop_cordon() {
	local pid=$1 control=$2 log=$3 what=$4 mode=$5 rc=0 bad=0
	if _alive "$pid"; then
		if [[ "$mode" == quit ]]; then
			timeout 5 "$CORDONCTL" --socket "$control" quit >/dev/null 2>&1 || true
		else
			kill -s "$mode" "$pid" 2>/dev/null || true
		fi
		if ! _wait_gone "$pid" 10; then
			_log "FAIL: $what did not exit within 10 s of $mode; sending SIGTERM"
			bad=1
			kill -TERM "$pid" 2>/dev/null || true
			if ! _wait_gone "$pid" 5; then
				_log "FAIL: $what ignored SIGTERM; sending SIGKILL"
				kill -KILL "$pid" 2>/dev/null || true
			fi
		fi
	fi
	wait "$pid" 2>/dev/null || rc=$?
	if ((rc > 128)); then
		_log "FAIL: $what was killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null || echo '?'))"
		bad=1
	elif ((rc != 0)); then
		_log "FAIL: $what exited with status $rc"
		bad=1
	fi
	if [[ -f "$log" ]] && grep -Eq "$CORDON_SANITIZER_PATTERN" "$log"; then
		_log "FAIL: sanitizer report in $(basename "$log"):"
		grep -E -A 30 "$CORDON_SANITIZER_PATTERN" "$log" | head -n 80 >&2
		bad=1
	fi
	return "$bad"
}

# cordon_stop [SIGNAL]: stops the main cordon (by `cordonctl quit`, or by SIGNAL such
# as TERM or INT) and fails the test unless it exits 0 with a clean log. Afterwards
# cordon_start may be called again.
cordon_stop() {
	local mode=${1:-quit}
	[[ -n "$CORDON_PID" ]] || fail "cordon_stop: cordon is not running"
	local pid=$CORDON_PID
	CORDON_PID=
	if ! _stop_cordon "$pid" "$CORDON_SOCKET" "$CORDON_LOG" cordon "$mode"; then
		fail "cordon did not shut down cleanly (stopped with $mode)"
	fi
}

# on_teardown FUNCTION: runs FUNCTION at teardown, after every client and cordon
# stopped (for state outside $TEST_TMP, such as a cgroup).
declare -a CORDON_CLEANUPS=()
on_teardown() {
	CORDON_CLEANUPS+=("$1")
}

# --- test cgroups -------------------------------------------------------------------
# Sandboxed clients run in cgroups named like the sandboxes cordon recognises
# (docs/sandbox-identity.md), all in one slice of the test's own under the cgroup v2
# mount (not always /sys/fs/cgroup: here it may be .../unified), removed at teardown.

# "${IN_CGROUP[@]}" DIR CMD...: runs CMD in the cgroup DIR (a command, so that
# start_client and timeout can run it).
# shellcheck disable=SC2034 # used by the scripts that source this file
IN_CGROUP=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' in_cgroup)

# test_cgroup UNIT: makes the cgroup UNIT (app-flatpak-org.example.App-1.scope, say) in
# the test's slice and sets TEST_CGROUP to its path; CORDON_CGROUP_MOUNT is the v2 mount.
# Skips the test where cgroups cannot be made (no v2 mount, not root).
test_cgroup() {
	if [[ -z "${CORDON_TEST_SLICE:-}" ]]; then
		local mount slice
		mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
		[[ -n "$mount" ]] || skip "no cgroup v2 mount"
		[[ -w "$mount" ]] || skip "cannot create cgroups under $mount (needs root)"
		# A fresh name, not one made from $$ alone: process ids repeat (tests run in a pid
		# namespace), and a slice a killed test left behind must not stop this one.
		slice=$(mktemp -d "$mount/cordon-test-$$-XXXXXX.slice") ||
			fail "cannot create a cgroup under $mount"
		chmod 0755 "$slice"
		CORDON_CGROUP_MOUNT=$mount
		CORDON_TEST_SLICE=$slice
		on_teardown _remove_test_cgroups
	fi
	TEST_CGROUP="$CORDON_TEST_SLICE/$1"
	mkdir "$TEST_CGROUP" || fail "cannot create the cgroup $TEST_CGROUP"
}

# Whatever a test left in its cgroups, at any depth, is thawed (a test may have frozen
# it) and killed; then every cgroup goes, the deepest first (a cgroup with children
# cannot be removed), waiting a little for the killed to be gone.
_remove_test_cgroups() {
	local cg
	[[ -d "$CORDON_TEST_SLICE" ]] || return 0
	while IFS= read -r cg; do
		[[ -e "$cg/cgroup.freeze" ]] && echo 0 >"$cg/cgroup.freeze" 2>/dev/null
		[[ -e "$cg/cgroup.kill" ]] && echo 1 >"$cg/cgroup.kill" 2>/dev/null
	done < <(find "$CORDON_TEST_SLICE" -mindepth 1 -type d)
	while IFS= read -r cg; do
		for _ in $(seq 50); do
			rmdir "$cg" 2>/dev/null && break
			sleep 0.05
		done
		[[ -d "$cg" ]] && _log "warning: cannot remove the test cgroup $cg"
	done < <(find "$CORDON_TEST_SLICE" -depth -type d)
}

cordon_teardown() {
	local status=$? name i
	# A subshell that exits must not tear down the test's compositor.
	[[ "$BASHPID" == "$CORDON_HARNESS_PID" ]] || return 0
	trap - EXIT
	set +e
	for ((i = ${#CORDON_STARTED[@]} - 1; i >= 0; i--)); do
		name=${CORDON_STARTED[$i]#* }
		case "${CORDON_STARTED[$i]}" in
		client\ *)
			stop_client "$name"
			;;
		extra\ *)
			if [[ -n "${CORDON_EXTRA_PIDS[$name]}" ]]; then
				_stop_cordon "${CORDON_EXTRA_PIDS[$name]}" \
					"$XDG_RUNTIME_DIR/cordon.$name.sock" "$TEST_TMP/cordon-$name.log" \
					"cordon instance $name" quit || CORDON_HARNESS_FAILED=1
				CORDON_EXTRA_PIDS[$name]=
			fi
			;;
		main)
			if [[ -n "$CORDON_PID" ]]; then
				_stop_cordon "$CORDON_PID" "$CORDON_SOCKET" "$CORDON_LOG" cordon quit ||
					CORDON_HARNESS_FAILED=1
				CORDON_PID=
			fi
			;;
		esac
	done
	# The test's own clean-up, last first, once everything it started is gone.
	for ((i = ${#CORDON_CLEANUPS[@]} - 1; i >= 0; i--)); do
		"${CORDON_CLEANUPS[$i]}"
	done
	if ((CORDON_HARNESS_FAILED)) && ((status == 0 || status == 77)); then
		status=1
	fi
	if ((status != 0 && status != 77 && !CORDON_HARNESS_REPORTED)); then
		_log "FAIL: the test exited with status $status"
		_tail_logs
	fi
	if [[ -n "$TEST_TMP" && -d "$TEST_TMP" ]]; then
		if [[ "${CORDON_TEST_KEEP:-0}" == 1 ]]; then
			_log "kept $TEST_TMP"
		else
			rm -rf "$TEST_TMP"
		fi
	fi
	exit "$status"
}
