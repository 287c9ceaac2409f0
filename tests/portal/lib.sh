# Shared by the portal tests: a flatpak-named cgroup to run sandboxed clients in, and
# cordon started with the auto UI answering from $ANSWER.
: "${CORDON_PORTAL:?CORDON_PORTAL must point to the cordon-portal binary}"

# portal_sandbox_init APP_ID: makes the cgroup (unique per test run, removed at teardown)
# and sets the in_sandbox command prefix.
portal_sandbox_init() {
	test_cgroup "app-flatpak-$1-$$.scope"
	PORTAL_SCOPE=$TEST_CGROUP
	in_sandbox=("${IN_CGROUP[@]}" "$PORTAL_SCOPE")
}

# portal_auto_ini: the [portal] lines of a cordon.ini whose auto UI answers every request
# from $TEST_TMP/answer. The auto UI is configuration only (never cordon's environment);
# a test that gives portal_start a --config of its own writes these lines into it.
portal_auto_ini() {
	printf '[portal]\nui = auto\nui-options = %s\n' "${TEST_TMP:?}/answer"
}

# portal_start [CORDON ARGS...]: cordon with the auto UI, its permission store in $TEST_TMP.
# Without --config the auto UI is in the default cordon.ini, so that a later cordon_start
# without --config has it too.
portal_start() {
	cordon_test_init
	export XDG_STATE_HOME="$TEST_TMP/state"
	ANSWER=$TEST_TMP/answer
	mkdir -p "$XDG_CONFIG_HOME/cordon"
	portal_auto_ini >"$XDG_CONFIG_HOME/cordon/cordon.ini"
	local arg previous=
	for arg in "$@"; do
		if [[ $previous == --config ]] && ! grep -qx "ui = auto" "$arg"; then
			fail "portal_start: $arg has no auto UI (append the lines of portal_auto_ini)"
		fi
		previous=$arg
	done
	cordon_start "$@"
	wait_for "cordon to say that the auto UI answers from $ANSWER" grep -qF \
		"[portal] ui = auto: every portal request is answered from $ANSWER" "$CORDON_LOG"
}

# builtin_ui_init: for a test of the built-in dialogs (not the auto UI): the permission
# store and an empty $HOME of the test's own, so what a dialog lists and remembers is the
# test's.
builtin_ui_init() {
	cordon_test_init
	export XDG_STATE_HOME="$TEST_TMP/state"
	export HOME="$TEST_TMP/home"
	mkdir -p "$HOME"
}

# answer PATH...: what the "user" chooses for the next request (nothing: cancel).
answer() {
	if (($#)); then
		printf '%s\n' "$@" >"$ANSWER"
	else
		: >"$ANSWER"
	fi
}

# portal CMD ARGS...: runs cordon-portal in the sandbox; sets out, err, rc.
portal() {
	rc=0
	out=$("${in_sandbox[@]}" "$CORDON_PORTAL" "$@" 2>"$TEST_TMP/portal.err") || rc=$?
	err=$(cat "$TEST_TMP/portal.err")
}

# camera_providers_init [KEY = VALUE]...: $providers, the user's camera provider folder,
# with the test pattern registered as pattern.provider (and the extra lines given).
camera_providers_init() {
	cordon_test_init
	providers="$XDG_DATA_HOME/cordon/camera-providers"
	mkdir -p "$providers" "$TEST_TMP/out"
	printf '[Camera Provider]\nName = Test pattern\nMimeTypes = image/png\nExec = %s\nAppId = true\n' \
		"${CORDON_CAMERA_PATTERN:?}" >"$providers/pattern.provider"
	if (($#)); then
		printf '%s\n' "$@" >>"$providers/pattern.provider"
	fi
}

# dialog_ready: waits until a pending request's dialog takes input. A dialog ignores
# presses for its grace period ([portal] dialog-grace-ms, 750 ms by default) after it
# appears, moves or gets the keyboard back; keys sent before are dropped, as a user's
# stray keys are.
_dialog_ready() {
	ctl --json portal-requests | jq -e 'any(.[]; .dialog_ready)' >/dev/null
}
dialog_ready() {
	wait_for "the dialog to take input after its grace period" _dialog_ready
}

# dialog_shown_now: returns as soon as a pending request's dialog is shown with the
# keyboard (polled without pause: an attack test types into the grace period).
dialog_shown_now() {
	local deadline=$(($(date +%s%N) + CORDON_TEST_TIMEOUT * 1000000000))
	until ctl --json portal-requests | jq -e 'any(.[]; .dialog_shown)' >/dev/null; do
		(($(date +%s%N) < deadline)) || fail "timed out waiting for a dialog to show"
	done
}
