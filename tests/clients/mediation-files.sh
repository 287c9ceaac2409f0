#!/usr/bin/env bash
# Files across a sandbox boundary as document grants (docs/mediation.md): a host file
# copied with wl-copy as text/uri-list, or dragged, reaches a cordon-run app as a path in
# its own document view (granted through the real xdg-document-portal) that it can open,
# with the content byte for byte, and no host path in what it received; another app does
# not see the document; a symlink swapped in is refused; the sandbox's document paths go
# back to the host as the host's document view, anything else is dropped; with no session
# bus the file type is not offered at all.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
: "${CORDON_RUN:?CORDON_RUN must point to cordon-run}"
for tool in wl-copy dbus-daemon busctl jq xdg-document-portal fusermount3; do
	command -v "$tool" >/dev/null || [[ -x /usr/libexec/$tool ]] || skip "$tool is not installed"
done

cordon_test_init
export XDG_DATA_HOME="$TEST_TMP/data"
app=org.example.Files$$
other=org.example.Other$$
uid=$(id -u)
doc_inside=/run/user/$uid/doc
# The app's persistent data dir: what the sandboxed client writes there, the test reads here.
app_data="$XDG_DATA_HOME/cordon/apps/$app/data"
data_inside="/home/$(id -un)/.local/share"
# The test clients are the app (/app); LeakSanitizer cannot run where ptrace is denied.
run_in() {
	local id=$1
	shift
	"$CORDON_RUN" --app-id "$id" --app "$TC" --setenv ASAN_OPTIONS=detect_leaks=0 -- "$@"
}
in_app=("$CORDON_RUN" --app-id "$app" --app "$TC" --setenv ASAN_OPTIONS=detect_leaks=0 --)
in_other=("$CORDON_RUN" --app-id "$other" --app "$TC" --setenv ASAN_OPTIONS=detect_leaks=0 --)
transfer_logged() {
	ctl --json transfers | jq -e "any(.[]; $1)" >/dev/null
}
focus_and_press() {
	ctl focus "$1" >/dev/null
	wait_for_focus "$1"
	wait_input_trusted "$1"
	ctl key click a >/dev/null
}
# file_uri PATH: the file URI with each component percent-encoded.
file_uri() {
	jq -rn --arg p "$1" '"file://" + ($p | split("/") | map(@uri) | join("/"))'
}
# uri_path URI: the decoded path of a file URI.
uri_path() {
	/usr/bin/python3 -c 'import sys, urllib.parse; print(urllib.parse.unquote(sys.argv[1][len("file://"):]))' "$1"
}
# no_host_path FILE WHAT: the bytes name nothing of the host's.
no_host_path() {
	local needle
	for needle in "$TEST_TMP" "$(basename "$TEST_TMP")" "$(id -un)/" "host-files"; do
		! grep -qF -- "$needle" "$1" || fail "$2 contains '$needle': $(cat -A "$1")"
	done
}

host="$TEST_TMP/host-files"
mkdir -p "$host"
name="report $$ ü&x.txt"
printf 'the host file %s\n\x01\xffbinary\n' "$$" >"$host/$name"
uri=$(file_uri "$host/$name")

# 1. No session bus: cordon says so once, and a sandbox is not even offered the file type.
cordon_start --verbose
wait_for "cordon to say file grants are off" grep -q "File grants are off: no session bus" \
	"$CORDON_LOG"
start_client copy wl-copy --foreground --type text/uri-list -- "$uri"
host_has_list() {
	[[ "$(timeout 5 wl-paste -n -t text/uri-list 2>/dev/null)" == "$uri" ]]
}
wait_for "the host to see the uri-list" host_has_list
start_client nobus "${in_app[@]}" /app/clip-client --app-id nobus-reader --paste text/uri-list \
	--out "$data_inside/nobus"
wait_for_window nobus-reader
focus_and_press nobus-reader
wait_log nobus '^key serial='
wait_log nobus '^(selection none|paste-none)'
! log_has nobus '^selection types=.*text/uri-list' ||
	fail "the uri-list was offered without file grants: $(log_last nobus '^selection')"
[[ ! -s "$app_data/nobus" ]] || fail "the sandbox received something: $(cat -A "$app_data/nobus")"
assert_eq 1 "$(grep -c "File grants are off" "$CORDON_LOG")" "how often the missing bus was logged"
stop_client nobus
stop_client copy
cordon_stop TERM
echo "no bus: the file type is not offered"

# 2. With the real document portal.
start_session_bus
cordon_start --verbose
wait_for "cordon to find the document portal" grep -q "File grants: files cross" "$CORDON_LOG"
start_client copy wl-copy --foreground --type text/uri-list -- "$uri"
wait_for "the host to see the uri-list" host_has_list
start_client reader "${in_app[@]}" /app/clip-client --app-id files-reader \
	--paste text/uri-list --out "$data_inside/list"
wait_for_window files-reader
ctl focus files-reader >/dev/null
wait_log reader '^keyboard-enter$'
! log_has reader '^selection types' || fail "offered on focus alone"
focus_and_press files-reader
wait_for "the reader to paste" log_has reader '^pasted bytes=[1-9]'
list=$(cat "$app_data/list")
no_host_path "$app_data/list" "what the sandbox received"
[[ "$list" =~ ^file://$doc_inside/([A-Za-z0-9_-]+)/([^/]+)$'\r'$ ]] ||
	fail "not one document path: $(cat -A "$app_data/list")"
doc_id=${BASH_REMATCH[1]}
inside=$(uri_path "${list%$'\r'}")
assert_eq "$doc_inside/$doc_id/$name" "$inside" "the path inside"
run_in "$app" cat "$inside" >"$TEST_TMP/got" || fail "the app cannot open $inside"
cmp "$host/$name" "$TEST_TMP/got" || fail "the content inside differs"
wait_for "the grant to be logged" transfer_logged \
	".kind == \"clipboard\" and .source == \"host\" and
	 (.destination | startswith(\"cordon:$app/\")) and .mime_type == \"text/uri-list\" and
	 .decision == \"granted\" and .bytes == $(wc -c <"$app_data/list")"
echo "host to sandbox: a path in the app's document view, the file byte for byte"

# Another app sees neither the document nor the file by its path.
rc=0
run_in "$other" cat "$inside" >/dev/null 2>&1 || rc=$?
((rc != 0)) || fail "another app read the first app's document"
listing=$(run_in "$other" sh -c "ls -A $doc_inside 2>&1") || true
! grep -q "$doc_id" <<<"$listing" || fail "another app lists the document: $listing"
echo "another app does not see the document"

# The trap: a file swapped for a symlink (to a file the user never copied) after the copy,
# and a path through a symlinked directory, are refused; links and other schemes: http(s)
# pass, the rest is dropped.
printf 'the ssh key %s\n' "$$" >"$host/id_secret"
printf 'swapped %s\n' "$$" >"$host/swap.txt"
ln -s "$host" "$TEST_TMP/dirlink"
mixed=$(printf '%s\r\n' "# a comment" "$(file_uri "$host/swap.txt")" \
	"$(file_uri "$TEST_TMP/dirlink/$name")" "https://example.org/a?b=c" "ftp://example.org/x" \
	"file://otherhost$host/id_secret" "file:$host/relative/../id_secret")
stop_client copy
wait_for "the old list to leave the clipboard" clipboard_owner_is null
start_client copy wl-copy --foreground --type text/uri-list -- "$mixed"
wait_for "the host's new list to own the clipboard" clipboard_owner_is host
mv "$host/swap.txt" "$host/swap.real"
ln -s "$host/id_secret" "$host/swap.txt"
pastes=$(log_count reader '^pasted bytes=')
ctl key click a >/dev/null
wait_for "the second paste" log_count_above reader '^pasted bytes=' "$pastes"
assert_eq "https://example.org/a?b=c" "$(tr -d '\r' <"$app_data/list")" \
	"what crossed of the mixed list"
grep -q "swap.txt not granted: a symlink on the way (refused)" "$CORDON_LOG" ||
	fail "the swapped symlink was not refused: $(grep 'File grants' "$CORDON_LOG" | tail -n 5)"
grep -q "dirlink/.* not granted: a symlink on the way (refused)" "$CORDON_LOG" ||
	fail "the symlinked directory was not refused"
no_host_path "$app_data/list" "the mixed list"
echo "trap: a swapped symlink and a symlinked directory are refused"

# Only symlinks: nothing is granted, the reader gets a clean empty end, logged as refused.
stop_client copy
wait_for "the old list to leave the clipboard" clipboard_owner_is null
start_client copy wl-copy --foreground --type text/uri-list -- "$(file_uri "$host/swap.txt")"
wait_for "the host's new list to own the clipboard" clipboard_owner_is host
pastes=$(log_count reader '^pasted bytes=')
ctl key click a >/dev/null
wait_for "the third paste" log_count_above reader '^pasted bytes=' "$pastes"
assert_eq "pasted bytes=0" "$(log_last reader '^pasted bytes=')" "what a symlink alone gave"
wait_for "the refusal to be logged" transfer_logged \
	".mime_type == \"text/uri-list\" and .decision == \"refused\" and .bytes == 0"

# Many files at once: more than dbus-daemon takes in one message (16 fds), which would
# cost cordon its session bus connection if sent as one call. All arrive, and the bus
# keeps serving (the drag below needs it).
mkdir -p "$host/many"
many=""
for ((i = 0; i < 40; i++)); do
	echo "file $i of $$" >"$host/many/f$i.txt"
	many+="$(file_uri "$host/many/f$i.txt")"$'\r\n'
done
stop_client copy
wait_for "the old list to leave the clipboard" clipboard_owner_is null
start_client copy wl-copy --foreground --type text/uri-list -- "$many"
wait_for "the host's new list to own the clipboard" clipboard_owner_is host
pastes=$(log_count reader '^pasted bytes=')
ctl key click a >/dev/null
wait_for "the long list's paste" log_count_above reader '^pasted bytes=' "$pastes"
assert_eq 40 "$(grep -c "^file://$doc_inside/[A-Za-z0-9_-]*/f[0-9]*\.txt"$'\r'"\$" "$app_data/list")" \
	"documents for the 40 files"
last=$(uri_path "$(tail -n 1 "$app_data/list" | tr -d '\r')")
assert_eq "file 39 of $$" "$(run_in "$app" cat "$last")" "the 40th file inside"
stop_client copy
stop_client reader

# 3. Drag and drop from the host into the sandbox window.
start_client source "$TC/clip-client" --app-id dnd-source --drag "$uri" \
	--copy-type text/uri-list --copy-type application/vnd.portal.filetransfer \
	--width 700 --height 150
wait_for_window dnd-source
start_client target "${in_app[@]}" /app/clip-client --app-id dnd-target --drop text/uri-list \
	--out "$data_inside/dropped" --width 150 --height 500
wait_for_window dnd-target
from=$(visible_point dnd-source)
to=$(visible_point dnd-target)
[[ -n "$from" && -n "$to" ]] || fail "no visible points: $(windows_json)"
# shellcheck disable=SC2086 # "X Y" is two arguments
ctl pointer move $from
ctl pointer button left press
wait_log source '^drag-started'
# shellcheck disable=SC2086
ctl pointer move $to
wait_log target '^dnd-enter types='
# The FileTransfer key is of use only on the session bus, which the sandbox lacks.
assert_eq "dnd-enter types=text/uri-list" "$(log_last target '^dnd-enter')" "the types offered"
ctl pointer motion 2 2
wait_log source '^source-target type=text/uri-list$'
ctl pointer button left release
wait_log target '^dropped bytes=[1-9]'
no_host_path "$app_data/dropped" "what the drop target received"
assert_eq "file://$doc_inside/$doc_id/$(jq -rn --arg n "$name" '$n|@uri')" \
	"$(tr -d '\r\n' <"$app_data/dropped")" "the dropped path (the same document, reused)"
run_in "$app" cat "$inside" | cmp - "$host/$name" || fail "the dropped file differs inside"
wait_for "the drop to be logged as granted" transfer_logged \
	".kind == \"drag\" and .source == \"host\" and .mime_type == \"text/uri-list\" and
	 .decision == \"granted\""
stop_client source
stop_client target
echo "drag and drop: the file arrives as a document path"

# 4. Sandbox to host: the app's document path becomes the host's view of it; a path of
# its own files, a document it does not hold, and a made-up one are dropped.
back=$(printf '%s\r\n' "file://$doc_inside/$doc_id/$(jq -rn --arg n "$name" '$n|@uri')" \
	"file:///etc/passwd" "file://$doc_inside/zzzz0000/x" "https://example.org/")
start_client scopy "${in_app[@]}" /app/clip-client --app-id files-copier --copy "$back" \
	--copy-type text/uri-list
wait_for_window files-copier
focus_and_press files-copier
wait_log scopy '^copied serial='
start_client hreader "$TC/clip-client" --app-id host-reader --paste text/uri-list \
	--out "$TEST_TMP/host-list"
wait_for_window host-reader
focus_and_press host-reader
wait_log hreader '^pasted bytes=[1-9]'
host_doc="$XDG_RUNTIME_DIR/doc/$doc_id/$name"
assert_eq "$(file_uri "$host_doc")|https://example.org/" \
	"$(tr -d '\r' <"$TEST_TMP/host-list" | paste -sd '|')" "what the host got back"
cmp "$host_doc" "$host/$name" || fail "the host's document view differs"
wait_for "sandbox to host logged as granted" transfer_logged \
	"(.source | startswith(\"cordon:$app/\")) and .destination == \"host\" and
	 .mime_type == \"text/uri-list\" and .decision == \"granted\""
stop_client scopy
stop_client hreader

# Another app offering the first one's document: not its own, nothing goes to the host.
start_client ocopy "${in_other[@]}" /app/clip-client --app-id other-copier \
	--copy "file://$doc_inside/$doc_id/$(jq -rn --arg n "$name" '$n|@uri')" --copy-type text/uri-list
wait_for_window other-copier
focus_and_press other-copier
wait_log ocopy '^copied serial='
start_client hreader2 "$TC/clip-client" --app-id host-reader2 --paste text/uri-list \
	--out "$TEST_TMP/host-list2"
wait_for_window host-reader2
focus_and_press host-reader2
wait_log hreader2 '^pasted bytes='
assert_eq "pasted bytes=0" "$(log_last hreader2 '^pasted bytes=')" \
	"what the host got of another app's document"
echo "sandbox to host: only the app's own documents, as the host sees them"
