#!/usr/bin/env bash
# Drag and drop across a sandbox boundary (docs/mediation.md), with injected pointer
# events: a host window drags text onto a sandboxed one; the target sees the offer only
# while the pointer is over it, only the allowed type, and gets the data intact through
# cordon. A sandbox cannot start a drag with no button down.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

test_cgroup app-flatpak-org.example.Target-3.scope
scope=$TEST_CGROUP
in_scope=("${IN_CGROUP[@]}" "$scope")
utf8='text/plain;charset=utf-8'
app='flatpak:org.example.Target/3'

cordon_start --output 1280x720
transfer_logged() {
	ctl --json transfers | jq -e "any(.[]; $1)" >/dev/null
}

# A wide source and a tall target: however they stack, each keeps a part of its own.
text="dragged $$: ünïcødé"
start_client source "$TC/clip-client" --app-id dnd-source --drag "$text" \
	--copy-type "$utf8" --copy-type application/x-secret --copy-type text/uri-list \
	--width 700 --height 150
wait_for_window dnd-source
start_client target "${in_scope[@]}" "$TC/clip-client" --app-id dnd-target --drop "$utf8" \
	--out "$TEST_TMP/dropped" --width 150 --height 500
wait_for_window dnd-target
from=$(visible_point dnd-source)
to=$(visible_point dnd-target)
[[ -n "$from" && -n "$to" ]] || fail "no visible points: $(windows_json)"

# Press on the source: it starts the drag from that press.
# shellcheck disable=SC2086 # "X Y" is two arguments
ctl pointer move $from
ctl pointer button left press
wait_log source '^drag-started'
# Over the target: the offer has only the allowed type (no text/uri-list: without a
# session bus there are no file grants, and a host path must not cross as text;
# mediation-files.sh drags files with the document portal).
# shellcheck disable=SC2086
ctl pointer move $to
wait_log target '^dnd-enter types='
assert_eq "dnd-enter types=$utf8" "$(log_last target '^dnd-enter')" "the types offered across"
ctl pointer motion 2 2
wait_log target '^dnd-motion$'
wait_log source "^source-target type=$utf8\$"
# Off the target (the background corner): the offer goes with the pointer.
ctl pointer move 2 2
wait_log target '^dnd-leave$'
enters=$(log_count target '^dnd-enter')
# shellcheck disable=SC2086
ctl pointer move $to
wait_for "the target to be entered again" log_count_above target '^dnd-enter' "$enters"
ctl pointer motion 1 1
# The drop: the accepted type arrives intact, through cordon.
ctl pointer button left release
wait_log target "^dropped bytes=$(printf '%s' "$text" | wc -c)\$"
cmp <(printf '%s' "$text") "$TEST_TMP/dropped" || fail "the dropped data differs"
wait_log source '^dnd-finished$'
! log_has source 'source-send type=(application/x-secret|text/uri-list)' ||
	fail "a denied type was sent"
wait_for "the drop to be logged as proxied" transfer_logged \
	".kind == \"drag\" and .source == \"host\" and .destination == \"$app\" and
	 .mime_type == \"$utf8\" and .decision == \"proxied\""

# The other way: a sandboxed source drags, from its real button press, onto a host target.
stop_client source
stop_client target
start_client ssource "${in_scope[@]}" "$TC/clip-client" --app-id dnd-ssource \
	--drag "from the sandbox $$" --copy-type "$utf8" --copy-type application/x-secret \
	--width 700 --height 150
wait_for_window dnd-ssource
start_client htarget "$TC/clip-client" --app-id dnd-htarget --drop "$utf8" \
	--out "$TEST_TMP/hdropped" --width 150 --height 500
wait_for_window dnd-htarget
from=$(visible_point dnd-ssource)
to=$(visible_point dnd-htarget)
# A press in a sandboxed window starts a drag once the window has been shown a while.
wait_input_trusted dnd-ssource
# shellcheck disable=SC2086
ctl pointer move $from
ctl pointer button left press
wait_log ssource '^drag-started'
# shellcheck disable=SC2086
ctl pointer move $to
wait_log htarget '^dnd-enter types='
assert_eq "dnd-enter types=$utf8" "$(log_last htarget '^dnd-enter')" "the types offered to the host"
ctl pointer motion 2 2
wait_log ssource "^source-target type=$utf8\$"
ctl pointer button left release
wait_log htarget "^dropped bytes=$(printf 'from the sandbox %s' $$ | wc -c)\$"
assert_eq "from the sandbox $$" "$(cat "$TEST_TMP/hdropped")" "what the host got from the sandbox"
wait_for "the sandbox-to-host drop to be logged" transfer_logged \
	".kind == \"drag\" and .source == \"$app\" and .destination == \"host\" and .decision == \"proxied\""

# Trap: a sandbox that starts a drag with no button down (a key serial) is refused.
start_client sneaky "${in_scope[@]}" "$TC/clip-client" --app-id sneaky --drag "sneaky $$" \
	--drag-on-key
wait_for_window sneaky
ctl focus sneaky >/dev/null
wait_for_focus sneaky
ctl key click a >/dev/null
wait_log sneaky '^drag-started'
wait_log sneaky '^source-cancelled$'
wait_for "the refused drag to be logged" transfer_logged \
	".kind == \"drag\" and .source == \"$app\" and .decision == \"drag-refused-deny-no-button\""
echo "drag and drop: offered only over the target, filtered, proxied, refused without a button"
