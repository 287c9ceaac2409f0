#!/usr/bin/env bash
# Two cordon instances of one user share the permission store (a nested cordon, two
# seats). Neither may undo the other's changes: a deny made in one must not be turned
# back into an allow on disk by an unrelated grant in the other, which loaded the store
# before the deny (docs/security.md, mediation). Both changes end up on disk, count in
# both instances at once and after a restart. A store that does not parse is never
# written over: both instances refuse changes, saying why, and the file stays as it was.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"

cordon_test_init
export XDG_STATE_HOME="$TEST_TMP/state"
store="$XDG_STATE_HOME/cordon/permissions"
victim=org.example.Victim other=org.example.Other

permission_in() { # permission_in CTL-FUNCTION... APP PORTAL
	local app=${*: -2:1} portal=${*: -1}
	"${@:1:$#-2}" --json permissions list | jq -r --arg a "$app" --arg p "$portal" \
		'first(.[] | select(.app_id == $a and .portal == $p)).permission // "none"'
}
main_ctl() { ctl "$@"; }
second_ctl() { ctl_at second "$@"; }

cordon_start --verbose
# The first instance grants the camera; the second starts and loads that store.
main_ctl permissions grant "$victim" camera >/dev/null
cordon_spawn_extra second --headless --verbose
assert_eq allow "$(permission_in second_ctl "$victim" camera)" "the second instance loaded the grant"

# The user takes the camera away in the first instance...
main_ctl permissions deny "$victim" camera >/dev/null
grep -qx "camera = deny" "$store" || fail "the deny is not on disk"
# ...and grants something unrelated in the second.
second_ctl permissions grant "$other" file-chooser >/dev/null

# Both on disk: the deny was not turned back into an allow.
awk -v a="[$victim]" '$0 == a { s = 1; next } /^\[/ { s = 0 } s' "$store" | grep -qx "camera = deny" ||
	fail "the deny was undone on disk by the other instance: $(cat "$store")"
awk -v a="[$other]" '$0 == a { s = 1; next } /^\[/ { s = 0 } s' "$store" | grep -qx "file-chooser = allow" ||
	fail "the grant is not on disk: $(cat "$store")"
# Both in effect in both instances, at once...
for c in main_ctl second_ctl; do
	assert_eq deny "$(permission_in $c "$victim" camera)" "the deny as $c sees it"
	assert_eq allow "$(permission_in $c "$other" file-chooser)" "the grant as $c sees it"
done
# ...and after a restart of both.
second_pid=$(extra_pid second)
extra_expect_exit second
ctl_at second quit >/dev/null 2>&1 || true
wait_for "the second instance to exit" not _alive "$second_pid"
cordon_stop
cordon_start --verbose
assert_eq deny "$(permission_in main_ctl "$victim" camera)" "the deny after a restart"
assert_eq allow "$(permission_in main_ctl "$other" file-chooser)" "the grant after a restart"

# A store that does not parse: reported with its line, never written over, every change
# refused with the reason (here in the running instance, whose lookups see the new file).
printf '[%s]\ncamera = deny\ncamera = perhaps\n' "$victim" >"$store"
before=$(sha256sum "$store")
if out=$(main_ctl permissions grant "$victim" camera 2>&1); then
	fail "a change was accepted over a store that does not parse: $out"
fi
[[ "$out" == *"read-only"*"permissions:3:"* ]] || fail "the refusal does not say why: $out"
assert_eq "$before" "$(sha256sum "$store")" "the corrupt store after a refused change"
grep -q "permissions:3: expected ask, allow or deny, got 'perhaps'" "$CORDON_LOG" ||
	fail "the corrupt line was not logged"
echo "two instances: a deny and an unrelated grant both kept, on disk and in effect; a corrupt store stays as it is"
