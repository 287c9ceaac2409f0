#!/usr/bin/env bash
# Attack (docs/security.md, mediation): a sandboxed window reads a drag that only passes
# over it. dnd-snoop (in a flatpak-named cgroup) calls wl_data_offer.receive on enter, on
# the first motion, and later on the offer it kept after the drag left it and was dropped
# on a host window. Across a boundary the data belongs to the drop: each of those gets an
# fd closed without data (zero bytes), the host source is never asked to send for them,
# and the refusal is logged once per drag. Also in explicit mode. Positive controls: the
# host window dropped on gets the data, and the same snooping client, dropped on, does.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
snoop_exe=${1:?usage: dnd-receive-before-drop.sh PATH-TO-dnd-snoop}

test_cgroup app-flatpak-org.example.Snoop-7.scope
in_snoop=("${IN_CGROUP[@]}" "$TEST_CGROUP")
test_cgroup app-flatpak-org.example.Explicit-8.scope
in_explicit=("${IN_CGROUP[@]}" "$TEST_CGROUP")
utf8='text/plain;charset=utf-8'

cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Explicit]
clipboard-explicit = yes
INI
cordon_start --output 1280x720 --policy "$TEST_TMP/policy.ini"

text="secret dragged $$"
len=$(printf '%s' "$text" | wc -c)
transfers_matching() {
	ctl --json transfers | jq "[.[] | select($1)] | length"
}
# drag_to FROM_APP TO_APP: presses on FROM_APP (the source), waits for its drag, and moves
# onto TO_APP (button still held).
drag_to() {
	local from to
	from=$(visible_point "$1")
	to=$(visible_point "$2")
	[[ -n "$from" && -n "$to" ]] || fail "no visible points: $(windows_json)"
	# shellcheck disable=SC2086 # "X Y" is two arguments
	local before
	before=$(log_count source '^drag-started')
	ctl pointer move $from
	ctl pointer button left press
	# Moving on before the source has asked for the drag would leave its surface first, and
	# wlroots refuses a drag whose press serial is not the focused surface's.
	wait_for "the source to start a drag" log_count_above source '^drag-started' "$before"
	# shellcheck disable=SC2086
	ctl pointer move $to
}

start_client source "$TC/clip-client" --app-id dnd-source --drag "$text" \
	--copy-type "$utf8" --width 600 --height 120
wait_for_window dnd-source
start_client snoop "${in_snoop[@]}" "$snoop_exe" --app-id dnd-snoop --type "$utf8" \
	--out "$TEST_TMP/snoop-dropped" --width 160 --height 400
wait_for_window dnd-snoop
start_client htarget "$TC/clip-client" --app-id dnd-htarget --drop "$utf8" \
	--out "$TEST_TMP/host-dropped" --width 900 --height 60
wait_for_window dnd-htarget

# 1. Over the sandboxed window: receive on enter and on motion.
drag_to dnd-source dnd-snoop
wait_log source '^drag-started'
wait_log snoop '^dnd-enter types='
wait_log snoop '^snooped-enter bytes='
assert_eq "snooped-enter bytes=0" "$(log_last snoop '^snooped-enter')" "a receive on enter"
ctl pointer motion 2 2
wait_log snoop '^snooped-motion bytes='
assert_eq "snooped-motion bytes=0" "$(log_last snoop '^snooped-motion')" "a receive on motion"
assert_eq 0 "$(log_count source '^source-send')" "sends the host source was asked for before a drop"

# 2. On to a host window and dropped there: it gets the data (positive control)...
accepted=$(log_count source "^source-target type=$utf8\$")
to=$(visible_point dnd-htarget)
# shellcheck disable=SC2086
ctl pointer move $to
wait_log snoop '^dnd-leave$'
wait_log htarget '^dnd-enter types='
ctl pointer motion 1 1
wait_for "the host target's accept to reach the source" \
	log_count_above source "^source-target type=$utf8\$" "$accepted"
ctl pointer button left release
wait_log htarget "^dropped bytes=$len\$"
assert_eq "$text" "$(cat "$TEST_TMP/host-dropped")" "what the host target got"
wait_log source '^dnd-finished$'
# ...and the offer the sandbox kept from the pass-over still gives nothing.
click_window dnd-snoop
wait_log snoop '^snooped-stale bytes='
assert_eq "snooped-stale bytes=0" "$(log_last snoop '^snooped-stale')" "a receive on a kept offer"
assert_eq 1 "$(log_count source '^source-send')" "sends asked of the source (the host drop only)"
assert_eq 1 "$(transfers_matching '.kind == "drag" and .decision == "denied-before-drop" and
	.destination == "flatpak:org.example.Snoop/7"')" \
	"refusals logged for the first drag (once, however often it asked)"

# 3. Positive control: the same snooping client, dropped on, gets the data.
drag_to dnd-source dnd-snoop
wait_for "a second enter" log_count_above snoop '^dnd-enter' 1
wait_for "a second snoop on enter" log_count_above snoop '^snooped-enter' 1
assert_eq "snooped-enter bytes=0" "$(log_last snoop '^snooped-enter')" "a receive on the second enter"
# (The snoop accepts before it receives: its answer to the receive means the accept is in.)
ctl pointer motion 2 2
ctl pointer button left release
wait_log snoop "^dropped bytes=$len\$"
assert_eq "$text" "$(cat "$TEST_TMP/snoop-dropped")" "what the sandbox got by a real drop"
# A function, run again at each try (wait_for's arguments are expanded once, at its call).
drop_logged() {
	[[ "$(transfers_matching '.kind == "drag" and .destination == "flatpak:org.example.Snoop/7" and
		.decision == "proxied"')" == 1 ]]
}
wait_for "the drop into the sandbox to be logged as proxied" drop_logged

# 4. Explicit mode changes nothing of it: nothing before the drop, the data at the drop.
stop_client snoop
start_client explicit "${in_explicit[@]}" "$snoop_exe" --app-id dnd-explicit --type "$utf8" \
	--out "$TEST_TMP/explicit-dropped" --width 160 --height 400
wait_for_window dnd-explicit
sends=$(log_count source '^source-send')
drag_to dnd-source dnd-explicit
wait_log explicit '^snooped-enter bytes='
assert_eq "snooped-enter bytes=0" "$(log_last explicit '^snooped-enter')" "explicit mode: a receive on enter"
ctl pointer motion 2 2
wait_log explicit '^snooped-motion bytes='
assert_eq "snooped-motion bytes=0" "$(log_last explicit '^snooped-motion')" "explicit mode: on motion"
assert_eq "$sends" "$(log_count source '^source-send')" "explicit mode: sends before the drop"
ctl pointer button left release
wait_log explicit "^dropped bytes=$len\$"
assert_eq "$text" "$(cat "$TEST_TMP/explicit-dropped")" "explicit mode: the drop"
echo "drag data across a boundary: nothing before the drop (enter, motion, kept offer), all at the drop"
