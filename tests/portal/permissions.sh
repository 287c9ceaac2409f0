#!/usr/bin/env bash
# The permission store through cordonctl and a sandboxed cordon-portal: a denied app
# gets an error without a dialog, a granted one still chooses in a dialog, chosen
# folders are remembered, everything survives a restart, and a corrupt store is
# reported with its line and kept read-only (never written over) while cordon asks.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/portal/lib.sh"

app=org.example.Perm
portal_start --verbose
portal_sandbox_init "$app"
store="$XDG_STATE_HOME/cordon/permissions"
host="$TEST_TMP/host"
mkdir -p "$host" "$TEST_TMP/out"
echo "content" >"$host/file.txt"
answer "$host/file.txt"

dialogs() {
	grep -c "auto: request" "$CORDON_LOG" || true
}
permission_of() {
	ctl --json permissions list | jq -r --arg a "$app" \
		'first(.[] | select(.app_id == $a and .portal == "file-chooser")).permission // "none"'
}

assert_eq "[]" "$(ctl --json permissions list)" "a new store"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "open by default, after asking ($err)"
assert_eq "\"$host\"" "$(ctl --json permissions list | jq -c --arg a "$app" \
	'first(.[] | select(.app_id == $a)).folders[0]')" "the remembered folder"
assert_eq ask "$(permission_of)" "the default permission"

# Denied: an error, and no dialog at all.
ctl permissions deny "$app" file-chooser >/dev/null
before=$(dialogs)
portal open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "a denied app's status"
[[ "$err" == "cordon-portal: denied: "* ]] || fail "the denial says: $err"
assert_eq "$before" "$(dialogs)" "dialogs shown for a denied app"
rc=0
echo x | "${in_sandbox[@]}" "$CORDON_PORTAL" save-file --name a 2>/dev/null || rc=$?
assert_eq 3 "$rc" "a denied app's save"

# Granted: no confirmation step, but the user still picks the file in a dialog.
ctl permissions grant "$app" file-chooser >/dev/null
assert_eq allow "$(permission_of)" "after grant"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "a granted app's open ($err)"
assert_eq $((before + 1)) "$(dialogs)" "a granted app still gets a dialog"

# The store cannot hold an app id with spaces or brackets: refused, not written.
! ctl permissions grant "bad id]" file-chooser >/dev/null 2>&1 || fail "a bad app id was stored"
! ctl permissions maybe "$app" file-chooser >/dev/null 2>&1 || fail "an unknown verb worked"
grep -qx "# cordon portal permissions, format 1 (docs/portals.md)" "$store" ||
	fail "the store has no format header"
grep -qx "\[$app\]" "$store" || fail "the store has no section for the app"
grep -qx "file-chooser = allow" "$store" || fail "the store does not say allow"

# A restart keeps it all.
cordon_stop
cordon_start --verbose
assert_eq allow "$(permission_of)" "after a restart"
ctl permissions revoke "$app" file-chooser >/dev/null
assert_eq ask "$(permission_of)" "after revoke"

# A corrupt store: logged with its line and left as it is; cordon asks and runs on, and
# refuses changes (saying why) rather than write over it.
cordon_stop
printf '[%s]\nfile-chooser = deny\nfile-chooser = perhaps\n' "$app" >"$store"
corrupt=$(cat "$store")
cordon_start --verbose
grep -q "permissions:3: expected ask, allow or deny, got 'perhaps'" "$CORDON_LOG" ||
	fail "the corrupt line was not reported"
assert_eq none "$(permission_of)" "the defaults after a corrupt store"
! ctl permissions grant "$app" file-chooser >/dev/null 2>&1 || fail "a corrupt store was written"
assert_eq "$corrupt" "$(cat "$store")" "the corrupt store after a refused change"
portal open-file --output "$TEST_TMP/out"
assert_eq 0 "$rc" "open with the defaults ($err)"
rm "$store"

# The per-app policy (docs/policy.md) can leave a portal out: denied without a dialog,
# whatever the store says.
cordon_stop
printf '[app %s]\nportals = camera\n' "$app" >"$TEST_TMP/policy.ini"
cordon_start --verbose --policy "$TEST_TMP/policy.ini"
ctl permissions grant "$app" file-chooser >/dev/null
portal open-file --output "$TEST_TMP/out"
assert_eq 3 "$rc" "a portal the policy leaves out"
[[ "$err" == *"policy does not allow"* ]] || fail "the policy refusal says: $err"
assert_eq 0 "$(dialogs)" "dialogs for a portal the policy leaves out"

cordon_stop
