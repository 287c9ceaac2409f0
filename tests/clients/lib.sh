# Helpers shared by the client tests; sourced after tests/lib/harness.sh.
# Each test client writes one line per event to $TEST_TMP/NAME.log (start_client).

# shellcheck disable=SC2034 # used by the scripts that source this file
TC="${CORDON_TEST_CLIENTS:?CORDON_TEST_CLIENTS is not set}"

# log_has NAME ERE: some line of the client's log matches.
log_has() {
	grep -Eq -- "$2" "$TEST_TMP/$1.log" 2>/dev/null
}

# log_count NAME ERE: how many lines of the client's log match.
log_count() {
	local n
	n=$(grep -Ec -- "$2" "$TEST_TMP/$1.log" 2>/dev/null) || true
	echo "${n:-0}"
}

# log_last NAME ERE: the last matching line.
log_last() {
	grep -E -- "$2" "$TEST_TMP/$1.log" 2>/dev/null | tail -n 1
}

# wait_log NAME ERE: waits until the client has printed a matching line.
wait_log() {
	wait_for "$1 to print /$2/" log_has "$1" "$2"
}

# log_count_above NAME ERE N: more than N lines match (for "a new event arrived").
log_count_above() {
	[ "$(log_count "$1" "$2")" -gt "$3" ]
}

# clipboard_owner_is TAG: the clipboard's owner, as cordonctl selection names it ("host",
# "ENGINE:APP_ID/INSTANCE"), or "null" for an empty clipboard. A host tool's copy shows
# there even while the focused sandboxed app is not offered it (and wl-paste, reading what
# the focused app is offered, sees nothing: docs/mediation.md).
clipboard_owner_is() {
	[[ "$(ctl --json selection | jq -r '.[0].source')" == "$1" ]]
}

# geometry APP_ID: prints "X Y WIDTH HEIGHT" of the window in layout coordinates.
geometry() {
	window_json "$1" | jq -r '"\(.x) \(.y) \(.width) \(.height)"'
}

# window_is APP_ID JQ_FILTER: the window exists and the filter holds for its object.
window_is() {
	window_json "$1" 2>/dev/null | jq -e "$2" >/dev/null 2>&1
}

# visible_point APP_ID: prints "X Y", a point inside the window that no window
# stacked above it covers (sampled every 10 px, 5 px in from the edges).
# Prints nothing when the window is hidden or fully covered.
visible_point() {
	windows_json | jq -r --arg app "$1" '
		(map(.app_id) | index($app)) as $i
		| if $i == null then empty else
			.[$i] as $w
			| [.[:$i][] | select(.minimized | not)] as $above
			| first(
				range($w.y + 5; $w.y + $w.height - 5; 10) as $y
				| range($w.x + 5; $w.x + $w.width - 5; 10) as $x
				| select(all($above[];
					$x < .x or $x >= .x + .width or $y < .y or $y >= .y + .height))
				| "\($x) \($y)")
		end'
}

# click_window APP_ID [BUTTON]: moves the pointer to a visible point of the window and clicks.
click_window() {
	local point
	point=$(visible_point "$1")
	[ -n "$point" ] || fail "no visible point of window $1 to click: $(windows_json)"
	# shellcheck disable=SC2086 # "X Y" is two arguments
	ctl pointer move $point
	ctl pointer button "${2:-left}" click
}

# last_keyboard_event NAME: "keyboard-enter" or "keyboard-leave", whichever came last.
last_keyboard_event() {
	log_last "$1" '^keyboard-(enter|leave)$'
}

# expect_clean_exit NAME: the client ends by itself (after `ctl close`, say) with
# status 0 and no sanitizer report in its log.
expect_clean_exit() {
	local pid status=0
	pid=$(client_pid "$1")
	wait_for "$1 to exit" not client_alive "$1"
	wait "$pid" || status=$?
	assert_eq 0 "$status" "exit status of $1"
	if grep -Eq "$CORDON_SANITIZER_PATTERN" "$TEST_TMP/$1.log"; then
		fail "sanitizer report in $1.log"
	fi
}

# wait_input_trusted APP_ID: a press in the window now counts as the user's action (a
# sandboxed window must have been shown a while, large and opaque enough: input_router.c).
wait_input_trusted() {
	wait_for "a press in $1 to count as the user's" window_is "$1" '.input_trusted'
}
