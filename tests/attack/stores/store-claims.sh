#!/usr/bin/env bash
# A store goes after another store's app: its index lists an app id it may not serve, it
# signs a bundle of that app, its app list overlaps and it offers an "update" of an app the
# user installed from the other store, or its key changes (a takeover of its server). Each is
# refused with a clear line; the user can say yes (--replace-origin, --replace-key), and the
# legitimate store keeps working.
set -euo pipefail
source "$CORDON_SOURCE_ROOT/tests/lib/harness.sh"
source "$CORDON_SOURCE_ROOT/tests/apps/lib.sh"

ID=org.example.Shared
make_key alpha
make_key beta
make_key thief
make_bundle "$APPS_WORK/alpha-1.0.cordon" alpha "$ID" 1.0
publish "$APPS_WORK/alpha" alpha 1 "$APPS_WORK/alpha-1.0.cordon"
serve "$APPS_WORK/alpha"
alpha_url=$STORE_URL
capp store add alpha "$alpha_url" --key "$(pub alpha)" --apps 'org.example.*' >/dev/null
capp store add beta "$APPS_WORK/beta" --key "$(pub beta)" --apps 'net.other.*' >/dev/null
capp install "alpha/$ID" --yes >/dev/null || fail "the install from alpha"

# beta signs a newer version of alpha's app, and lists it in its index.
make_bundle "$APPS_WORK/beta-2.0.cordon" beta "$ID" 2.0
publish "$APPS_WORK/beta" beta 1 "$APPS_WORK/beta-2.0.cordon"
before=$(disk_state)
expect_refusal 4 "store beta may not serve $ID" capp install "beta/$ID" --yes
expect_refusal 4 "refused $ID: store beta may not serve this app id" \
	capp install "$APPS_WORK/beta-2.0.cordon" --yes
assert_eq "$before" "$(disk_state)" "the disk after beta's claims"
# An index listing someone else's app is refused as a whole, whatever the user asked for.
expect_refusal 3 "store beta claims app $ID, which it may not serve" \
	capp install beta/net.other.Anything --yes

# beta's list now overlaps alpha's (the user added org.example.* to it): still no takeover.
capp store add beta "$APPS_WORK/beta" --key "$(pub beta)" --apps 'net.other.*,org.example.*' >/dev/null
before=$(disk_state)
expect_refusal 4 "refused $ID: it is installed from store alpha; beta may not replace it" \
	capp install "beta/$ID" --yes
after=$(capp info "$ID" --json | jq -r '"\(.version) \(.store)"')
assert_eq "1.0 alpha" "$after" "the app after beta's attempt"
# ... unless the user says so.
capp install "beta/$ID" --yes --replace-origin | grep -q "Installed $ID 2.0 from store beta" ||
	fail "--replace-origin did not let beta replace the app"
capp install "alpha/$ID" --yes --replace-origin --allow-downgrade >/dev/null ||
	fail "back to alpha's"
assert_eq "1.0 alpha" "$(capp info "$ID" --json | jq -r '"\(.version) \(.store)"')" "alpha's again"

# alpha's server is taken over: a new key signs its index.
before=$(disk_state)
make_bundle "$APPS_WORK/thief-3.0.cordon" thief "$ID" 3.0
publish "$APPS_WORK/alpha" thief 5 "$APPS_WORK/thief-3.0.cordon"
expect_refusal 3 "store alpha: the index is not signed by the store's key" capp update "$ID" --yes
expect_refusal 4 "store alpha is known with key" \
	capp store add alpha "$alpha_url" --key "$(pub thief)" --apps 'org.example.*'
assert_eq "$before" "$(disk_state)" "the disk after a changed store key"
# The user confirms a real key change.
capp store add alpha "$alpha_url" --key "$(pub thief)" --apps 'org.example.*' --replace-key \
	>/dev/null || fail "--replace-key"
capp update "$ID" --yes | grep -q "Installed $ID 3.0 from store alpha" ||
	fail "the update after a confirmed key change"
