#!/usr/bin/env bash
# Per-app mediation keys from policy.ini (docs/mediation.md): an app with a 1 KiB limit,
# plain text only and the primary selection allowed to cross gets exactly that; another
# app beside it keeps the defaults.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/clients/lib.sh"

test_cgroup app-flatpak-org.example.Small-1.scope
small=$TEST_CGROUP
test_cgroup app-flatpak-org.example.Plain-1.scope
plain=$TEST_CGROUP
in_small=("${IN_CGROUP[@]}" "$small")
in_plain=("${IN_CGROUP[@]}" "$plain")

cordon_test_init
cat >"$TEST_TMP/policy.ini" <<'INI'
[app org.example.Small]
clipboard-types = text/plain
clipboard-size-limit = 1K
clipboard-primary = yes
INI
cordon_start --policy "$TEST_TMP/policy.ini"

focus_and_press() {
	ctl focus "$1" >/dev/null
	wait_for_focus "$1"
	wait_input_trusted "$1"
	ctl key click a >/dev/null
}
pasted() {
	log_has "$1" "^pasted bytes=$2\$"
}

text=$(printf 'x%.0s' $(seq 3000))
start_client source "$TC/clip-client" --app-id source --copy "$text" \
	--copy-type 'text/plain;charset=utf-8' --copy-type text/plain
wait_for_window source
focus_and_press source
wait_log source '^copied serial='

start_client small "${in_small[@]}" "$TC/clip-client" --app-id small --paste text/plain
wait_for_window small
focus_and_press small
wait_for "the small app's paste to stop at its 1 KiB limit" pasted small 1024
assert_eq "selection types=text/plain" "$(log_last small '^selection types=')" "the small app's offer"

start_client plain "${in_plain[@]}" "$TC/clip-client" --app-id plain --paste text/plain
wait_for_window plain
focus_and_press plain
wait_for "the other app's full paste" pasted plain 3000
assert_eq "selection types=text/plain;charset=utf-8,text/plain" \
	"$(log_last plain '^selection types=')" "the other app's offer"

# The primary selection crosses into the app that allows it, after a press, not elsewhere.
start_client psource "$TC/clip-client" --app-id psource --primary --copy "primary $$"
wait_for_window psource
focus_and_press psource
wait_log psource '^copied serial='
start_client psmall "${in_small[@]}" "$TC/clip-client" --app-id psmall --primary --paste text/plain
wait_for_window psmall
focus_and_press psmall
wait_for "the primary selection to cross where allowed" pasted psmall "$(printf 'primary %s' $$ | wc -c)"
start_client pplain "${in_plain[@]}" "$TC/clip-client" --app-id pplain --primary --paste text/plain
wait_for_window pplain
focus_and_press pplain
wait_log pplain '^paste-none$'
echo "per-app limit, types and primary selection from policy.ini"
