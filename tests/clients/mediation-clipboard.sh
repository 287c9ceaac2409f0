#!/usr/bin/env bash
# Clipboard mediation across sandbox boundaries (docs/mediation.md), with real clients
# in flatpak-named cgroups: a sandbox gets nothing it did not ask for by a key press
# in its window, gets text byte for byte through cordon's proxy when it does, never
# sees a type the rules deny, and cannot set the clipboard without a user action.
# Transfers stop at the size limit with a clean end, and neither a source that dies
# nor a reader that never reads stops cordon serving a third client's frames.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v wl-copy >/dev/null || skip "wl-copy not found (Debian package wl-clipboard)"

test_cgroup app-flatpak-org.example.Reader-1.scope
scope_a=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Writer-2.scope
scope_b=$TEST_CGROUP
in_a=("${IN_CGROUP[@]}" "$scope_a")
in_b=("${IN_CGROUP[@]}" "$scope_b")
utf8='text/plain;charset=utf-8'
app_a='flatpak:org.example.Reader/1'
app_b='flatpak:org.example.Writer/2'

cordon_start

# transfer_logged JQ_CONDITION: some entry of `cordonctl transfers` satisfies it.
transfer_logged() {
	ctl --json transfers | jq -e "any(.[]; $1)" >/dev/null
}
transfer_count() {
	ctl --json transfers | jq length
}
# focus_and_press APP_ID: focuses the window and presses a key in it (the user acts).
focus_and_press() {
	ctl focus "$1" >/dev/null
	wait_for_focus "$1"
	wait_input_trusted "$1"
	ctl key click a >/dev/null
}
# pasted NAME EXPECTED_BYTES: the client finished a paste of that many bytes.
pasted() {
	log_has "$1" "^pasted bytes=$2\$"
}

# 1. Host to sandbox. wl-copy on the host; the sandboxed reader that maps and takes
# focus is offered nothing.
text="mediated text $$: ünïcødé, tabs	and 'quotes'"
start_client copy wl-copy --foreground -- "$text"
host_pastes() {
	[[ "$(timeout 5 wl-paste -n)" == "$1" ]]
}
wait_for "the host to see the copied text" host_pastes "$text"
start_client reader "${in_a[@]}" "$TC/clip-client" --app-id reader --paste "$utf8" \
	--out "$TEST_TMP/reader.out"
wait_for_window reader
# A sandboxed window that maps is not given the keyboard (input_router.c): the user gives it.
last_keyboard_event reader | grep -q . && fail "the sandboxed reader took the keyboard as it mapped"
ctl focus reader >/dev/null
wait_log reader '^keyboard-enter$'
wait_log reader '^selection none$'
# A real client in the sandbox (wl-paste maps a surface to get focus): nothing either.
# It never gets the keyboard, so it times out (status 124: it connected and waited, the
# probe ran) with nothing.
status=0
got=$("${in_a[@]}" timeout 5 wl-paste -n 2>/dev/null) || status=$?
assert_eq "" "$got" "what a sandboxed wl-paste got without a user action"
assert_eq 124 "$status" "the sandboxed wl-paste's exit status (it must wait for a focus it never gets)"
! log_has reader '^selection types' || fail "the sandbox was offered the selection on focus"

# A key press in its window: offered, and the text arrives byte for byte through cordon.
focus_and_press reader
wait_for "the reader to paste" pasted reader "$(printf '%s' "$text" | wc -c)"
cmp <(printf '%s' "$text") "$TEST_TMP/reader.out" || fail "the pasted text differs"
wait_for "the transfer to be logged as proxied" transfer_logged \
	".source == \"host\" and .destination == \"$app_a\" and .decision == \"proxied\" and
	 .mime_type == \"$utf8\" and .bytes == $(printf '%s' "$text" | wc -c)"

# Another sandboxed window that maps does not take the focus; once the user gives it the
# focus it gets nothing; back in the reader, focus alone gives nothing again until the
# next press.
nones=$(log_count reader '^selection none$')
start_client thief "${in_b[@]}" "$TC/clip-client" --app-id thief --paste "$utf8"
wait_for_window thief
window_is reader '.focused' || fail "a sandboxed window that mapped took the focus from the reader"
ctl focus thief >/dev/null
wait_log thief '^selection none$'
wait_for "the reader's offer to go with its focus" log_count_above reader '^selection none$' "$nones"
! log_has thief '^selection types' || fail "a window that took focus was offered the selection"
nones=$(log_count reader '^selection none$')
ctl focus reader >/dev/null
wait_for_focus reader
wait_for "the reader to be entered without an offer" \
	log_count_above reader '^selection none$' "$nones"
[[ "$(log_last reader '^selection ')" == "selection none" ]] ||
	fail "the reader was offered the selection on regaining focus, before any press"
stop_client thief

# 2. A denied type is not offered, and asking for it anyway gets nothing.
stop_client copy
start_client hostcopy "$TC/clip-client" --app-id hostcopy --copy "secret $$" \
	--copy-type "$utf8" --copy-type application/x-secret --copy-type text/uri-list
wait_for_window hostcopy
focus_and_press hostcopy
wait_log hostcopy '^copied serial='
start_client nosy "${in_a[@]}" "$TC/clip-client" --app-id nosy --paste application/x-secret
wait_for_window nosy
focus_and_press nosy
wait_log nosy '^selection types='
[[ "$(log_last nosy '^selection types=')" == "selection types=$utf8" ]] ||
	fail "the offer was not filtered: $(log_last nosy '^selection types=')"
wait_for "the forced receive to end" pasted nosy 0
wait_for "the refusal to be logged" transfer_logged \
	".mime_type == \"application/x-secret\" and .decision == \"denied-type\""
! log_has hostcopy 'source-send type=application/x-secret' ||
	fail "the source was asked for a denied type"
stop_client nosy

# 3. Sandbox to host. A sandboxed writer copies on a key press in its window (its key
# serial); the host reads it through cordon.
start_client writer "${in_b[@]}" "$TC/clip-client" --app-id writer --copy "from the sandbox $$"
wait_for_window writer
focus_and_press writer
wait_log writer '^copied serial='
wait_log hostcopy '^source-cancelled$'
start_client hostread "$TC/clip-client" --app-id hostread --paste "$utf8" \
	--out "$TEST_TMP/hostread.out"
wait_for_window hostread
focus_and_press hostread
wait_for "the host reader to paste" pasted hostread "$(printf 'from the sandbox %s' $$ | wc -c)"
assert_eq "from the sandbox $$" "$(cat "$TEST_TMP/hostread.out")" "text the host pasted"
wait_for "the sandbox-to-host transfer to be logged" transfer_logged \
	".source == \"$app_b\" and .destination == \"host\" and .decision == \"proxied\""
# The host's wl-paste (data-control, which reads whatever has focus) is proxied too.
wait_for "the host's wl-paste to read the sandbox's copy" host_pastes "from the sandbox $$"
stop_client hostread

# 4. Two different sandboxed apps: writer (Writer/2) to reader (Reader/1), proxied.
before=$(log_count reader '^pasted bytes=')
sends=$(log_count writer '^source-pipe ino=')
focus_and_press reader
wait_for "the reader to paste again" log_count_above reader '^pasted bytes=' "$before"
assert_eq "from the sandbox $$" "$(cat "$TEST_TMP/reader.out")" "text one sandbox pasted from another"
# The trap: wlroots would hand the reader's fd to the source. Across, each holds its own pipe.
wait_for "the writer to be asked" log_count_above writer '^source-pipe ino=' "$sends"
reader_ino=$(log_last reader '^reader-pipe ino=' | cut -d= -f2)
writer_ino=$(log_last writer '^source-pipe ino=' | cut -d= -f2)
[[ -n "$reader_ino" && "$reader_ino" != "$writer_ino" ]] ||
	fail "the reader's pipe ($reader_ino) reached the other sandbox ($writer_ino)"
wait_for "the sandbox-to-sandbox transfer to be logged" transfer_logged \
	".source == \"$app_b\" and .destination == \"$app_a\" and .decision == \"proxied\""

# 5. Trap: a sandbox that sets the clipboard with a serial that is no user input (its
# keyboard-enter serial, which wlroots accepts) is refused, and so is a sandboxed wl-copy.
start_client sneaky "${in_b[@]}" "$TC/clip-client" --app-id sneaky --copy "sneaky $$" \
	--copy-on-enter
wait_for_window sneaky
ctl focus sneaky >/dev/null
wait_log sneaky '^source-cancelled$'
wait_for "the refused set_selection to be logged" transfer_logged \
	".source == \"$app_b\" and .decision == \"set-refused-deny-no-input\""
# A sandboxed wl-copy never gets the keyboard to set it with: it times out (status 124:
# it connected and waited), and the host's clipboard is unchanged (below).
status=0
"${in_b[@]}" timeout 5 wl-copy --foreground -- "sandboxed wl-copy $$" || status=$?
assert_eq 124 "$status" "the sandboxed wl-copy's exit status"
stop_client sneaky
# data-control readers see what the focused client may see: focus a host window.
ctl focus hostcopy >/dev/null
wait_for "the host to still see the writer's copy" host_pastes "from the sandbox $$"

# 6. Same app instance: two clients in one sandbox share the clipboard directly (no
# user action needed, nothing proxied or logged).
start_client same1 "${in_a[@]}" "$TC/clip-client" --app-id same1 --copy "same app $$"
wait_for_window same1
focus_and_press same1
wait_log same1 '^copied serial='
logged=$(transfer_count)
start_client same2 "${in_a[@]}" "$TC/clip-client" --app-id same2 --paste "$utf8" \
	--out "$TEST_TMP/same2.out"
wait_for_window same2
ctl focus same2 >/dev/null
wait_log same2 '^selection types='
ctl key click a >/dev/null
wait_for "the same-app paste" pasted same2 "$(printf 'same app %s' $$ | wc -c)"
assert_eq "same app $$" "$(cat "$TEST_TMP/same2.out")" "same-app paste"
# Within one app the fd goes straight through, as without cordon.
assert_eq "$(log_last same2 '^reader-pipe ino=' | cut -d= -f2)" \
	"$(log_last same1 '^source-pipe ino=' | cut -d= -f2)" "the same-app pipe"
assert_eq "$logged" "$(transfer_count)" "transfers logged for a same-app paste"
stop_client same1
stop_client same2

# 7. A third client draws all along; the rest must not stop its frame callbacks.
start_client frames "$TC/clip-client" --app-id frames --frames --width 64 --height 64
wait_log frames '^frames='
frames_grew() {
	local now
	now=$(log_last frames '^frames=' | cut -d= -f2)
	((now > $1 + 30))
}

# 8. Oversize: an endless host source gives the sandbox exactly the 64 MiB limit, then
# a clean end of file.
start_client endless "$TC/clip-client" --app-id endless --copy "0123456789abcdef" --copy-endless
wait_for_window endless
focus_and_press endless
wait_log endless '^copied serial='
start_client big "${in_a[@]}" "$TC/clip-client" --app-id big --paste "$utf8"
wait_for_window big
focus_and_press big
wait_for "the oversize paste to end at the limit" pasted big $((64 * 1024 * 1024))
wait_for "the truncation to be logged" transfer_logged \
	".destination == \"$app_a\" and .bytes == $((64 * 1024 * 1024)) and .decision == \"truncated-at-limit\""
stop_client big

# 9. A reader that never reads, several times over: cordon keeps serving the others,
# and a ninth transfer in flight for that client is refused.
start_client stuck "${in_a[@]}" "$TC/clip-client" --app-id stuck --paste "$utf8" --no-read
wait_for_window stuck
focus_and_press stuck
for _ in 1 2 3 4 5 6 7 8; do
	ctl key click a >/dev/null
done
wait_for "nine receives by the stuck reader" \
	log_count_above stuck '^receiving, not reading$' 8
frames_now=$(log_last frames '^frames=' | cut -d= -f2)
wait_for "frames to keep coming while a reader is stuck" frames_grew "$frames_now"
wait_for "the transfer cap to be logged" transfer_logged \
	".destination == \"$app_a\" and .decision == \"denied-too-many-transfers\""
stop_client stuck
stop_client endless

# 10. A source that dies mid-transfer: the reader gets what was written and a clean end.
start_client dying "$TC/clip-client" --app-id dying --copy "x" --copy-die-after 100000
wait_for_window dying
focus_and_press dying
wait_log dying '^copied serial='
start_client late "${in_a[@]}" "$TC/clip-client" --app-id late --paste "$utf8"
wait_for_window late
focus_and_press late
wait_for "the paste from a dying source to end" pasted late 100000
frames_now=$(log_last frames '^frames=' | cut -d= -f2)
wait_for "frames to keep coming after a source died" frames_grew "$frames_now"
echo "host/sandbox clipboard mediation: offers gated, filtered, proxied, capped and logged"
