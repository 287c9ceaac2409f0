#!/usr/bin/env bash
# Explicit (Qubes-like) mode, per app from policy.ini (docs/mediation.md): nothing from
# the host's clipboard reaches the app by focus or by an ordinary key press; the
# paste-across shortcut (Logo+Shift+v) offers it, with a banner on screen, until the
# app loses focus.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"
command -v jq >/dev/null || skip "jq not found"

test_cgroup app-flatpak-org.example.Careful-5.scope
scope=$TEST_CGROUP
in_scope=("${IN_CGROUP[@]}" "$scope")
utf8='text/plain;charset=utf-8'

cordon_test_init
printf '[app org.example.Careful]\nclipboard-explicit = yes\n' >"$TEST_TMP/policy.ini"
cordon_start --verbose --policy "$TEST_TMP/policy.ini"

focus_and_press() {
	ctl focus "$1" >/dev/null
	wait_for_focus "$1"
	wait_input_trusted "$1"
	ctl key click a >/dev/null
}

start_client source "$TC/clip-client" --app-id source --copy "explicit $$" --width 200 --height 100
wait_for_window source
focus_and_press source
wait_log source '^copied serial='

start_client careful "${in_scope[@]}" "$TC/clip-client" --app-id careful --paste "$utf8" \
	--out "$TEST_TMP/careful.out" --width 200 --height 100
wait_for_window careful
focus_and_press careful
wait_log careful '^paste-none$'
! log_has careful '^selection types' || fail "an explicit-mode app was offered the clipboard"

# The shortcut: offered, the banner is up, and the paste gets the text.
ctl key click super+shift+v >/dev/null
wait_log careful '^selection types='
shot="$TEST_TMP/notice.png"
screenshot HEADLESS-1 "$shot"
[[ "$(color_permille "$shot" "255 191 0" 8 0 0 1280 24)" -ge 990 ]] ||
	fail "no notice banner across the top of the output"
ctl --json transfers | jq -e 'any(.[]; .decision == "paste-across-offered" and
	.destination == "flatpak:org.example.Careful/5")' >/dev/null ||
	fail "the paste-across is not logged with the receiving app"
grep -q 'Paste across: the clipboard is offered to flatpak:org.example.Careful/5' "$CORDON_LOG" ||
	fail "the paste-across notice is not in cordon's log"
ctl key click a >/dev/null
wait_log careful "^pasted bytes=$(printf 'explicit %s' $$ | wc -c)\$"
assert_eq "explicit $$" "$(cat "$TEST_TMP/careful.out")" "text pasted after the shortcut"

# Focus away and back: the grant is gone.
ctl focus source >/dev/null
wait_for_focus source
before=$(log_count careful '^paste-none$')
focus_and_press careful
wait_for "the paste without a new shortcut to find nothing" \
	log_count_above careful '^paste-none$' "$before"
echo "explicit mode: the clipboard crosses only after the paste-across shortcut"
